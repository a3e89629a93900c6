import { Injectable } from '@nestjs/common';
import { Reaction } from '../../core/broadcast-reaction';
import { RelaySigner } from '../../core/signer-pool.service';
import { RelayBroadcastEntity } from '../../store/relay-broadcast.entity';
import { RelayBroadcastStore } from '../../store/relay-broadcast.store';
import { RelayTransactionEntity } from '../../store/relay-transaction.entity';
import { RelayTransactionStore } from '../../store/relay-transaction.store';
import { KeySlots } from '../keys/key-slots.service';
import { NonceFate, NonceFateVerdict } from '../keys/nonce-fate';
import { NonceFiller } from '../keys/nonce-filler';
import { NonceManager } from '../keys/nonce-manager.service';
import { ChainIo } from '../node/chain-io.service';
import { ReceiptTracker } from '../track/receipt-tracker.service';
import { BackPressureError, PermanentSendError, TransientSendError } from './send-errors';

/** About a block on most chains: a full pool has room again once a block took some of it. */
const POOL_FULL_RETRY_MS = 1_000;

/** A signature a node refused, as its job knows it. */
export interface Refused {
  /** The row with the signature's changes (`withSignature`). */
  tx: RelayTransactionEntity;
  sender: string;
  nonce: bigint;
  hash: string;
  outcome: string;
  /** What was sent, for the messages: "broadcast", "rebroadcast", "cancellation". */
  what: string;
  /** The key that signed it (a nonce is filled only with it). */
  signer?: RelaySigner;
  /** The row's broadcasts as the job read them; read again when absent (the job just wrote one). */
  previous?: RelayBroadcastEntity[];
}

/**
 * Carries out the reactions to a refusal (`core/broadcast-reaction.ts`) the same way for every
 * job; `sent` and `reprice` belong to the jobs. Never a new nonce unless NonceFate says so.
 */
@Injectable()
export class Refusals {
  constructor(
    private readonly txs: RelayTransactionStore,
    private readonly broadcastRows: RelayBroadcastStore,
    private readonly fate: NonceFate,
    private readonly nonces: NonceManager,
    private readonly slots: KeySlots,
    private readonly chain: ChainIo,
    private readonly tracker: ReceiptTracker,
    private readonly filler: NonceFiller,
  ) {}

  /** Returns when the row is settled or watched; otherwise throws the send error the reaction means. */
  async act(reaction: Reaction, r: Refused): Promise<void> {
    const { tx } = r;
    switch (reaction.kind) {
      case 'sent':
        return;
      case 'ask-fate': {
        const previous = r.previous ?? (await this.broadcastRows.forTx(tx.id));
        return this.afterVerdict(tx, previous, await this.fate.decide(tx, previous));
      }
      case 'watch':
        // A pool holds another transaction at the nonce (maybe an earlier one of ours): keep the nonce, watch, bump later.
        return this.watch(tx, r.previous);
      case 'hold':
        throw this.poolFull(tx.chainId, r.sender, tx.id, r.nonce, r.hash);
      case 'fail':
        // The filler takes the nonce in the pool instead: the row's slot goes with its move to failed (`failUnsent`).
        if (reaction.fillNonce && r.signer) await this.filler.fill(tx.chainId, r.signer, r.nonce);
        throw new PermanentSendError(`the node refused the transaction`);
      case 'reprice':
      case 'retry':
        throw new TransientSendError(`${r.what} of ${r.hash} (${tx.id}) failed (${r.outcome})`);
    }
  }

  /** NonceFate's verdict on a row about to be signed again: true when it decided (settled, released or watched), false when the nonce is open. */
  async decided(tx: RelayTransactionEntity, previous: RelayBroadcastEntity[]): Promise<boolean> {
    const verdict = await this.fate.decide(tx, previous);
    if (verdict === 'open') return false;
    await this.afterVerdict(tx, previous, verdict);
    return true;
  }

  /** settled → done; reissue → the nonce released (back to accepted); wait → keep the nonce and watch. */
  private async afterVerdict(tx: RelayTransactionEntity, previous: RelayBroadcastEntity[], verdict: NonceFateVerdict): Promise<void> {
    if (verdict === 'settled') return;
    if (verdict === 'reissue') {
      await this.nonces.resync(tx.chainId, tx.sender as string);
      // The move back to accepted is made here: the slot goes with it (also when another process made it first).
      await this.txs.releaseNonce(tx.id);
      this.slots.release(tx.id);
      throw new TransientSendError(`nonce ${tx.nonce} of ${tx.sender} was consumed by another transaction on chain ${tx.chainId}`);
    }
    await this.watch(tx, previous);
  }

  /** Every hash of the row watched by the tracker (from a few blocks back, in case one is mined already). */
  private async watch(tx: RelayTransactionEntity, previous?: RelayBroadcastEntity[]): Promise<void> {
    const from = Math.max((await this.chain.blockNumber(tx.chainId)) - 64, 0);
    for (const b of previous ?? (await this.broadcastRows.forTx(tx.id))) this.tracker.track(tx.chainId, tx.id, b.hash, from);
  }

  /**
   * The node proved it did not take the transaction (pool full for the key, or too many pending):
   * the row keeps its nonce and signed bytes (no gap) and is sent again once the key has room;
   * the key takes no new nonce meanwhile.
   */
  private poolFull(chainId: number, sender: string, txId: string, nonce: bigint, hash: string): BackPressureError {
    this.slots.refused(chainId, sender, txId, nonce);
    return new BackPressureError(`the node's pool is full for ${sender}: ${hash} is sent again later`, POOL_FULL_RETRY_MS);
  }
}

/** Not sent: a lower nonce of the key waits for room in the node's pool (`KeySlots.behindRefused`); sent after it. */
export function heldBack(chainId: number, sender: string, nonce: bigint, hash: string): BackPressureError {
  return new BackPressureError(`${hash} (nonce ${nonce} of ${sender} on ${chainId}) waits for a lower nonce the node refused as pool full`, POOL_FULL_RETRY_MS);
}
