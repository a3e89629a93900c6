import { Injectable, Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { AppError } from '../../../common/errors/app-error';
import { microToUsd } from '../../../common/money/usd';
import { AppConfig } from '../../../config/app-config';
import { type Account, AccountsService } from '../../accounts';
import { postWebhook, signedHeaders } from '../../webhooks';
import type { FeeSettings } from '../core/fees';
import type { StoredAuthorization } from '../store/relay-transaction.entity';

/** What the approval webhook is asked about (extensions.md, "Approval webhook"). */
export interface SponsorshipRequest {
  chainId: number;
  to: string | null;
  callData: string;
  /** wei, decimal string */
  value: string;
  label: string;
  derivationPath: string | null;
  estimatedCostMicro: bigint;
  /** The EIP-7702 delegations the transaction carries, or null. */
  authorizationList: StoredAuthorization[] | null;
  /** decimal string: the gas limit the transaction will be sent with */
  gasLimit: string;
  /** The fees it will be sent with (the caller's, or the service's from the market). */
  fees: FeeSettings;
}

/** A client's speed-up of a sponsored transaction: the fees of its last broadcast, the new ones and the new worst case. */
export interface FeeRaiseRequest {
  txId: string;
  chainId: number;
  oldFees: FeeSettings;
  newFees: FeeSettings;
  estimatedCostMicro: bigint;
}

/** Why a sponsorship was refused: the webhook said no, did not answer in time, or failed. */
export type RefusalReason = 'denied' | 'timeout' | 'error';

/**
 * The account's approval webhook: before a submission is accepted (after its estimate, before
 * anything is reserved) the service POSTs `sponsorship.request`, signed with the webhook's own
 * secret the Standard Webhooks way and through the webhooks' SSRF-checked POST. Only a 2xx with
 * `{"approve": true}` within APPROVAL_TIMEOUT_MS lets the submission through.
 */
@Injectable()
export class ApprovalGate {
  private readonly logger = new Logger(ApprovalGate.name);

  constructor(
    private readonly accounts: AccountsService,
    private readonly config: AppConfig,
  ) {}

  async check(account: Account, request: SponsorshipRequest): Promise<void> {
    if (!account.approvalWebhookEnabled) return;
    const webhook = this.accounts.approvalWebhookOf(account);
    if (!webhook) return;
    const body = JSON.stringify({
      event: 'sponsorship.request',
      userId: account.id,
      chainId: request.chainId,
      to: request.to,
      callData: request.callData,
      value: request.value,
      label: request.label,
      derivationPath: request.derivationPath,
      estimatedCostUSD: microToUsd(request.estimatedCostMicro),
      // Everything that will run and everything it may cost, so an approver decides on the whole transaction.
      authorizationList: request.authorizationList?.map((a) => ({ chainId: Number(a.chainId), address: a.address, nonce: Number(a.nonce), yParity: a.yParity, r: a.r, s: a.s })) ?? null,
      gasLimit: request.gasLimit,
      maxFeePerGas: request.fees.type === 'eip1559' ? request.fees.maxFeePerGas.toString() : null,
      maxPriorityFeePerGas: request.fees.type === 'eip1559' ? request.fees.maxPriorityFeePerGas.toString() : null,
      gasPrice: request.fees.type === 'legacy' ? request.fees.gasPrice.toString() : null,
    });
    const verdict = await this.ask(webhook, body);
    if (verdict.approved) return;
    this.logger.warn(`sponsorship for ${account.id} refused (${verdict.reason}): ${verdict.detail}`);
    throw new AppError('TRANSACTION_008', `sponsorship not approved (${verdict.reason}): ${verdict.detail}`);
  }

  /**
   * A speed-up spends more of the account's money on a transaction the webhook approved at other
   * fees: it is asked again, `kind: "speed_up"`, with the old and new fees and the new worst case,
   * signed and decided like a submission's request. Automatic re-prices within what the account
   * reserves are not asked about (docs/decisions.md, Fee raises).
   */
  async checkFeeRaise(account: Account, request: FeeRaiseRequest): Promise<void> {
    if (!account.approvalWebhookEnabled) return;
    const webhook = this.accounts.approvalWebhookOf(account);
    if (!webhook) return;
    const body = JSON.stringify({
      event: 'sponsorship.request',
      kind: 'speed_up',
      userId: account.id,
      txId: request.txId,
      chainId: request.chainId,
      oldFees: feesJson(request.oldFees),
      newFees: feesJson(request.newFees),
      estimatedCostUSD: microToUsd(request.estimatedCostMicro),
    });
    const verdict = await this.ask(webhook, body);
    if (verdict.approved) return;
    this.logger.warn(`speed-up of ${request.txId} for ${account.id} refused (${verdict.reason}): ${verdict.detail}`);
    throw new AppError('TRANSACTION_008', `speed-up not approved (${verdict.reason}): ${verdict.detail}`);
  }

  /** POSTs the signed request through the SSRF-checked client and reads the answer. */
  private async ask(webhook: { url: string; secret: string }, body: string): Promise<Verdict> {
    const result = await postWebhook({
      url: webhook.url,
      headers: { 'content-type': 'application/json', 'user-agent': 'gas-relay-approval/1', ...signedHeaders(webhook.secret, `apr_${randomUUID()}`, body) },
      body,
      timeoutMs: this.config.APPROVAL_TIMEOUT_MS,
      allowPrivate: this.config.WEBHOOK_ALLOW_PRIVATE,
    });
    return decide(result);
  }
}

/** Fees as the webhook reads them: wei, decimal strings. */
function feesJson(fees: FeeSettings): Record<string, string> {
  return fees.type === 'legacy' ? { gasPrice: fees.gasPrice.toString() } : { maxFeePerGas: fees.maxFeePerGas.toString(), maxPriorityFeePerGas: fees.maxPriorityFeePerGas.toString() };
}

type Verdict = { approved: true } | { approved: false; reason: RefusalReason; detail: string };

function decide(result: { ok: boolean; statusCode: number | null; error: string | null; timedOut?: boolean; body?: string }): Verdict {
  if (result.timedOut) return { approved: false, reason: 'timeout', detail: 'the approval webhook did not answer in time' };
  if (!result.ok) return { approved: false, reason: 'error', detail: result.statusCode ? `the approval webhook answered HTTP ${result.statusCode}` : `the approval webhook could not be reached (${result.error})` };
  let answer: unknown;
  try {
    answer = JSON.parse(result.body ?? '');
  } catch {
    return { approved: false, reason: 'error', detail: 'the approval webhook answered no JSON body' };
  }
  if (typeof answer === 'object' && answer !== null && (answer as { approve?: unknown }).approve === true) return { approved: true };
  const said = (answer as { reason?: unknown } | null)?.reason;
  return { approved: false, reason: 'denied', detail: typeof said === 'string' && said.length > 0 ? `the approval webhook denied it: ${said.slice(0, 200)}` : 'the approval webhook denied it' };
}
