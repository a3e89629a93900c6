import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const SDK_DIR = join(__dirname, '..', '..');
export const REPO_DIR = join(SDK_DIR, '..', '..');
const MARKER = join(SDK_DIR, 'dist', 'esm', 'index.mjs');

function newestSource(dir: string): number {
  return Math.max(
    ...readdirSync(dir, { withFileTypes: true }).map((e) => (e.isDirectory() ? newestSource(join(dir, e.name)) : statSync(join(dir, e.name)).mtimeMs)),
    statSync(join(SDK_DIR, 'package.json')).mtimeMs,
    statSync(join(SDK_DIR, 'scripts', 'build.mjs')).mtimeMs,
  );
}

/**
 * The package's build (scripts/build.mjs, as `npm run build -w @gas-relay/sdk` runs it after
 * regenerating the types), done again only when a source is newer than dist; a lock directory
 * keeps two test files of a parallel run from building at once.
 */
export async function ensureSdkBuilt(): Promise<void> {
  const lock = join(SDK_DIR, '.build-lock');
  for (let waited = 0; ; waited += 200) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (waited > 180_000) throw new Error(`the SDK build lock ${lock} is held for 3 minutes; remove it if no build runs`);
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    if (!existsSync(MARKER) || statSync(MARKER).mtimeMs < newestSource(join(SDK_DIR, 'src'))) {
      await run(process.execPath, [join(SDK_DIR, 'scripts', 'build.mjs')], { cwd: SDK_DIR });
    }
  } finally {
    rmdirSync(lock);
  }
}
