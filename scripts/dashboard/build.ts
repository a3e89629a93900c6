import { build } from 'esbuild';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');
const SRC = join(ROOT, 'dashboard');

export interface DashboardBuild {
  outDir: string;
  files: string[];
  ms: number;
}

/**
 * Bundles the dashboard (Preact + uPlot + the SDK from source) into `outDir`: index.html and
 * content-hashed files under assets/, so the server can cache them for good. esbuild takes
 * about a second, so the test tier builds it too instead of keeping a bundle in git.
 */
export async function buildDashboard(outDir = join(ROOT, 'dist', 'dashboard'), options: { minify?: boolean } = {}): Promise<DashboardBuild> {
  const started = Date.now();
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(join(outDir, 'assets'), { recursive: true });
  const result = await build({
    entryPoints: [join(SRC, 'src', 'main.tsx')],
    outdir: join(outDir, 'assets'),
    entryNames: '[name]-[hash]',
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['es2022'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    minify: options.minify ?? true,
    sourcemap: false,
    metafile: true,
    legalComments: 'none',
    logLevel: 'warning',
    tsconfig: join(SRC, 'tsconfig.json'),
    alias: {
      '@gas-relay/sdk': join(ROOT, 'packages', 'sdk', 'src', 'index.ts'),
      // The SDK's webhook verifier (server side only) imports node:crypto; the page never calls it.
      'node:crypto': join(SRC, 'src', 'shims', 'node-crypto.ts'),
    },
  });
  const outputs = Object.keys(result.metafile.outputs).map((f) => basename(f));
  const js = outputs.find((f) => f.endsWith('.js'));
  const css = outputs.find((f) => f.endsWith('.css'));
  if (!js || !css) throw new Error(`dashboard build produced ${outputs.join(', ')}`);
  const html = readFileSync(join(SRC, 'index.html'), 'utf8').replace('%SCRIPT%', `/dashboard/assets/${js}`).replace('%STYLE%', `/dashboard/assets/${css}`);
  writeFileSync(join(outDir, 'index.html'), html);
  return { outDir, files: ['index.html', ...outputs.map((f) => `assets/${f}`)], ms: Date.now() - started };
}

if (require.main === module) {
  buildDashboard(process.argv[2] ? resolve(process.argv[2]) : undefined)
    .then((b) => console.log(`dashboard built in ${b.ms} ms: ${b.files.join(', ')} -> ${b.outDir}`))
    .catch((err: unknown) => {
      console.error(err);
      process.exit(1);
    });
}
