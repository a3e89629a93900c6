import { Injectable, Logger } from '@nestjs/common';
import { Contract, getAddress, Log, toBeHex, zeroPadValue } from 'ethers';
import type { Caller } from '../../../common/http/authenticated-request';
import { providerErrorDetail } from '../../../common/evm/provider-error';
import { AppConfig } from '../../../config/app-config';
import { AccountsService } from '../../accounts';
import { ChainDefinition, ChainRegistry } from '../../chains';
import { confirmationsOf, SubmissionService, TxQueryService } from '../../relay';
import { executionPlan, RouteFinder, SwapTxBuilder, type StoredQuote } from '../../swap';
import { BridgeDepositRow, BridgeDepositStore, SeenDeposit } from '../store/bridge-deposit.store';
import { BridgeCursorStore } from '../store/bridge-cursor.store';
import { BridgeAsset, bridgeAssets, FILL_GAS, toDestUnits } from './bridge-assets';
import { BridgeInventory } from './bridge-inventory.service';
import { BridgeQuotes } from './bridge-quotes.service';
import { bridgeFillerWallet } from './filler-key';
import { DEPOSITED_TOPIC, ESCROW_OPEN, ESCROW_REFUNDED, ESCROW_REPAID, FILLED_TOPIC, fillKey, FillerSigner, FillOrder, NO_EXECUTOR_DATA, SPOKE_ABI } from './spoke';

/** A chain the filler has never read starts this many blocks behind its head. */
export const INITIAL_LOOKBACK_BLOCKS = 128;
const MAX_BLOCKS_PER_PASS = 500;
/** How far back the destination's `Filled` is looked for when the relay row does not say. */
const FILL_LOG_LOOKBACK = 5_000;

export interface FillerPass {
  seen: number;
  confirmed: number;
  orphaned: number;
  fills: number;
  repays: number;
  refunds: number;
}

/**
 * The filler (worker role; extensions.md, "Cross-chain swaps"). Every pass, for every chain with a
 * spoke: record its `Deposited` events (`seen`), confirm those `confirmations` deep whose block is
 * still canonical (a deposit reorged away first is `orphaned`, never filled), then move every open
 * deposit one step: fill from the destination spoke's inventory, read the fill back, repay the
 * filler on the source once the fill is final, or refund after the fill deadline without a fill.
 * Each transaction goes through the relay (origin `bridge`, paid by BRIDGE_ACCOUNT); the row's
 * conditional move is written with the relay row in one database transaction, so of two workers
 * one sends, and the spoke's own `filled` refuses a second fill whatever happens off chain. All
 * state is in PostgreSQL and on chain: a filler killed anywhere resumes from there.
 */
@Injectable()
export class BridgeFiller {
  private readonly logger = new Logger(BridgeFiller.name);
  private readonly signer: FillerSigner;
  /** Deposits already logged as waiting for inventory (per process). */
  private readonly waiting = new Set<string>();

  constructor(
    private readonly registry: ChainRegistry,
    private readonly inventory: BridgeInventory,
    private readonly deposits: BridgeDepositStore,
    private readonly cursors: BridgeCursorStore,
    private readonly submissions: SubmissionService,
    private readonly txs: TxQueryService,
    private readonly accounts: AccountsService,
    private readonly router: RouteFinder,
    private readonly builder: SwapTxBuilder,
    private readonly quotes: BridgeQuotes,
    private readonly config: AppConfig,
  ) {
    this.signer = new FillerSigner(bridgeFillerWallet(config.AUTH_MNEMONIC));
  }

  get fillerAddress(): string {
    return this.signer.address;
  }

  async passAll(): Promise<FillerPass> {
    const total: FillerPass = { seen: 0, confirmed: 0, orphaned: 0, fills: 0, repays: 0, refunds: 0 };
    for (const chain of this.inventory.chains()) {
      try {
        const p = await this.watch(chain);
        total.seen += p.seen;
        total.confirmed += p.confirmed;
        total.orphaned += p.orphaned;
      } catch (err) {
        this.logger.warn(`bridge watch of chain ${chain.chainId}: ${providerErrorDetail(err)}`);
      }
    }
    const caller = await this.caller();
    for (const row of await this.deposits.open()) {
      try {
        const step = await this.advance(row, caller);
        if (step) total[step]++;
      } catch (err) {
        this.logger.warn(`bridge deposit ${row.depositId} (${row.state}): ${providerErrorDetail(err)}`);
      }
    }
    return total;
  }

  /** Reads a source chain's deposits from the cursor to the head; confirms those deep enough. */
  async watch(chain: ChainDefinition): Promise<{ seen: number; confirmed: number; orphaned: number }> {
    const provider = this.registry.provider(chain.chainId);
    const spoke = chain.contracts!.bridgeSpoke!.toLowerCase();
    const confirmations = confirmationsOf(chain);
    const head = await provider.getBlockNumber();
    let cursor = await this.cursors.get(chain.chainId);
    if (cursor === null || cursor > head) {
      cursor = Math.max(-1, head - INITIAL_LOOKBACK_BLOCKS);
      await this.cursors.reset(chain.chainId, cursor);
    }
    const from = cursor + 1;
    const to = Math.min(head, from + Math.min(MAX_BLOCKS_PER_PASS, chain.getLogsMaxRange ?? MAX_BLOCKS_PER_PASS) - 1);
    let seen = 0;
    let orphaned = 0;
    if (from <= to) {
      const logs = await provider.getLogs({ address: spoke, topics: [DEPOSITED_TOPIC], fromBlock: from, toBlock: to });
      const found = logs.map((log) => seenDeposit(chain.chainId, log));
      await this.deposits.upsertSeen(found);
      seen = found.length;
      orphaned = await this.deposits.orphanMissing(chain.chainId, from, to, found.map((d) => d.depositId));
    }
    let confirmed = 0;
    const safeBlock = head - confirmations;
    if (safeBlock >= 0) {
      for (const row of await this.deposits.seenUpTo(chain.chainId, safeBlock)) {
        const block = await provider.getBlock(row.srcBlockNumber);
        if (block?.hash?.toLowerCase() !== row.srcBlockHash) {
          // Its block left the chain before the deposit reached its depth: never filled.
          await this.deposits.orphan(row.id, row.srcBlockHash);
          this.logger.warn(`bridge deposit ${row.depositId} on ${chain.chainId} left the canonical chain before its depth; not filled`);
          orphaned++;
          continue;
        }
        if (await this.deposits.confirm(row.id, row.srcBlockHash)) confirmed++;
      }
    }
    const final = Math.min(to, safeBlock);
    if (final > cursor) await this.cursors.advance(chain.chainId, final);
    return { seen, confirmed, orphaned };
  }

  /** One step of an open deposit; what it sent, if anything. */
  async advance(row: BridgeDepositRow, caller: Caller | null): Promise<'fills' | 'repays' | 'refunds' | null> {
    switch (row.state) {
      case 'confirmed':
        return this.fillOrRefund(row, caller);
      case 'filling':
        await this.followFill(row);
        return null;
      case 'filled':
        return this.repay(row, caller);
      case 'repaying':
      case 'refunding':
        await this.followClose(row);
        return null;
      default:
        return null;
    }
  }

  private async fillOrRefund(row: BridgeDepositRow, caller: Caller | null): Promise<'fills' | 'refunds' | null> {
    const destSpoke = this.inventory.spokeOf(row.destChainId);
    const dest = this.registry.all().find((c) => c.chainId === row.destChainId);
    if (!destSpoke || !dest) return this.refundIfDue(row, caller, null);
    const destProvider = this.registry.provider(row.destChainId);
    const spoke = new Contract(destSpoke, SPOKE_ABI, destProvider);
    if (await spoke.filled(fillKey(row.srcChainId, row.depositId))) {
      await this.recordFill(row, null);
      return null;
    }
    const destHead = await destProvider.getBlock('latest');
    // Fills are refused after the deadline on chain: past it (by the destination's clock) only a refund remains.
    if (!destHead || destHead.timestamp >= row.fillDeadline - 5) return this.refundIfDue(row, caller, destHead?.timestamp ?? null);
    if (!caller) return null;
    const order = await this.fillOrder(row, dest);
    if (!order) return null;
    const available = await this.inventory.liquidity(row.destChainId, order.outputToken);
    if (available < order.amount) {
      // Waits: a later pass fills it when inventory arrives, or it is refunded after its deadline.
      // Said once per deposit (not every pass); the inventory read raises the low alert on a crossing.
      if (!this.waiting.has(row.depositId)) {
        this.waiting.add(row.depositId);
        this.logger.warn(`bridge deposit ${row.depositId} waits: ${available} of ${order.outputToken} on ${row.destChainId}, ${order.amount} needed`);
        await this.inventory.snapshot().catch(() => undefined);
      }
      return null;
    }
    const signature = await this.signer.fill(row.destChainId, destSpoke, order);
    await this.submissions.submit({
      caller,
      tx: { chainId: row.destChainId, to: destSpoke, callData: SPOKE_ABI.encodeFunctionData('fill', [order, signature]), value: '0', label: `bridge-fill:${row.depositId}` },
      region: {},
      origin: 'bridge',
      endUser: row.recipient,
      within: async (em, tx) => {
        if (!(await this.deposits.startFill(row.id, tx.id, order.amount, em))) throw new Error('another filler took this deposit');
      },
    });
    this.logger.log(`bridge deposit ${row.depositId}: fill of ${order.amount} relayed on ${row.destChainId}`);
    return 'fills';
  }

  /**
   * What the recipient is paid. In the bridged asset: the deposit less today's fee, never below
   * the deposit's `outputAmount` (so a source swap's surplus reaches the user) and never above the
   * deposit itself (a deposit whose `outputAmount` exceeds it gets no fill). In another
   * token: that amount swapped through the executor on the destination, at least `outputAmount`.
   */
  private async fillOrder(row: BridgeDepositRow, dest: ChainDefinition): Promise<FillOrder | null> {
    const src = this.registry.get(row.srcChainId);
    const asset = bridgeAssets(src, dest).find((a) => a.src === row.inputToken);
    const base = { originChainId: row.srcChainId, depositId: row.depositId, recipient: getAddress(row.recipient), fillDeadline: row.fillDeadline };
    const minOut = BigInt(row.outputAmount);
    if (!asset) {
      // Not an asset the filler carries: only a refund remains, after the deadline.
      return null;
    }
    const bridgedDest = toDestUnits(BigInt(row.inputAmount), asset);
    if (row.outputToken === asset.dest) {
      // A deposit asking more than it carries is never filled (it is refunded after its deadline).
      if (minOut > bridgedDest) return null;
      const fee = await this.quotes.fee(dest, bridgedDest, asset, FILL_GAS);
      // At least the deposit's minimum even when gas rose since the quote, never more than the deposit.
      const amount = bridgedDest - fee > minOut ? bridgedDest - fee : minOut;
      return { ...base, outputToken: asset.dest, amount, minAmountOut: 0n, swapTokenOut: asset.dest, executorData: NO_EXECUTOR_DATA };
    }
    return this.swapFill(row, dest, asset, bridgedDest, minOut, base);
  }

  private async swapFill(
    row: BridgeDepositRow,
    dest: ChainDefinition,
    asset: BridgeAsset,
    bridgedDest: bigint,
    minOut: bigint,
    base: Pick<FillOrder, 'originChainId' | 'depositId' | 'recipient' | 'fillDeadline'>,
  ): Promise<FillOrder | null> {
    const executor = dest.contracts?.swapExecutor;
    const spoke = this.inventory.spokeOf(row.destChainId);
    if (!executor || !spoke) return null;
    const probe = await this.router.findRoutes({ chainId: dest.chainId, tokenIn: asset.dest, tokenOut: row.outputToken, amountIn: bridgedDest, limit: 1 });
    if (probe.candidates.length === 0) return null;
    const fee = await this.quotes.fee(dest, bridgedDest, asset, FILL_GAS + probe.candidates[0].gasLimit);
    const amount = bridgedDest - fee;
    if (amount <= 0n) return null;
    const { market, candidates } = await this.router.findRoutes({ chainId: dest.chainId, tokenIn: asset.dest, tokenOut: row.outputToken, amountIn: amount, limit: 1 });
    if (candidates.length === 0 || candidates[0].plan.amountOut < minOut) return null;
    const plan = executionPlan(market, candidates[0], { executor, amountIn: amount, feeAmount: 0n, feeRecipient: spoke, minAmountOut: minOut, sender: spoke, receiver: row.recipient });
    const quote: StoredQuote = { quoteId: row.ref, userId: '', expiry: row.fillDeadline, createdAt: 0, acquisitionMode: null, integratorId: null, route: undefined as never, plan };
    const call = this.builder.executorCall(quote);
    return { ...base, outputToken: asset.dest, amount, minAmountOut: minOut, swapTokenOut: row.outputToken, executorData: call.data };
  }

  private async followFill(row: BridgeDepositRow): Promise<void> {
    const relay = row.fillRelayTxId ? await this.txs.find(row.fillRelayTxId) : null;
    if (relay?.status === 'EXECUTED' && relay.executionTxHash) {
      await this.recordFill(row, relay.executionTxHash);
      return;
    }
    if (relay && relay.status === 'PENDING') return;
    // Failed (or gone): the destination decides whether a fill landed anyway.
    const destSpoke = this.inventory.spokeOf(row.destChainId);
    const filled = destSpoke ? await new Contract(destSpoke, SPOKE_ABI, this.registry.provider(row.destChainId)).filled(fillKey(row.srcChainId, row.depositId)) : false;
    if (filled) await this.recordFill(row, null);
    else if (row.fillRelayTxId) await this.deposits.fillFailed(row.id, row.fillRelayTxId);
  }

  /** Reads the destination's `Filled` of the deposit (from the fill's receipt, else the logs) and records it. */
  private async recordFill(row: BridgeDepositRow, txHash: string | null): Promise<void> {
    const provider = this.registry.provider(row.destChainId);
    const destSpoke = this.inventory.spokeOf(row.destChainId)!;
    let log: Log | undefined;
    if (txHash) {
      const receipt = await provider.getTransactionReceipt(txHash);
      log = receipt?.logs.find((l) => l.address.toLowerCase() === destSpoke && l.topics[0] === FILLED_TOPIC && l.topics[1] === row.depositId);
    }
    if (!log) {
      const head = await provider.getBlockNumber();
      const logs = await provider.getLogs({ address: destSpoke, topics: [FILLED_TOPIC, row.depositId, zeroPadValue(toBeHex(row.srcChainId), 32)], fromBlock: Math.max(0, head - FILL_LOG_LOOKBACK), toBlock: head });
      log = logs[logs.length - 1];
    }
    if (!log) return;
    const parsed = SPOKE_ABI.parseLog({ topics: [...log.topics], data: log.data });
    await this.deposits.filled(row.id, { txHash: log.transactionHash.toLowerCase(), blockNumber: log.blockNumber, amount: String(parsed?.args.amount ?? row.fillAmount ?? '0') });
  }

  /** Repays the filler on the source once the fill is `confirmations` deep on the destination. */
  private async repay(row: BridgeDepositRow, caller: Caller | null): Promise<'repays' | null> {
    if (!caller || row.fillBlockNumber === null) return null;
    const dest = this.registry.get(row.destChainId);
    const head = await this.registry.provider(row.destChainId).getBlockNumber();
    if (head - row.fillBlockNumber < confirmationsOf(dest)) return null;
    const srcSpoke = this.inventory.spokeOf(row.srcChainId);
    const destSpoke = this.inventory.spokeOf(row.destChainId);
    if (!srcSpoke || !destSpoke) return null;
    // At depth, the destination must still show the fill (a reorg there takes it back before the repayment).
    if (!(await new Contract(destSpoke, SPOKE_ABI, this.registry.provider(row.destChainId)).filled(fillKey(row.srcChainId, row.depositId)))) {
      this.logger.warn(`bridge deposit ${row.depositId}: its fill is no longer on chain ${row.destChainId}; not repaid`);
      return null;
    }
    if ((await this.escrowState(row)) === ESCROW_REPAID) {
      await this.deposits.closed(row.id, 'repaid', null);
      return null;
    }
    const signature = await this.signer.repay(row.srcChainId, srcSpoke, row.depositId);
    await this.submissions.submit({
      caller,
      tx: { chainId: row.srcChainId, to: srcSpoke, callData: SPOKE_ABI.encodeFunctionData('repay', [row.depositId, signature]), value: '0', label: `bridge-repay:${row.depositId}` },
      region: {},
      origin: 'bridge',
      within: async (em, tx) => {
        if (!(await this.deposits.startRepay(row.id, tx.id, em))) throw new Error('another filler is repaying this deposit');
      },
    });
    return 'repays';
  }

  private async refundIfDue(row: BridgeDepositRow, caller: Caller | null, destTime: number | null): Promise<'refunds' | null> {
    const srcSpoke = this.inventory.spokeOf(row.srcChainId);
    if (!caller || !srcSpoke) return null;
    const srcHead = await this.registry.provider(row.srcChainId).getBlock('latest');
    // The spoke takes the filler's refund only after the deadline by the source's clock, and no fill can land after it by the destination's.
    if (!srcHead || srcHead.timestamp <= row.fillDeadline || (destTime !== null && destTime <= row.fillDeadline)) return null;
    const state = await this.escrowState(row);
    if (state === ESCROW_REFUNDED) {
      await this.deposits.closed(row.id, 'refunded', null);
      return null;
    }
    if (state !== ESCROW_OPEN) return null;
    const signature = await this.signer.refund(row.srcChainId, srcSpoke, row.depositId);
    await this.submissions.submit({
      caller,
      tx: { chainId: row.srcChainId, to: srcSpoke, callData: SPOKE_ABI.encodeFunctionData('refund', [row.depositId, signature]), value: '0', label: `bridge-refund:${row.depositId}` },
      region: {},
      origin: 'bridge',
      endUser: row.depositor,
      within: async (em, tx) => {
        if (!(await this.deposits.startRefund(row.id, tx.id, em))) throw new Error('another filler is refunding this deposit');
      },
    });
    this.logger.log(`bridge deposit ${row.depositId}: refund relayed on ${row.srcChainId}`);
    return 'refunds';
  }

  /** repaying / refunding: the source spoke's escrow says when it is done. */
  private async followClose(row: BridgeDepositRow): Promise<void> {
    const repaying = row.state === 'repaying';
    const relayId = repaying ? row.repayRelayTxId : row.refundRelayTxId;
    const relay = relayId ? await this.txs.find(relayId) : null;
    if (relay?.status === 'PENDING') return;
    const state = await this.escrowState(row);
    if (state === (repaying ? ESCROW_REPAID : ESCROW_REFUNDED)) {
      await this.deposits.closed(row.id, repaying ? 'repaid' : 'refunded', relay?.executionTxHash?.toLowerCase() ?? null);
    } else if (state === ESCROW_OPEN) {
      await this.deposits.retryClose(row.id, repaying ? 'repaying' : 'refunding');
    }
  }

  private async escrowState(row: BridgeDepositRow): Promise<bigint> {
    const spoke = new Contract(this.inventory.spokeOf(row.srcChainId)!, SPOKE_ABI, this.registry.provider(row.srcChainId));
    const escrow = await spoke.escrows(row.depositId);
    return BigInt(escrow.state);
  }

  /** The account the bridge's own transactions are charged to; none configured: nothing is sent. */
  private async caller(): Promise<Caller | null> {
    const address = this.config.BRIDGE_ACCOUNT;
    if (!address) return null;
    try {
      return { account: await this.accounts.getByAddress(address.toLowerCase()) };
    } catch {
      this.logger.warn(`BRIDGE_ACCOUNT ${address} is not an account; the filler sends nothing`);
      return null;
    }
  }
}

function seenDeposit(chainId: number, log: Log): SeenDeposit {
  const parsed = SPOKE_ABI.parseLog({ topics: [...log.topics], data: log.data });
  if (!parsed) throw new Error(`unreadable Deposited log in ${log.transactionHash}`);
  const a = parsed.args;
  return {
    srcChainId: chainId,
    depositId: String(a.depositId).toLowerCase(),
    srcTxHash: log.transactionHash.toLowerCase(),
    srcBlockNumber: log.blockNumber,
    srcBlockHash: log.blockHash.toLowerCase(),
    depositor: String(a.depositor).toLowerCase(),
    inputToken: String(a.inputToken).toLowerCase(),
    inputAmount: String(a.inputAmount),
    destChainId: Number(a.destinationChainId),
    outputToken: String(a.outputToken).toLowerCase(),
    outputAmount: String(a.outputAmount),
    recipient: String(a.recipient).toLowerCase(),
    fillDeadline: Number(a.fillDeadline),
    ref: String(a.ref).toLowerCase(),
  };
}
