import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { importCycles } from './import-cycles';

const root = join(__dirname, '..', '..');

describe('lint: import cycles', () => {
  // Issue 25: tx-events imported the relay's entity, closing a 75-file cycle through accounts,
  // auth, policies, relay and tx-events. A module may have cycles of its own files; a cycle
  // through two modules (and so through their index.ts) ties their surfaces together.
  it('no cycle runs through more than one module', () => {
    const crossing = importCycles(root).filter((c) => c.modules.length > 1 || c.files.some((f) => /^src\/modules\/[^/]+\/index\.ts$/.test(f)));
    expect(crossing.map((c) => `${c.files.length} files across ${c.modules.join(', ')}`)).toEqual([]);
  });

  it('finds a cycle through two module surfaces, type-only imports included', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cycles-'));
    const write = (path: string, text: string) => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    try {
      write('src/modules/a/index.ts', `export { A } from './a';\n`);
      write('src/modules/a/a.ts', `import type { B } from '../b';\nexport interface A { b: B }\n`);
      write('src/modules/b/index.ts', `export type { B } from './b';\n`);
      write('src/modules/b/b.ts', `import { A } from '../a';\nexport type B = A[];\n`);
      write('src/modules/c/index.ts', `import '../a';\n`);
      const cycles = importCycles(dir);
      expect(cycles).toHaveLength(1);
      expect(cycles[0].modules).toEqual(['a', 'b']);
      expect(cycles[0].files).toHaveLength(4);
      expect(importCycles(dir, true)).toHaveLength(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
