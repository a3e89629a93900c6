import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { writeSecretFile } from './secret-file';

describe('writeSecretFile (.local secrets)', () => {
  it('leaves a new file and one that existed world-readable readable by its owner only', () => {
    const dir = mkdtempSync(join(tmpdir(), 'secret-file-'));
    const fresh = join(dir, 'admin-token');
    writeSecretFile(fresh, 'token');
    expect(statSync(fresh).mode & 0o777).toBe(0o600);
    const existing = join(dir, 'devnet.json');
    writeFileSync(existing, '{}', { mode: 0o644 });
    writeSecretFile(existing, '{"adminToken":"x"}');
    expect(statSync(existing).mode & 0o777).toBe(0o600);
    expect(readFileSync(existing, 'utf8')).toBe('{"adminToken":"x"}');
  });
});
