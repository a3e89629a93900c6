import { AuthApi } from './auth';
import { GaslessApi } from './gasless';
import { createApiClient, data, type ApiClient, type Credentials } from './http';
import { PoliciesApi } from './policies';
import { RelayApi } from './relay';
import { connectTxSocket, subscribe, type TxSocket } from './socket';
import { SwapApi } from './swap';
import type { Account, Chain } from './types';
import { VaultApi } from './vault';
import { WebhooksApi } from './webhooks';

export interface RelayClientOptions extends Credentials {
  /** e.g. http://localhost:3000 */
  baseUrl: string;
  fetch?: typeof fetch;
}

/** The typed client: one object per feature, every call typed by the OpenAPI document. */
export class RelayClient {
  readonly relay: RelayApi;
  readonly swap: SwapApi;
  readonly gasless: GaslessApi;
  readonly vault: VaultApi;
  readonly auth: AuthApi;
  readonly webhooks: WebhooksApi;
  readonly policies: PoliciesApi;
  /** The raw openapi-fetch client, for anything the layer above does not wrap. */
  readonly api: ApiClient;

  constructor(private readonly options: RelayClientOptions) {
    this.api = createApiClient(options.baseUrl, options, options.fetch);
    this.relay = new RelayApi(this.api, options.baseUrl, options);
    this.swap = new SwapApi(this.api);
    this.gasless = new GaslessApi(this.api);
    this.vault = new VaultApi(this.api);
    this.auth = new AuthApi(this.api);
    this.webhooks = new WebhooksApi(this.api);
    this.policies = new PoliciesApi(this.api);
  }

  /** A client with other credentials (e.g. the JWT of `auth.login`) on the same server. */
  withCredentials(credentials: Credentials): RelayClient {
    return new RelayClient({ baseUrl: this.options.baseUrl, fetch: this.options.fetch, ...credentials });
  }

  /** GET /api/supported-chains (public). */
  chains(): Promise<Chain[]> {
    return data(this.api.GET('/api/supported-chains'));
  }

  /** GET /api/user (public). */
  account(address: string): Promise<Account> {
    return data(this.api.GET('/api/user', { params: { query: { address } } }));
  }

  /** A Socket.IO connection to /tx with this client's credentials; `subscribe` it to a txId or `{all: true}`. */
  socket(): TxSocket {
    return connectTxSocket(this.options.baseUrl, this.options);
  }
}

export { RelayApiError, RelayTimeoutError } from './errors';
export { verifyWebhookSignature, type WebhookVerification } from './webhooks';
export { subscribe, type TxSocket };
export type { Credentials };
export type { WaitOptions, TxListQuery } from './relay';
export type { SwapQuoteQuery } from './swap';
export type { GaslessQuoteQuery } from './gasless';
export type * from './types';
export { isFinal } from './types';
export type { paths, components } from './generated/api';
