import { RelayTimeoutError } from './errors';
import { data, type ApiClient } from './http';
import type { paths } from './generated/api';
import { toRelaySigner, type TypedDataField, type WalletSigner } from './signers';
import type { GaslessQuote, GaslessSwap } from './types';

export type GaslessQuoteQuery = paths['/gasless/quote']['get']['parameters']['query'];

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export class GaslessApi {
  constructor(private readonly api: ApiClient) {}

  /** GET /gasless/quote: quotes with the Permit2 typed data to sign, best route first. */
  quote(query: GaslessQuoteQuery): Promise<GaslessQuote[]> {
    return data(this.api.GET('/gasless/quote', { params: { query } }));
  }

  /**
   * Signs the quote's Permit2 typed data with the sender's key (eth_signTypedData_v4): an ethers
   * Signer, a viem WalletClient (a browser wallet will do) or a viem local account. The signer
   * must be the quote's `sender`; the token must already be approved to Permit2.
   */
  async sign(quote: GaslessQuote, wallet: WalletSigner): Promise<string> {
    const { domain, message, primaryType } = quote.eip712;
    // Both libraries derive EIP712Domain from the domain (ethers refuses it among the struct types).
    const types: Record<string, TypedDataField[]> = {};
    for (const [name, fields] of Object.entries(quote.eip712.types)) if (name !== 'EIP712Domain') types[name] = fields;
    return toRelaySigner(wallet).signTypedData({ domain, types, primaryType, message });
  }

  /** POST /gasless/submit-swap: the service relays the settlement; the calling account pays the gas. */
  submit(quoteId: string, signature: string): Promise<GaslessSwap> {
    return data(this.api.POST('/gasless/submit-swap', { body: { quoteId, signature } }));
  }

  /** GET /gasless/status. */
  status(swapId: string): Promise<GaslessSwap> {
    return data(this.api.GET('/gasless/status', { params: { query: { id: swapId } } }));
  }

  /** Polls GET /gasless/status until `executed` or `failed`. */
  async waitFor(swapId: string, options: { timeoutMs?: number; pollIntervalMs?: number } = {}): Promise<GaslessSwap> {
    const deadline = Date.now() + (options.timeoutMs ?? 60_000);
    let swap = await this.status(swapId);
    while (swap.status !== 'executed' && swap.status !== 'failed') {
      if (Date.now() > deadline) throw new RelayTimeoutError(`gasless swap ${swapId} still ${swap.status}`, swap);
      await sleep(options.pollIntervalMs ?? 1_000);
      swap = await this.status(swapId);
    }
    return swap;
  }
}
