import { JsonRpcProvider, Wallet, getCreateAddress, toBeHex } from 'ethers';

export interface TxRequest {
  /** Shown in errors, e.g. "deploy USDC" or "mint pool:uniswap-v2:WETH/USDC". */
  label: string;
  to?: string;
  data: string;
  value?: bigint;
  gasLimit: bigint;
}

export const GAS = {
  /** Largest is Router02 (~4.5M); fixed limits skip one eth_estimateGas round trip per tx. */
  deploy: 8_000_000n,
  createPair: 4_000_000n,
  call: 300_000n,
} as const;

const RECEIPT_POLL_MS = 25;

interface SentTx {
  label: string;
  hash: string;
}

/**
 * Fire-and-forget sender for a single key: nonces are assigned locally and txs are broadcast
 * without waiting for receipts. That is safe because a node executes one sender's txs strictly in
 * nonce order, so each tx sees the effects of all earlier ones; with automine every tx is mined on
 * arrival anyway. Receipts are checked in one sweep at the end (confirmAll).
 */
export class TxSender {
  private readonly sent: SentTx[] = [];

  private constructor(
    private readonly provider: JsonRpcProvider,
    private readonly wallet: Wallet,
    private readonly chainId: bigint,
    private nonce: number,
    private readonly maxFeePerGas: bigint,
  ) {}

  static async create(provider: JsonRpcProvider, privateKey: string, chainId: number): Promise<TxSender> {
    const wallet = new Wallet(privateKey);
    const [nonceHex, block] = await Promise.all([
      provider.send('eth_getTransactionCount', [wallet.address, 'pending']) as Promise<string>,
      provider.getBlock('latest'),
    ]);
    // Generous headroom over the current base fee: the price is irrelevant on a devnet, but a tx
    // priced below a (rising) base fee would sit in the pool and stall everything after it.
    const baseFee = block?.baseFeePerGas ?? 1_000_000_000n;
    return new TxSender(provider, wallet, BigInt(chainId), Number(BigInt(nonceHex)), baseFee * 4n + 1_000_000_000n);
  }

  get address(): string {
    return this.wallet.address;
  }

  get nextNonce(): number {
    return this.nonce;
  }

  async send(req: TxRequest): Promise<string> {
    const nonce = this.nonce++;
    const signed = await this.wallet.signTransaction({
      type: 2,
      chainId: this.chainId,
      nonce,
      to: req.to ?? null,
      data: req.data,
      value: req.value ?? 0n,
      gasLimit: req.gasLimit,
      maxFeePerGas: this.maxFeePerGas,
      maxPriorityFeePerGas: 0n,
    });
    let hash: string;
    try {
      hash = (await this.provider.send('eth_sendRawTransaction', [signed])) as string;
    } catch (err) {
      throw new Error(`devnet tx "${req.label}" (nonce ${nonce}) was rejected: ${(err as Error).message}`);
    }
    this.sent.push({ label: req.label, hash });
    return hash;
  }

  /** CREATE deployment; the address follows from sender + nonce, so no receipt is needed. */
  async deploy(label: string, initCode: string): Promise<string> {
    const address = getCreateAddress({ from: this.wallet.address, nonce: this.nonce });
    await this.send({ label, data: initCode, gasLimit: GAS.deploy });
    return address;
  }

  /** Waits for the last tx, then checks every receipt so a revert is reported with its label. */
  async confirmAll(timeoutMs = 60_000): Promise<void> {
    const last = this.sent.at(-1);
    if (!last) return;
    // Poll instead of provider.waitForTransaction: that one waits for a *new* block event, and with
    // automine no further block may ever come if the tx was mined between its check and subscribing.
    const deadline = Date.now() + timeoutMs;
    while (!(await this.provider.getTransactionReceipt(last.hash))) {
      if (Date.now() > deadline) throw new Error(`devnet tx "${last.label}" not mined within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, RECEIPT_POLL_MS));
    }
    // Parallel calls are coalesced into JSON-RPC batches by the provider.
    const receipts = await Promise.all(this.sent.map((tx) => this.provider.getTransactionReceipt(tx.hash)));
    const failed = this.sent.filter((_, i) => receipts[i]?.status !== 1);
    if (failed.length > 0) {
      throw new Error(`devnet deployment failed; first failing tx: "${failed[0].label}" (${failed[0].hash}); ${failed.length} failed in total`);
    }
    this.sent.length = 0;
  }
}

/** anvil_setBalance takes a hex quantity without leading zeros. */
export function hexQuantity(value: bigint): string {
  return toBeHex(value);
}
