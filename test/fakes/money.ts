import { randomBytes } from 'node:crypto';
import { DataSource } from 'typeorm';
import { AccountsService } from '../../src/modules/accounts';
import { LedgerService } from '../../src/modules/accounts/domain/ledger.service';
import { AccountStore } from '../../src/modules/accounts/store/account.store';
import { LedgerEntryStore } from '../../src/modules/accounts/store/ledger-entry.store';
import { PendingWriter } from '../../src/modules/relay/intake/pending-writer.service';
import { RelayTransactionStore } from '../../src/modules/relay/store/relay-transaction.store';
import { TxStatusEventStore } from '../../src/modules/tx-events/tx-status-event.store';
import { TxStatusPublisher } from '../../src/modules/tx-events';
import { build, fake } from './build';

/**
 * The money path's real stores and services on a real database (test/fakes/database.ts): the
 * ledger, the accounts, the relay rows, the outbox, and PendingWriter over them. Only what
 * leaves the database is faked (Redis publish, the policy module, the account read of a refusal).
 */
export function moneyPath(dataSource: DataSource) {
  const accounts = new AccountStore(dataSource);
  const entries = new LedgerEntryStore(dataSource);
  const ledger = new LedgerService(accounts, entries);
  const txs = new RelayTransactionStore(dataSource);
  const publisher = build(TxStatusPublisher, { provide: [[DataSource, dataSource]], real: [TxStatusEventStore] }).unit;
  const accountsService = fake<AccountsService>({ getById: async (id: string) => accounts.findById(id) });
  const writer = build(PendingWriter, {
    provide: [
      [RelayTransactionStore, txs],
      [LedgerService, ledger],
      [TxStatusPublisher, publisher],
      [AccountsService, accountsService],
    ],
  }).unit;
  return { dataSource, accounts, entries, ledger, txs, publisher, writer };
}

export type MoneyPath = ReturnType<typeof moneyPath>;

export const randomAddress = (): string => `0x${randomBytes(20).toString('hex')}`;

/** A fresh account credited with `availableMicro` (through the ledger, so the audit reconciles). */
export async function fundedAccount(path: MoneyPath, availableMicro: bigint, limits: { perTxLimitMicro?: bigint; dailyLimitMicro?: bigint; disabledChainIds?: number[] } = {}): Promise<string> {
  const id = await path.accounts.insertIfAbsent(randomAddress(), path.dataSource);
  if (!id) throw new Error('address collision');
  if (availableMicro > 0n) await path.ledger.credit(id, availableMicro, 'spec');
  if (limits.perTxLimitMicro !== undefined) await path.dataSource.query('UPDATE accounts SET per_tx_limit_micro = $2 WHERE id = $1', [id, limits.perTxLimitMicro.toString()]);
  if (limits.dailyLimitMicro !== undefined) await path.dataSource.query('UPDATE accounts SET daily_limit_micro = $2 WHERE id = $1', [id, limits.dailyLimitMicro.toString()]);
  if (limits.disabledChainIds) await path.dataSource.query('UPDATE accounts SET disabled_chain_ids = $2 WHERE id = $1', [id, limits.disabledChainIds]);
  return id;
}

export async function balancesOf(path: MoneyPath, userId: string): Promise<{ available: bigint; pending: bigint }> {
  const account = await path.accounts.findById(userId);
  return { available: account!.availableMicro, pending: account!.pendingMicro };
}

/** The account's ledger entries, oldest first, as (kind, available delta, pending delta, reference). */
export async function entriesOf(path: MoneyPath, userId: string): Promise<Array<{ kind: string; available: bigint; pending: bigint; reference: string | null }>> {
  const rows = await path.dataSource.query(`SELECT kind, available_delta, pending_delta, reference FROM ledger_entries WHERE user_id = $1 ORDER BY created_at, id`, [userId]);
  return (rows as Array<{ kind: string; available_delta: string; pending_delta: string; reference: string | null }>).map((r) => ({ kind: r.kind, available: BigInt(r.available_delta), pending: BigInt(r.pending_delta), reference: r.reference }));
}

/** The status events (outbox rows) of one transaction, oldest first. */
export async function eventsOf(path: MoneyPath, txId: string): Promise<Array<{ status: string; previous: string | null }>> {
  const rows = await path.dataSource.query(`SELECT status, previous_status FROM tx_status_events WHERE tx_id = $1 ORDER BY id`, [txId]);
  return (rows as Array<{ status: string; previous_status: string | null }>).map((r) => ({ status: r.status, previous: r.previous_status }));
}

/** The fields of an EVM submission PendingWriter takes (anvil's chain id; nothing is sent). */
export function submission(overrides: Record<string, unknown> = {}) {
  return { chainId: 31337, to: randomAddress(), callData: '0x', value: '0', transactionType: 'flash', submitRegion: 'default', ...overrides } as never;
}
