import { AuthApi } from './auth';
import { FundingApi, type StatementRange } from './funding';
import { GaslessApi } from './gasless';
import { createApiClient, data, type ApiClient, type Credentials } from './http';
import { PoliciesApi } from './policies';
import { RelayApi } from './relay';
import type { RetryOptions } from './retry';
import { connectTxSocket, subscribe, type TxSocket } from './socket';
import { SwapApi } from './swap';
import type { Account, Chain } from './types';
import { VaultApi } from './vault';
import { WebhooksApi } from './webhooks';

export interface RelayClientOptions extends Credentials {
  /** e.g. http://localhost:3000 */
  baseUrl: string;
  fetch?: typeof fetch;
  /**
   * 429 and 503 answers are retried after their `Retry-After` (3 attempts, waits up to 10 s by
   * default), for GET/PUT/DELETE and for POSTs with an `idempotencyKey`; `false` turns it off.
   */
  retry?: RetryOptions | false;
}

/** The typed client: one object per feature, every call typed by the OpenAPI document. */
export class RelayClient {
  readonly relay: RelayApi;
  readonly swap: SwapApi;
  readonly gasless: GaslessApi;
  readonly vault: VaultApi;
  readonly auth: AuthApi;
  readonly webhooks: WebhooksApi;
  /** Deposit address, deposits, the chain-recomputed audit of charges and the ledger CSV. */
  readonly funding: FundingApi;
  readonly policies: PoliciesApi;
  /** The raw openapi-fetch client, for anything the layer above does not wrap. */
  readonly api: ApiClient;

  constructor(private readonly options: RelayClientOptions) {
    this.api = createApiClient(options.baseUrl, options, options.fetch, options.retry);
    this.relay = new RelayApi(this.api, options.baseUrl, options);
    this.swap = new SwapApi(this.api);
    this.gasless = new GaslessApi(this.api);
    this.vault = new VaultApi(this.api);
    this.auth = new AuthApi(this.api);
    this.webhooks = new WebhooksApi(this.api);
    this.funding = new FundingApi(this.api, options.baseUrl, options, options.fetch);
    this.policies = new PoliciesApi(this.api);
  }

  /** A client with other credentials (e.g. the JWT of `auth.login`) on the same server. */
  withCredentials(credentials: Credentials): RelayClient {
    return new RelayClient({ baseUrl: this.options.baseUrl, fetch: this.options.fetch, retry: this.options.retry, ...credentials });
  }

  /** GET /api/supported-chains (public). */
  chains(): Promise<Chain[]> {
    return data(this.api.GET('/api/supported-chains'));
  }

  /** GET /api/user (public). */
  account(address: string): Promise<Account> {
    return data(this.api.GET('/api/user', { params: { query: { address } } }));
  }

  /** GET /api/deposits (same as `funding.deposits`). */
  deposits(query: { limit?: number; cursor?: string } = {}): ReturnType<FundingApi['deposits']> {
    return this.funding.deposits(query);
  }

  /** GET /api/audit (same as `funding.audit`). */
  audit(range: StatementRange = {}): ReturnType<FundingApi['audit']> {
    return this.funding.audit(range);
  }

  /** A Socket.IO connection to /tx with this client's credentials; `subscribe` it to a txId or `{all: true}`. */
  socket(): TxSocket {
    return connectTxSocket(this.options.baseUrl, this.options);
  }
}

export { RelayApiError, RelayTimeoutError } from './errors';
/**
 * @deprecated Import webhook verification from `@gas-relay/sdk/server` (`verifyWebhook` also
 * parses the event). Kept here so existing imports keep working; it uses no Node built-in.
 */
export { verifyWebhookSignature, type WebhookVerification } from './webhook-verify';
export type { WebhookEvent, LowBalanceEvent, DepositEvent, WebhookTestEvent } from './webhook-verify';
export { fromEthers, fromViem, toRelaySigner } from './signers';
export type { RelaySigner, WalletSigner, EthersSignerLike, ViemSigner, TypedDataToSign, TypedDataField, AuthorizationToSign, AuthorizationSignature } from './signers';
export type { RetryOptions } from './retry';
export type { SignPlanOptions } from './vault';
export { subscribe, type TxSocket };
export type { DepositNotification } from './socket';
export type { Credentials };
export type { WaitOptions, TxListQuery } from './relay';
export type { SwapQuoteQuery, CrossChainOptions, CrossChainResult } from './swap';
export type { StatementRange } from './funding';
export { FundingApi } from './funding';
export type { GaslessQuoteQuery } from './gasless';
export type * from './types';
export { isFinal } from './types';
export type { paths, components } from './generated/api';
