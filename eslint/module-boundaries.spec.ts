import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Linter } from 'eslint';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const boundaries = require('./module-boundaries.cjs');
const root = join(__dirname, '..');

function lint(code: string, file: string) {
  const linter = new Linter({ configType: 'flat' });
  return linter.verify(
    code,
    [{ files: ['**/*.ts'], languageOptions: { sourceType: 'module' }, plugins: { project: boundaries }, rules: { 'project/module-boundaries': 'error' } }],
    join(root, file),
  );
}

describe('lint: module boundaries', () => {
  it("refuses an import of another module's internals", () => {
    const messages = lint(`import { RelayTransactionEntity } from '../../relay/store/relay-transaction.entity';`, 'src/modules/gasless/domain/probe.ts');
    expect(messages).toHaveLength(1);
    expect(messages[0].message).toContain("reaches into module 'relay' (store/relay-transaction.entity)");
  });

  it('also refuses re-exports and dynamic imports that reach in', () => {
    expect(lint(`export { LedgerService } from '../accounts/domain/ledger.service';`, 'src/modules/relay/probe.ts')).toHaveLength(1);
    expect(lint(`void import('../../accounts/store/account.store');`, 'src/modules/vault/domain/probe.ts')).toHaveLength(1);
  });

  it("allows another module's index, the module's own files and code outside modules", () => {
    expect(lint(`import { TxQueryService } from '../../relay';`, 'src/modules/gasless/domain/probe.ts')).toEqual([]);
    expect(lint(`import { TxQueryService } from '../../relay/index';`, 'src/modules/gasless/domain/probe.ts')).toEqual([]);
    expect(lint(`import { feesOf } from '../core/signed-request';`, 'src/modules/relay/pipeline/probe.ts')).toEqual([]);
    expect(lint(`import { SettlementService } from '../src/modules/relay/pipeline/settlement.service';`, 'test/probe.ts')).toEqual([]);
    expect(lint(`import { RelayWorkerModule } from './modules/relay/relay-worker.module';`, 'src/app.module.ts')).toEqual([]);
  });

  it("is on in the project's lint: a deep import fails `eslint`", () => {
    const probe = `import { RelayTransactionEntity } from '../../relay/store/relay-transaction.entity';\nexport type Probe = RelayTransactionEntity;\n`;
    const run = spawnSync(process.execPath, [join(root, 'node_modules', 'eslint', 'bin', 'eslint.js'), '--stdin', '--stdin-filename', 'src/modules/gasless/domain/probe.ts'], { cwd: root, input: probe, encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('project/module-boundaries');
  }, 60_000);
});
