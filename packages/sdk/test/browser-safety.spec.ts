import { readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join } from 'node:path';
import { build, type Metafile } from 'esbuild';

const REPO = join(__dirname, '..', '..', '..');
const SRC = join(__dirname, '..', 'src');
const NODE_BUILTINS = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));

/**
 * The main entry bundled for a browser with every dependency inlined, as a dapp's bundler
 * would: esbuild's browser platform cannot resolve Node built-ins, so any `node:` import (ours
 * or a dependency's) fails the build. The SDK's own code must not lean on Node globals either.
 */
async function bundleForBrowser(stdin: { contents: string; resolveDir: string }): Promise<{ metafile: Metafile; text: string }> {
  const result = await build({ stdin: { ...stdin, loader: 'ts' }, bundle: true, platform: 'browser', format: 'esm', write: false, metafile: true, absWorkingDir: REPO, logLevel: 'silent', target: 'es2022' });
  return { metafile: result.metafile, text: result.outputFiles[0].text };
}

describe('SDK main entry is browser-safe', () => {
  it('bundles for the browser with every dependency, touching no Node built-in', async () => {
    const { metafile } = await bundleForBrowser({ contents: "export * from './index';", resolveDir: SRC });
    const inputs = Object.keys(metafile.inputs);
    expect(inputs.some((i) => i.includes('viem'))).toBe(true);
    expect(inputs.filter((i) => NODE_BUILTINS.has(i))).toEqual([]);
    // Webhook verification lives behind /server for browsers; the main entry does not pull that entry in.
    expect(inputs.some((i) => i.endsWith('src/server.ts'))).toBe(false);
  });

  it("the SDK's own modules use no Node global (Buffer, process, require, __dirname)", async () => {
    const { metafile } = await bundleForBrowser({ contents: "export * from './index'; export * from './server';", resolveDir: SRC });
    // Input paths are relative to absWorkingDir, the repository root.
    const own = Object.keys(metafile.inputs).filter((path) => path.startsWith('packages/sdk/src/'));
    expect(own.length).toBeGreaterThan(5);
    for (const path of own) {
      const code = readFileSync(join(REPO, path), 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '');
      expect({ path, globals: code.match(/\b(Buffer|process\.|require\(|__dirname|NodeJS\.)/g) ?? [] }).toEqual({ path, globals: [] });
    }
  });

  it('the check can fail: an import of node:crypto does not bundle for the browser', async () => {
    await expect(bundleForBrowser({ contents: "import { createHmac } from 'node:crypto'; export const h = createHmac;", resolveDir: SRC })).rejects.toThrow(/node:crypto/);
  });
});
