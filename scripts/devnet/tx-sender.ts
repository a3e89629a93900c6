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
const RECEIPT_SLICE = 2000;
const STALL_MS = 60_000;

interface SentTx {
  label: string;
  hash: string;
  nonce: number;
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

  /** Under manual mining: the block being filled (gas limits of the txs sent since the last one). */
  private block: { gasTarget: bigint; gas: bigint; txs: number; mined: number } | null = null;

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

  /** Under manual mining: the gas (by limits) the sender packs into one block; null otherwise. */
  get blockGasTarget(): bigint | null {
    return this.block?.gasTarget ?? null;
  }

  get nextNonce(): number {
    return this.nonce;
  }

  async send(req: TxRequest): Promise<string> {
    if (this.block && this.block.gas + req.gasLimit > this.block.gasTarget) await this.mineBlock();
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
    this.sent.push({ label: req.label, hash, nonce });
    if (this.block) [this.block.gas, this.block.txs] = [this.block.gas + req.gasLimit, this.block.txs + 1];
    return hash;
  }

  /** CREATE deployment; the address follows from sender + nonce, so no receipt is needed. */
  async deploy(label: string, initCode: string): Promise<string> {
    const address = getCreateAddress({ from: this.wallet.address, nonce: this.nonce });
    await this.send({ label, data: initCode, gasLimit: GAS.deploy });
    return address;
  }

  /**
   * Waits for the last tx, then checks every receipt so a revert is reported with its label.
   * `stallMs` bounds a wait without progress, not the whole wait: a scale deployment queues tens of
   * thousands of txs, which the node works through for longer than any fixed timeout would allow.
   */
  async confirmAll(stallMs = STALL_MS): Promise<void> {
    const last = this.sent.at(-1);
    if (!last) return;
    // Poll instead of provider.waitForTransaction: that one waits for a *new* block event, and with
    // automine no further block may ever come if the tx was mined between its check and subscribing.
    await this.waitMined(this.nonce, stallMs, last.label);
    const failed: SentTx[] = [];
    // In slices: parallel calls are coalesced into JSON-RPC batches, but 10^5 at once would hold every receipt in memory.
    for (let i = 0; i < this.sent.length; i += RECEIPT_SLICE) {
      const slice = this.sent.slice(i, i + RECEIPT_SLICE);
      const receipts = await Promise.all(slice.map((tx) => this.provider.getTransactionReceipt(tx.hash)));
      failed.push(...slice.filter((_, j) => receipts[j]?.status !== 1));
    }
    if (failed.length > 0) {
      throw new Error(`devnet deployment failed; first failing tx: "${failed[0].label}" (${failed[0].hash}); ${failed.length} failed in total`);
    }
    this.sent.length = 0;
  }

  /**
   * Runs `fn` (which sends) with anvil's automine off: the sender mines a block (`evm_mine`)
   * whenever the next tx's gas limit would not fit beside those sent since the last one within the
   * block's gas target (half its limit: fuller blocks raise the base fee 12.5% each, and 20,000
   * pools' worth of them priced the deployer's txs out), so every block holds as many txs as fit. Fed thousands of txs, anvil's automine slows to
   * a few blocks a second, and a tx that does not fit in the block being built is dropped from the
   * pool with every later tx of its sender; a block the sender fills itself has neither problem.
   */
  async withManualMining<T>(fn: () => Promise<T>): Promise<T> {
    const head = await this.provider.getBlock('latest');
    await this.provider.send('evm_setAutomine', [false]);
    this.block = { gasTarget: (head?.gasLimit ?? 30_000_000n) / 2n, gas: 0n, txs: 0, mined: 0 };
    try {
      const result = await fn();
      await this.mineBlock();
      await this.checkAllMined(this.sent.at(-1)?.label ?? 'last');
      return result;
    } finally {
      this.block = null;
      await this.provider.send('evm_setAutomine', [true]);
    }
  }

  private async mineBlock(): Promise<void> {
    if (!this.block || this.block.txs === 0) return;
    await this.provider.send('evm_mine', []);
    this.block.gas = 0n;
    this.block.txs = 0;
    // Every so often, not per block: one more round trip per block would slow the whole run.
    if (++this.block.mined % 64 === 0) await this.checkAllMined(this.sent.at(-1)?.label ?? '?');
  }

  private async checkAllMined(label: string): Promise<void> {
    const count = Number(BigInt((await this.provider.send('eth_getTransactionCount', [this.wallet.address, 'latest'])) as string));
    if (count < this.nonce) throw new Error(`devnet tx "${label}" not mined after its block; ${await this.stallReport(count)}`);
  }

  /** Until the sender's mined nonce reaches `target` (automine); `stallMs` without progress is an error. */
  private async waitMined(target: number, stallMs: number, label: string): Promise<void> {
    let mined = -1;
    let progressAt = Date.now();
    for (;;) {
      const count = Number(BigInt((await this.provider.send('eth_getTransactionCount', [this.wallet.address, 'latest'])) as string));
      if (count > mined) [mined, progressAt] = [count, Date.now()];
      if (count >= target) return;
      if (Date.now() - progressAt > stallMs) throw new Error(`devnet tx "${label}" not mined: no tx of ${this.wallet.address} mined for ${stallMs} ms; ${await this.stallReport(count)}`);
      await new Promise((resolve) => setTimeout(resolve, RECEIPT_POLL_MS));
    }
  }

  /** What the node says about the first unmined tx: why a deployment stopped is rarely its last tx's fault. */
  private async stallReport(nonce: number): Promise<string> {
    const stuck = this.sent.find((tx) => tx.nonce === nonce);
    const [pool, head] = await Promise.all([this.provider.send('txpool_status', []).catch(() => null), this.provider.getBlock('latest')]);
    const seen = stuck ? await this.provider.getTransaction(stuck.hash) : null;
    return `first unmined: nonce ${nonce} "${stuck?.label ?? '?'}" (${seen ? 'in the node' : 'unknown to the node'}); txpool ${JSON.stringify(pool)}; head ${head?.number} base fee ${head?.baseFeePerGas} gas limit ${head?.gasLimit}`;
  }
}

/** anvil_setBalance takes a hex quantity without leading zeros. */
export function hexQuantity(value: bigint): string {
  return toBeHex(value);
}
