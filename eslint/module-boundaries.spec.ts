import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Linter } from 'eslint';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const boundaries = require('./module-boundaries.cjs');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const tsParser = require('@typescript-eslint/parser');
const root = join(__dirname, '..');

function lint(code: string, file: string, rule = 'module-boundaries') {
  const linter = new Linter({ configType: 'flat' });
  return linter.verify(
    code,
    [{ files: ['**/*.ts'], languageOptions: { sourceType: 'module', parser: tsParser }, plugins: { project: boundaries }, rules: { [`project/${rule}`]: 'error' } }],
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

  it("allows a store another module's statements.ts (its SQL fragments)", () => {
    expect(lint(`import { outboxInsert } from '../../tx-events/statements';`, 'src/modules/relay/store/probe.ts')).toEqual([]);
  });

  it('refuses entities and SQL fragments in a module index, allows types, services and store classes', () => {
    const surface = 'src/modules/accounts/index.ts';
    expect(lint(`export { AccountEntity } from './store/account.entity';`, surface, 'surface-exports')).toHaveLength(1);
    expect(lint(`export { reservationCte, maxRetriesOf } from './store/account.store';`, surface, 'surface-exports')).toHaveLength(2);
    expect(lint(`export * from './statements';`, surface, 'surface-exports')).toHaveLength(1);
    expect(lint(`export type { Account } from './domain/account';\nexport type { ReservationRequest } from './store/account.store';\nexport { PolicyStore } from './store/policy.store';\nexport { LedgerService } from './domain/ledger.service';`, surface, 'surface-exports')).toEqual([]);
    expect(lint(`export { reservationCte } from './store/account.store';`, 'src/modules/accounts/statements.ts', 'surface-exports')).toEqual([]);
  });

  it("is on in the project's lint: a deep import fails `eslint`", () => {
    const probe = `import { RelayTransactionEntity } from '../../relay/store/relay-transaction.entity';\nexport type Probe = RelayTransactionEntity;\n`;
    const run = spawnSync(process.execPath, [join(root, 'node_modules', 'eslint', 'bin', 'eslint.js'), '--stdin', '--stdin-filename', 'src/modules/gasless/domain/probe.ts'], { cwd: root, input: probe, encoding: 'utf8' });
    expect(run.status).toBe(1);
    expect(run.stdout).toContain('project/module-boundaries');
  }, 60_000);
});
