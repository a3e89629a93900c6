import * as fs from 'fs';
import * as path from 'path';

/**
 * Repo root = nearest ancestor of this file holding a package.json. Walking up (rather than a
 * fixed '../..') keeps this working if the devnet code is ever run from a compiled copy.
 */
function findRepoRoot(start: string): string {
  let dir = start;
  for (;;) {
    if (fs.existsSync(path.join(dir, 'package.json')) && fs.existsSync(path.join(dir, 'contracts'))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return path.resolve(__dirname, '..', '..');
    dir = parent;
  }
}

export const REPO_ROOT = findRepoRoot(__dirname);
export const CONTRACTS_DIR = path.join(REPO_ROOT, 'contracts');
/** Git-ignored runtime state (artifact cache, deployment markers, devnet-chains.json). */
export const DEFAULT_STATE_DIR = path.join(REPO_ROOT, '.local');

/**
 * Directory of an installed npm package. Some packages (e.g. @uniswap/uniswapx-sdk) hide even
 * `package.json` behind an `exports` map, so fall back to resolving the main entry and walking up.
 */
export function packageDir(name: string): string {
  try {
    return path.dirname(require.resolve(`${name}/package.json`, { paths: [REPO_ROOT] }));
  } catch {
    let dir = path.dirname(require.resolve(name, { paths: [REPO_ROOT] }));
    while (!isPackageRoot(dir, name)) {
      const parent = path.dirname(dir);
      if (parent === dir) throw new Error(`cannot locate the root of npm package ${name}`);
      dir = parent;
    }
    return dir;
  }
}

function isPackageRoot(dir: string, name: string): boolean {
  const manifest = path.join(dir, 'package.json');
  if (!fs.existsSync(manifest)) return false;
  const parsed: unknown = JSON.parse(fs.readFileSync(manifest, 'utf8'));
  return typeof parsed === 'object' && parsed !== null && (parsed as { name?: unknown }).name === name;
}

/** Writes JSON atomically (temp file + rename) so a crash never leaves a half-written state file behind. */
export function writeJsonAtomic(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(value, null, 2) + '\n');
  fs.renameSync(tmp, file);
}
