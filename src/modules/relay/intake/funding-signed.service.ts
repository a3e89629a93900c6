import { Injectable, Logger } from '@nestjs/common';
import { Transaction } from 'ethers';
import { AppError } from '../../../common/errors/app-error';
import { Caller } from '../../../common/http/authenticated-request';
import { microToUsd } from '../../../common/money/usd';
import { LowBalanceMonitor } from '../../accounts';
import { ChainDefinition, ChainRegistry } from '../../chains';
import { keepIdempotencyClaim } from '../../idempotency';
import { TxStatusPublisher } from '../../tx-events';
import { Sponsorship, SponsorshipPlan } from '../../policies';
import { Estimator, FUNDING_FEE_PERCENT } from './estimator.service';
import { FeeSettings, weiToMicroUsd } from '../core/fees';
import { ApprovalGate } from './approval-gate';
import { PendingWriter } from './pending-writer.service';
import { checkAllowedTarget } from './target-policy';
import { ReservedTargets } from './reserved-targets';
import { RegionResolver } from './region-resolver';
import { RelayRequest } from './relay-request';
import { RegionHints } from './relay-command';
import { SendQueue } from '../pipeline/send/send-queue';
import { SubmitSignedTxDto } from '../http/dto/submit-signed-tx.dto';
import { RelayBroadcastStore } from '../store/relay-broadcast.store';
import { RelayTransactionStore } from '../store/relay-transaction.store';
import { SettlementService } from '../pipeline/settle/settlement.service';
import { TopUpService } from '../pipeline/send/top-up.service';
import { isDuplicateBroadcast, previousSubmission } from './signed-resubmission';
import { providerErrorDetail, shownErrorText } from '../../../common/evm/provider-error';


/**
 * funding-signed (decisions.md): the caller's user signed the transaction; the service tops
 * the sender up to minBalanceRequired, broadcasts the signed bytes and tracks them like any
 * relayed transaction. The account pays the top-up plus the 8% funding fee and the transfer's gas.
 */
@Injectable()
export class FundingSignedService {
  private readonly logger = new Logger(FundingSignedService.name);

  constructor(
    private readonly txs: RelayTransactionStore,
    private readonly broadcastRows: RelayBroadcastStore,
    private readonly chains: ChainRegistry,
    private readonly regions: RegionResolver,
    private readonly estimator: Estimator,
    private readonly topUps: TopUpService,
    private readonly publisher: TxStatusPublisher,
    private readonly sendQueue: SendQueue,
    private readonly settlement: SettlementService,
    private readonly pending: PendingWriter,
    private readonly approval: ApprovalGate,
    private readonly lowBalance: LowBalanceMonitor,
    private readonly reserved: ReservedTargets,
    private readonly sponsorship: Sponsorship,
  ) {}

  async submit(caller: Caller, dto: SubmitSignedTxDto, hints: RegionHints): Promise<FundingSignedAnswer> {
    const chain = this.chainFor(caller, dto.chainId);
    const signed = parseSigned(dto.signedTx, chain.chainId);
    this.reserved.refuse(chain.chainId, { to: signed.to });
    checkAllowedTarget(caller.account, { chainId: chain.chainId, to: signed.to, callData: signed.data });
    const previous = await previousSubmission(this.broadcastRows, this.txs, signed.hash, caller.account.id);
    if (previous) return previous;
    const balance = await this.checkNextNonce(chain.chainId, signed);
    const quote = await this.quote(caller, chain, signed, dto, balance, hints);
    const written = await this.record(caller, dto, signed, quote);
    if ('txId' in written) return written;
    const { tx, notification } = written;
    const answer = (fundingTxHash: string | null) => ({ txId: tx.id, estimatedCostUSD: microToUsd(quote.costMicro), fundingTxHash });
    // Committed: a retry under the same Idempotency-Key gets this transaction, whatever fails from here.
    keepIdempotencyClaim({ status: 201, response: answer(null) });
    await this.publisher.publish('status', notification);
    if (caller.account.lowBalanceThresholdMicro !== null) void this.lowBalance.check(caller.account.id);
    const fundingTxHash = quote.topUpWei > 0n ? await this.topUp(tx.id, signed, quote) : null;
    if (fundingTxHash) keepIdempotencyClaim({ status: 201, response: answer(fundingTxHash) });
    await this.sendQueue.enqueue(tx.id);
    return answer(fundingTxHash);
  }

  private chainFor(caller: Caller, chainId: number): ChainDefinition {
    const chain = this.chains.get(chainId);
    if (chain.capabilities.exchangeAction || caller.account.disabledChainIds.includes(chain.chainId)) {
      throw new AppError('CHAIN_001', `chain ${chain.chainId} does not take signed EVM transactions here`);
    }
    return chain;
  }

  /** The sender's balance, once its signed nonce is the next one (a later nonce would wait behind a gap the relay cannot fill). */
  private async checkNextNonce(chainId: number, signed: SignedTx): Promise<bigint> {
    const provider = this.chains.provider(chainId);
    const [pendingNonce, balance] = await Promise.all([provider.getTransactionCount(signed.from, 'pending'), provider.getBalance(signed.from)]);
    if (BigInt(signed.nonce) !== BigInt(pendingNonce)) {
      throw new AppError('VALIDATION_001', `signedTx nonce ${signed.nonce} is not the sender's next nonce ${pendingNonce}`);
    }
    return balance;
  }

  /** What the account pays (the top-up, the funding fee, the transfer's gas), checked by the sponsorship plan and the approval webhook. */
  private async quote(caller: Caller, chain: ChainDefinition, signed: SignedTx, dto: SubmitSignedTxDto, balance: bigint, hints: RegionHints): Promise<FundingQuote> {
    const request = relayRequestOf(chain, signed, dto);
    const estimate = await this.estimator.estimate(request, signed.from, { derivedSender: false });
    const topUpWei = estimate.minBalanceRequired > balance ? estimate.minBalanceRequired - balance : 0n;
    const region = this.regions.resolve(hints, undefined);
    const transferGasWei = topUpWei > 0n ? await this.topUps.maxTransferGasWei(chain.chainId) : 0n;
    const fundingWei = (topUpWei * (100n + FUNDING_FEE_PERCENT)) / 100n + transferGasWei;
    const costMicro = weiToMicroUsd(fundingWei, estimate.usdPerNative, chain.nativeCurrency.decimals);
    const target = { chainId: chain.chainId, to: signed.to.toLowerCase(), callData: signed.data };
    // The end user is the signer: the user whose transaction the account sponsors.
    const sponsorship = await this.sponsorship.plan(caller.account.id, { ...target, endUser: signed.from.toLowerCase(), now: new Date() });
    await this.approval.check(caller.account, {
      ...target,
      value: signed.value.toString(),
      label: request.label,
      derivationPath: null,
      estimatedCostMicro: costMicro,
      authorizationList: null,
      gasLimit: signed.gasLimit.toString(),
      fees: feeSettingsOf(signed),
    });
    return { chainId: chain.chainId, region, topUpWei, fundingWei, costMicro, sponsorship, maxUsd: request.maxUsd, label: request.label };
  }

  /** The row (stage signed) with the user's bytes as its only broadcast, and the reservation; a concurrent submission of the same bytes answers for both. */
  private async record(caller: Caller, dto: SubmitSignedTxDto, signed: SignedTx, q: FundingQuote) {
    return this.pending
      .write(
        caller.account.id,
        {
          chainId: q.chainId,
          to: signed.to.toLowerCase(),
          callData: signed.data,
          value: signed.value.toString(),
          gasLimit: signed.gasLimit.toString(),
          gasPrice: signed.gasPrice?.toString() ?? null,
          maxFeePerGas: signed.maxFeePerGas?.toString() ?? null,
          maxPriorityFeePerGas: signed.maxPriorityFeePerGas?.toString() ?? null,
          label: q.label,
          transactionType: 'funding-signed',
          submitRegion: q.region,
          sender: signed.from.toLowerCase(),
          nonce: BigInt(signed.nonce),
          executionTxHash: signed.hash,
          // Charged only once the top-up is on its way (set with its hash below).
          fundingCostWei: '0',
          fundingTxHash: null,
        },
        q.costMicro,
        q.maxUsd,
        // The user's signed bytes are the transaction's only broadcast; the send job replays them.
        async (em, row) => {
          await this.broadcastRows.insert(
            {
              txId: row.id,
              hash: signed.hash,
              chainId: q.chainId,
              sender: signed.from.toLowerCase(),
              nonce: BigInt(signed.nonce),
              raw: dto.signedTx,
              maxFeePerGas: (signed.maxFeePerGas ?? signed.gasPrice ?? 0n).toString(),
              maxPriorityFeePerGas: signed.maxPriorityFeePerGas?.toString() ?? null,
              broadcastAt: null,
            },
            em,
          );
        },
        'signed',
        q.sponsorship,
      )
      .catch(async (err: unknown) => {
        // A concurrent submission of the same bytes got there first; its answer is this one's.
        const first = isDuplicateBroadcast(err) ? await previousSubmission(this.broadcastRows, this.txs, signed.hash, caller.account.id) : null;
        if (!first) throw err;
        return first;
      });
  }

  /**
   * The top-up is signed (a pool nonce allocated) only once the record and reservation exist,
   * so a refused submission never leaves a nonce gap; the send job waits for it to be mined.
   */
  private async topUp(txId: string, signed: SignedTx, q: FundingQuote): Promise<string> {
    try {
      const topUp = await this.topUps.sign(q.chainId, q.region, signed.from, q.topUpWei);
      // Hash and cost before the send: a crash after it still charges what was sent.
      await this.txs.setFunding(txId, { fundingTxHash: topUp.hash, fundingCostWei: q.fundingWei.toString() });
      await this.chains.provider(q.chainId).send('eth_sendRawTransaction', [topUp.raw]);
      return topUp.hash;
    } catch (err) {
      // The top-up did not go out: nothing was spent, so nothing is charged.
      await this.txs.setFunding(txId, { fundingCostWei: '0' });
      await this.settlement.failUnsent(txId, `top-up failed: ${shownErrorText(err)}`);
      // The node's error names the pool relayer and its balance: logged (under the trace id), not answered.
      this.logger.warn(`top-up of ${txId} failed: ${providerErrorDetail(err)}`);
      throw new AppError('TRANSACTION_004', 'could not fund the sender: the top-up transfer was refused');
    }
  }
}

type FundingSignedAnswer = { txId: string; estimatedCostUSD: number; fundingTxHash: string | null };

/** What a funding-signed submission costs the account, and where its top-up comes from. */
interface FundingQuote {
  chainId: number;
  region: string;
  topUpWei: bigint;
  fundingWei: bigint;
  costMicro: bigint;
  sponsorship: SponsorshipPlan | null;
  maxUsd: number | null;
  label: string;
}

function feeSettingsOf(signed: SignedTx): FeeSettings {
  return signed.maxFeePerGas !== null
    ? { type: 'eip1559', maxFeePerGas: signed.maxFeePerGas, maxPriorityFeePerGas: signed.maxPriorityFeePerGas ?? 0n }
    : { type: 'legacy', gasPrice: signed.gasPrice ?? 0n };
}

/** The request the estimator simulates: the user's transaction as signed. */
function relayRequestOf(chain: ChainDefinition, signed: SignedTx, dto: SubmitSignedTxDto): RelayRequest {
  return {
    chain,
    to: signed.to,
    data: signed.data,
    value: signed.value,
    gasLimit: signed.gasLimit,
    gas: signed.maxFeePerGas !== null
      ? { kind: 'eip1559', maxFeePerGas: signed.maxFeePerGas, maxPriorityFeePerGas: signed.maxPriorityFeePerGas ?? 0n }
      : { kind: 'legacy', gasPrice: signed.gasPrice ?? 0n },
    maxUsd: dto.maxUSD ?? null,
    label: dto.label ?? '',
    transactionType: 'funding-signed',
    derivationPath: null,
    authorizationList: null,
    // The user signed it: the relay cannot sign a cancellation at the user's nonce.
    validUntil: null,
  };
}

interface SignedTx {
  from: string;
  to: string;
  hash: string;
  nonce: number;
  data: string;
  value: bigint;
  gasLimit: bigint;
  gasPrice: bigint | null;
  maxFeePerGas: bigint | null;
  maxPriorityFeePerGas: bigint | null;
}

function parseSigned(raw: string, chainId: number): SignedTx {
  let tx: Transaction;
  try {
    tx = Transaction.from(raw);
  } catch {
    throw new AppError('VALIDATION_001', 'signedTx is not a signed transaction');
  }
  if (!tx.from || !tx.hash || !tx.signature) throw new AppError('VALIDATION_001', 'signedTx is not signed');
  if (tx.chainId !== BigInt(chainId)) throw new AppError('VALIDATION_001', `signedTx is for chain ${tx.chainId}, not ${chainId}`);
  if (tx.type === 4 || tx.type === 3) throw new AppError('VALIDATION_001', 'blob and 7702 transactions cannot be funding-signed');
  if (!tx.to) throw new AppError('VALIDATION_001', 'contract creation cannot be funding-signed');
  return {
    from: tx.from,
    to: tx.to,
    hash: tx.hash,
    nonce: tx.nonce,
    data: tx.data.toLowerCase(),
    value: tx.value,
    gasLimit: tx.gasLimit,
    gasPrice: tx.type === 0 || tx.type === 1 ? tx.gasPrice : null,
    maxFeePerGas: tx.type === 2 ? tx.maxFeePerGas : null,
    maxPriorityFeePerGas: tx.type === 2 ? tx.maxPriorityFeePerGas : null,
  };
}
