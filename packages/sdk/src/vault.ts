import { Signature, TypedDataEncoder, type Signer } from 'ethers';
import { RelayTimeoutError } from './errors';
import { data, type ApiClient } from './http';
import type { DepositQuote, ExecutePlan, Order, Position, WithdrawalQuote } from './types';

type DepositQuoteRequest = { userAddress: string; chain: number; asset: string; amount: string; riskTier?: 'conservative' | 'balanced' | 'aggressive'; minApyBps?: number };
type WithdrawalRequest = { userAddress: string; chain: number; vault: string; shares?: string };

/** The settlement delegate's EIP-712 Execute message (decisions.md "Settlement delegate"). */
const EXECUTE_TYPES = {
  Execute: [
    { name: 'calls', type: 'Call[]' },
    { name: 'nonce', type: 'uint256' },
    { name: 'deadline', type: 'uint256' },
  ],
  Call: [
    { name: 'target', type: 'address' },
    { name: 'value', type: 'uint256' },
    { name: 'data', type: 'bytes' },
  ],
};

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

export class VaultApi {
  constructor(private readonly api: ApiClient) {}

  /** POST /v1/quotes: the solver auction's allocation and the unsigned settlement. */
  quoteDeposit(request: DepositQuoteRequest): Promise<DepositQuote> {
    return data(this.api.POST('/v1/quotes', { body: request }));
  }

  /** POST /v1/withdrawals: a redeem plan (`shares` omitted = the whole balance). */
  quoteWithdrawal(request: WithdrawalRequest): Promise<WithdrawalQuote> {
    return data(this.api.POST('/v1/withdrawals', { body: request }));
  }

  /**
   * Signs a deposit or withdrawal plan with the user's EOA (an ethers Signer that can sign
   * EIP-7702 authorizations, e.g. a Wallet) and executes it through POST /v1/deposits. The
   * Execute message is signed as EIP-712 typed data after checking it hashes to the quote's
   * `executeDigest`, so the signer never signs a digest it cannot read.
   */
  async signAndDeposit(quote: DepositQuote | WithdrawalQuote, signer: Signer): Promise<Order> {
    return this.execute(await this.sign(quote, signer));
  }

  /** The signed body of POST /v1/deposits for a plan. */
  async sign(quote: DepositQuote | WithdrawalQuote, signer: Signer): Promise<ExecutePlan> {
    const payload = quote.txPayload;
    const user = await signer.getAddress();
    const domain = { name: 'SettlementDelegate', version: '1', chainId: payload.authorization.chainId, verifyingContract: user };
    const message = { calls: payload.calls, nonce: payload.executeNonce, deadline: payload.deadline };
    const digest = TypedDataEncoder.hash(domain, EXECUTE_TYPES, message);
    if (digest !== payload.executeDigest) throw new Error(`the plan's executeDigest ${payload.executeDigest} is not the Execute message of ${user} (${digest})`);
    const executeSignature = await signer.signTypedData(domain, EXECUTE_TYPES, message);
    // An EOA already delegated to the settlement delegate needs no new authorization (only known with a provider).
    const code = signer.provider ? await signer.provider.getCode(user) : '0x';
    if (code.toLowerCase() === `0xef0100${payload.authorization.address.slice(2).toLowerCase()}`) return { quoteId: quote.quoteId, executeSignature };
    const auth = await signer.authorize({ address: payload.authorization.address, nonce: payload.authorization.nonce, chainId: payload.authorization.chainId });
    const sig = Signature.from(auth.signature);
    return {
      quoteId: quote.quoteId,
      executeSignature,
      authorization: { chainId: payload.authorization.chainId, address: payload.authorization.address, nonce: payload.authorization.nonce, yParity: `0x${sig.yParity}`, r: sig.r, s: sig.s },
    };
  }

  /** POST /v1/deposits with an already signed plan. */
  execute(plan: ExecutePlan): Promise<Order> {
    return data(this.api.POST('/v1/deposits', { body: plan }));
  }

  /** GET /v1/orders/{id}. */
  order(orderId: string): Promise<Order> {
    return data(this.api.GET('/v1/orders/{id}', { params: { path: { id: orderId } } }));
  }

  /** Polls the order until `confirmed` or `failed`. */
  async waitForOrder(orderId: string, options: { timeoutMs?: number; pollIntervalMs?: number } = {}): Promise<Order> {
    const deadline = Date.now() + (options.timeoutMs ?? 60_000);
    let order = await this.order(orderId);
    while (order.status === 'relaying') {
      if (Date.now() > deadline) throw new RelayTimeoutError(`order ${orderId} still relaying`, order);
      await sleep(options.pollIntervalMs ?? 1_000);
      order = await this.order(orderId);
    }
    return order;
  }

  /** GET /v1/positions: recorded positions of an EOA, valued now. */
  positions(userAddress: string, chain?: number): Promise<Position[]> {
    return data(this.api.GET('/v1/positions', { params: { query: { userAddress, ...(chain === undefined ? {} : { chain }) } } }));
  }
}
