// Builds the package: ESM (dist/esm/*.mjs) and CommonJS (dist/cjs/*.cjs) bundles of each entry
// with every dependency left external, plus the declarations (dist/types) from tsc.
// The entries share no stateful module (classes live in one entry each), so two bundles of
// the same source cannot split an `instanceof`.
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(root, 'dist');
const entryPoints = { index: join(root, 'src/index.ts'), server: join(root, 'src/server.ts') };

rmSync(dist, { recursive: true, force: true });
const common = { entryPoints, bundle: true, packages: 'external', platform: 'neutral', target: 'es2022', sourcemap: true, logLevel: 'warning' };
await build({ ...common, format: 'esm', outdir: join(dist, 'esm'), outExtension: { '.js': '.mjs' } });
await build({ ...common, format: 'cjs', outdir: join(dist, 'cjs'), outExtension: { '.js': '.cjs' } });
const tsc = join(dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
execFileSync(process.execPath, [tsc, '-p', join(root, 'tsconfig.json'), '--emitDeclarationOnly', '--declarationMap', '--outDir', join(dist, 'types')], { stdio: 'inherit' });
// The extensions already name the format; these markers are for tools that read the nearest package.json "type" instead.
writeFileSync(join(dist, 'esm', 'package.json'), '{"type":"module"}\n');
writeFileSync(join(dist, 'cjs', 'package.json'), '{"type":"commonjs"}\n');
