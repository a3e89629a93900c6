import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { managerOf, UnitOfWork } from '../../../database/unit-of-work';
import { sql } from '../../../database/sql';
import { SqlRunner, SqlStore } from '../../../database/sql-store';

export type BridgeState = 'seen' | 'orphaned' | 'confirmed' | 'filling' | 'filled' | 'repaying' | 'repaid' | 'refunding' | 'refunded';

/** A `Deposited` event of a spoke as the filler read it (addresses and hashes lowercase). */
export interface SeenDeposit {
  srcChainId: number;
  depositId: string;
  srcTxHash: string;
  srcBlockNumber: number;
  srcBlockHash: string;
  depositor: string;
  inputToken: string;
  inputAmount: string;
  destChainId: number;
  outputToken: string;
  outputAmount: string;
  recipient: string;
  fillDeadline: number;
  ref: string;
}

export interface BridgeDepositRow extends SeenDeposit {
  id: string;
  state: BridgeState;
  fillAmount: string | null;
  fillRelayTxId: string | null;
  fillTxHash: string | null;
  fillBlockNumber: number | null;
  repayRelayTxId: string | null;
  repayTxHash: string | null;
  refundRelayTxId: string | null;
  refundTxHash: string | null;
  confirmedAt: Date | null;
  filledAt: Date | null;
  closedAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

interface RawRow {
  id: string;
  src_chain_id: number;
  deposit_id: string;
  src_tx_hash: string;
  src_block_number: string;
  src_block_hash: string;
  depositor: string;
  input_token: string;
  input_amount: string;
  dest_chain_id: number;
  output_token: string;
  output_amount: string;
  recipient: string;
  fill_deadline: string;
  ref: string;
  state: BridgeState;
  fill_amount: string | null;
  fill_relay_tx_id: string | null;
  fill_tx_hash: string | null;
  fill_block_number: string | null;
  repay_relay_tx_id: string | null;
  repay_tx_hash: string | null;
  refund_relay_tx_id: string | null;
  refund_tx_hash: string | null;
  confirmed_at: Date | null;
  filled_at: Date | null;
  closed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = sql`id::text, src_chain_id, deposit_id, src_tx_hash, src_block_number::text, src_block_hash, depositor, input_token, input_amount::text,
  dest_chain_id, output_token, output_amount::text, recipient, fill_deadline::text, ref, state, fill_amount::text, fill_relay_tx_id::text, fill_tx_hash,
  fill_block_number::text, repay_relay_tx_id::text, repay_tx_hash, refund_relay_tx_id::text, refund_tx_hash, confirmed_at, filled_at, closed_at, created_at, updated_at`;

function toRow(r: RawRow): BridgeDepositRow {
  return {
    id: r.id,
    srcChainId: r.src_chain_id,
    depositId: r.deposit_id,
    srcTxHash: r.src_tx_hash,
    srcBlockNumber: Number(r.src_block_number),
    srcBlockHash: r.src_block_hash,
    depositor: r.depositor,
    inputToken: r.input_token,
    inputAmount: r.input_amount,
    destChainId: r.dest_chain_id,
    outputToken: r.output_token,
    outputAmount: r.output_amount,
    recipient: r.recipient,
    fillDeadline: Number(r.fill_deadline),
    ref: r.ref,
    state: r.state,
    fillAmount: r.fill_amount,
    fillRelayTxId: r.fill_relay_tx_id,
    fillTxHash: r.fill_tx_hash,
    fillBlockNumber: r.fill_block_number === null ? null : Number(r.fill_block_number),
    repayRelayTxId: r.repay_relay_tx_id,
    repayTxHash: r.repay_tx_hash,
    refundRelayTxId: r.refund_relay_tx_id,
    refundTxHash: r.refund_tx_hash,
    confirmedAt: r.confirmed_at,
    filledAt: r.filled_at,
    closedAt: r.closed_at,
    createdAt: r.created_at,
    updatedAt: r.updated_at,
  };
}

/**
 * Every statement on `bridge_deposits`. Each move is one conditional UPDATE on the row's state
 * (`WHERE state = <from>`): of two fillers racing, one moves the row and the other gets false.
 */
@Injectable()
export class BridgeDepositStore extends SqlStore {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** Records new deposits `seen`; a seen one the chain now shows in another block follows it. */
  async upsertSeen(deposits: SeenDeposit[]): Promise<void> {
    for (const d of deposits) {
      await this.rows(sql`
        INSERT INTO bridge_deposits (src_chain_id, deposit_id, src_tx_hash, src_block_number, src_block_hash, depositor, input_token, input_amount,
                                     dest_chain_id, output_token, output_amount, recipient, fill_deadline, ref)
        VALUES (${d.srcChainId}, ${d.depositId}, ${d.srcTxHash}, ${d.srcBlockNumber}, ${d.srcBlockHash}, ${d.depositor}, ${d.inputToken}, ${d.inputAmount},
                ${d.destChainId}, ${d.outputToken}, ${d.outputAmount}, ${d.recipient}, ${d.fillDeadline}, ${d.ref})
        ON CONFLICT (src_chain_id, deposit_id) DO UPDATE SET src_tx_hash = EXCLUDED.src_tx_hash, src_block_number = EXCLUDED.src_block_number,
          src_block_hash = EXCLUDED.src_block_hash, state = 'seen', updated_at = now()
        WHERE bridge_deposits.state IN ('seen', 'orphaned') AND bridge_deposits.src_block_hash <> EXCLUDED.src_block_hash`);
    }
  }

  /** Seen deposits in [from, to] the chain no longer shows there: orphaned (never confirmed). */
  async orphanMissing(chainId: number, from: number, to: number, present: string[]): Promise<number> {
    const rows = await this.rows<{ id: string }>(sql`
      UPDATE bridge_deposits SET state = 'orphaned', updated_at = now()
      WHERE src_chain_id = ${chainId} AND state = 'seen' AND src_block_number BETWEEN ${from} AND ${to} AND NOT (deposit_id = ANY(${present}::text[]))
      RETURNING id`);
    return rows.length;
  }

  async seenUpTo(chainId: number, safeBlock: number): Promise<BridgeDepositRow[]> {
    const rows = await this.rows<RawRow>(sql`SELECT ${COLUMNS} FROM bridge_deposits WHERE src_chain_id = ${chainId} AND state = 'seen' AND src_block_number <= ${safeBlock} ORDER BY id LIMIT 200`);
    return rows.map(toRow);
  }

  /** Open work whose next step is on any chain: everything neither closed nor orphaned. */
  async open(limit = 200): Promise<BridgeDepositRow[]> {
    const rows = await this.rows<RawRow>(sql`SELECT ${COLUMNS} FROM bridge_deposits WHERE state IN ('confirmed', 'filling', 'filled', 'repaying', 'refunding') ORDER BY id LIMIT ${limit}`);
    return rows.map(toRow);
  }

  async byId(id: string): Promise<BridgeDepositRow | null> {
    const row = await this.first<RawRow>(sql`SELECT ${COLUMNS} FROM bridge_deposits WHERE id = ${id}`);
    return row ? toRow(row) : null;
  }

  async bySourceTx(chainId: number, txHash: string): Promise<BridgeDepositRow | null> {
    const row = await this.first<RawRow>(sql`SELECT ${COLUMNS} FROM bridge_deposits WHERE src_chain_id = ${chainId} AND src_tx_hash = ${txHash.toLowerCase()} AND state <> 'orphaned' ORDER BY id DESC LIMIT 1`);
    return row ? toRow(row) : null;
  }

  async recent(limit: number): Promise<BridgeDepositRow[]> {
    const rows = await this.rows<RawRow>(sql`SELECT ${COLUMNS} FROM bridge_deposits WHERE state <> 'orphaned' ORDER BY id DESC LIMIT ${limit}`);
    return rows.map(toRow);
  }

  /** seen → confirmed, if its block is still the one recorded. */
  async confirm(id: string, blockHash: string): Promise<boolean> {
    const rows = await this.rows<{ id: string }>(sql`UPDATE bridge_deposits SET state = 'confirmed', confirmed_at = now(), updated_at = now()
      WHERE id = ${id} AND state = 'seen' AND src_block_hash = ${blockHash} RETURNING id`);
    return rows.length === 1;
  }

  async orphan(id: string, blockHash: string): Promise<void> {
    await this.rows(sql`UPDATE bridge_deposits SET state = 'orphaned', updated_at = now() WHERE id = ${id} AND state = 'seen' AND src_block_hash = ${blockHash}`);
  }

  /** confirmed → filling with the relayed fill; run inside the relay row's transaction (`within`). */
  async startFill(id: string, relayTxId: string, fillAmount: bigint, work: UnitOfWork): Promise<boolean> {
    const em = managerOf(work);
    const rows = await this.rows<{ id: string }>(
      sql`UPDATE bridge_deposits SET state = 'filling', fill_relay_tx_id = ${relayTxId}, fill_amount = ${fillAmount.toString()}, updated_at = now()
          WHERE id = ${id} AND state = 'confirmed' RETURNING id`,
      em,
    );
    return rows.length === 1;
  }

  /** filling → confirmed: the relayed fill failed and the destination shows no fill. */
  async fillFailed(id: string, relayTxId: string): Promise<boolean> {
    const rows = await this.rows<{ id: string }>(sql`UPDATE bridge_deposits SET state = 'confirmed', fill_relay_tx_id = NULL, fill_amount = NULL, updated_at = now()
      WHERE id = ${id} AND state = 'filling' AND fill_relay_tx_id = ${relayTxId} RETURNING id`);
    return rows.length === 1;
  }

  /** confirmed or filling → filled, from the destination's `Filled` (whoever sent it). */
  async filled(id: string, fill: { txHash: string; blockNumber: number; amount: string }): Promise<boolean> {
    const rows = await this.rows<{ id: string }>(sql`UPDATE bridge_deposits SET state = 'filled', fill_tx_hash = ${fill.txHash}, fill_block_number = ${fill.blockNumber},
        fill_amount = ${fill.amount}, filled_at = now(), updated_at = now()
      WHERE id = ${id} AND state IN ('confirmed', 'filling') RETURNING id`);
    return rows.length === 1;
  }

  async startRepay(id: string, relayTxId: string, work: UnitOfWork): Promise<boolean> {
    const em = managerOf(work);
    const rows = await this.rows<{ id: string }>(sql`UPDATE bridge_deposits SET state = 'repaying', repay_relay_tx_id = ${relayTxId}, updated_at = now()
      WHERE id = ${id} AND state = 'filled' RETURNING id`, em);
    return rows.length === 1;
  }

  async startRefund(id: string, relayTxId: string, work: UnitOfWork): Promise<boolean> {
    const em = managerOf(work);
    const rows = await this.rows<{ id: string }>(sql`UPDATE bridge_deposits SET state = 'refunding', refund_relay_tx_id = ${relayTxId}, updated_at = now()
      WHERE id = ${id} AND state = 'confirmed' RETURNING id`, em);
    return rows.length === 1;
  }

  /** repaying/refunding → back one step: the relayed transaction failed and the escrow is still open. */
  async retryClose(id: string, from: 'repaying' | 'refunding'): Promise<void> {
    const to = from === 'repaying' ? 'filled' : 'confirmed';
    await this.rows(sql`UPDATE bridge_deposits SET state = ${to}, updated_at = now() WHERE id = ${id} AND state = ${from}`);
  }

  /** The escrow's end as the source spoke shows it (`Repaid` or `Refunded`). */
  async closed(id: string, to: 'repaid' | 'refunded', txHash: string | null, runner?: SqlRunner): Promise<boolean> {
    const rows = await this.rows<{ id: string }>(
      to === 'repaid'
        ? sql`UPDATE bridge_deposits SET state = 'repaid', repay_tx_hash = ${txHash}, closed_at = now(), updated_at = now() WHERE id = ${id} AND state IN ('filled', 'repaying') RETURNING id`
        : sql`UPDATE bridge_deposits SET state = 'refunded', refund_tx_hash = ${txHash}, closed_at = now(), updated_at = now() WHERE id = ${id} AND state IN ('confirmed', 'refunding') RETURNING id`,
      runner,
    );
    return rows.length === 1;
  }
}
