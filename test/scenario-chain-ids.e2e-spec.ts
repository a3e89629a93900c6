import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Scenario chains share the test database, whose nonce counters and rows are per chain id: two
 * spec files on one id make the second meet the first's rows (a worker started on a fresh anvil
 * saw 30 nonces in flight and flooded the node). Each file keeps its scenario ids to itself.
 */
describe('chain-conditions scenarios: one chain id per spec file', () => {
  it('no scenario chain id appears in two spec files', () => {
    const dir = __dirname;
    const owners = new Map<number, Set<string>>();
    for (const file of readdirSync(dir).filter((f) => f.endsWith('.e2e-spec.ts'))) {
      const text = readFileSync(join(dir, file), 'utf8');
      for (const m of text.matchAll(/\b(?:chainId|CHAIN_ID)\s*[:=]\s*(3\d{4})\b/g)) {
        const id = Number(m[1]);
        if (id === 31337) continue;
        owners.set(id, (owners.get(id) ?? new Set()).add(file));
      }
    }
    const shared = [...owners].filter(([, files]) => files.size > 1).map(([id, files]) => `${id}: ${[...files].join(', ')}`);
    expect(owners.size).toBeGreaterThan(10);
    expect(shared).toEqual([]);
  });
});
