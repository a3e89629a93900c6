import { getAddress, hashTypedData } from 'viem';
import { RelayTimeoutError } from './errors';
import { data, type ApiClient } from './http';
import { toRelaySigner, type WalletSigner } from './signers';
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

export interface SignPlanOptions {
  /**
   * Reads the EOA's code to skip the authorization when it already delegates (a viem
   * PublicClient fits). Without it the signer's own node is asked (ethers `signer.provider`, a
   * viem WalletClient's transport); a signer with neither always adds the authorization.
   */
  publicClient?: { getCode(args: { address: `0x${string}` }): Promise<string | undefined> };
}

function hexOf(value: string): `0x${string}` {
  if (!/^0x[0-9a-fA-F]*$/.test(value)) throw new Error(`call data is not hex: ${value}`);
  return `0x${value.slice(2)}`;
}

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
   * Signs a deposit or withdrawal plan with the user's EOA and executes it through POST
   * /v1/deposits. The Execute message is signed as EIP-712 typed data after checking it hashes
   * to the quote's `executeDigest`, so the signer never signs a digest it cannot read.
   *
   * The first plan of an EOA also needs an EIP-7702 authorization, which only a wallet holding
   * the key can sign: an ethers `Wallet`, a viem local account (`privateKeyToAccount`,
   * `mnemonicToAccount`) or a WalletClient built on one. A browser extension wallet behind a
   * viem WalletClient or an ethers JsonRpcSigner can sign plans of an EOA that already delegates
   * to the settlement delegate (later deposits, withdrawals), not the first one.
   */
  async signAndDeposit(quote: DepositQuote | WithdrawalQuote, signer: WalletSigner, options: SignPlanOptions = {}): Promise<Order> {
    return this.execute(await this.sign(quote, signer, options));
  }

  /** The signed body of POST /v1/deposits for a plan. */
  async sign(quote: DepositQuote | WithdrawalQuote, wallet: WalletSigner, options: SignPlanOptions = {}): Promise<ExecutePlan> {
    const signer = toRelaySigner(wallet);
    const payload = quote.txPayload;
    const user = getAddress(await signer.getAddress());
    const typed = {
      domain: { name: 'SettlementDelegate', version: '1', chainId: payload.authorization.chainId, verifyingContract: user },
      types: EXECUTE_TYPES,
      primaryType: 'Execute' as const,
      message: { calls: payload.calls, nonce: payload.executeNonce, deadline: payload.deadline },
    };
    const digest = hashTypedData({ ...typed, message: { calls: payload.calls.map((c) => ({ target: getAddress(c.target), value: BigInt(c.value), data: hexOf(c.data) })), nonce: BigInt(payload.executeNonce), deadline: BigInt(payload.deadline) } });
    if (digest !== payload.executeDigest.toLowerCase()) throw new Error(`the plan's executeDigest ${payload.executeDigest} is not the Execute message of ${user} (${digest})`);
    const executeSignature = await signer.signTypedData(typed);
    if (await this.alreadyDelegates(user, payload.authorization.address, signer.getCode, options)) return { quoteId: quote.quoteId, executeSignature };
    const cannot = (why: string) =>
      new Error(
        `${user} does not delegate to the settlement delegate yet, so this plan needs an EIP-7702 authorization, and this ${signer.library} wallet cannot sign one${why}: ` +
          'use a wallet holding the key (an ethers Wallet, a viem local account) for the first plan of an EOA',
      );
    if (!signer.signAuthorization) throw cannot('');
    // ethers signers all have `authorize`, but only a Wallet implements it (a JsonRpcSigner throws UNSUPPORTED_OPERATION).
    const auth = await signer
      .signAuthorization({ address: payload.authorization.address, nonce: payload.authorization.nonce, chainId: payload.authorization.chainId })
      .catch((err: unknown) => {
        throw cannot(` (${err instanceof Error ? err.message.split('\n')[0] : String(err)})`);
      });
    return {
      quoteId: quote.quoteId,
      executeSignature,
      authorization: { chainId: payload.authorization.chainId, address: payload.authorization.address, nonce: payload.authorization.nonce, yParity: `0x${auth.yParity}`, r: auth.r, s: auth.s },
    };
  }

  /** An EOA already delegated to the settlement delegate needs no new authorization (known only with access to a node). */
  private async alreadyDelegates(user: string, delegate: string, signerCode: ((address: string) => Promise<string | undefined>) | undefined, options: SignPlanOptions): Promise<boolean> {
    const code = options.publicClient ? await options.publicClient.getCode({ address: getAddress(user) }) : await signerCode?.(user);
    return (code ?? '0x').toLowerCase() === `0xef0100${delegate.slice(2).toLowerCase()}`;
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
