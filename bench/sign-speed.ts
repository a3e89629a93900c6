import { Transaction, Wallet } from 'ethers';
import type { RelaySigner } from '../src/modules/relay/core/signers/relay-signer';

/** Signing latency of one backend over `n` EIP-1559 transactions (fresh nonce each), after a warm-up. */
export interface SignFigures {
  backend: string;
  medianUs: number;
  p99Us: number;
  meanUs: number;
  perSecond: number;
}

export async function measureSigning(backend: string, signer: RelaySigner, n: number): Promise<SignFigures> {
  const request = (nonce: number) => ({ type: 2, chainId: 31337, nonce, to: '0x000000000000000000000000000000000000dEaD', value: 1n, gasLimit: 21_000n, maxFeePerGas: 2_000_000_000n, maxPriorityFeePerGas: 1_000_000_000n, data: '0x' });
  for (let i = 0; i < 200; i++) await signer.signTransaction(request(i));
  const times: number[] = [];
  const started = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    const t0 = process.hrtime.bigint();
    const raw = await signer.signTransaction(request(i));
    times.push(Number(process.hrtime.bigint() - t0) / 1000);
    if (i === 0 && Transaction.from(raw).from !== signer.address) throw new Error(`${backend}: the signature does not recover to the key`);
  }
  const total = Number(process.hrtime.bigint() - started) / 1000;
  times.sort((a, b) => a - b);
  return { backend, medianUs: times[Math.floor(n / 2)], p99Us: times[Math.floor(n * 0.99)], meanUs: total / n, perSecond: Math.round((n * 1e6) / total) };
}

/**
 * The machine's speed as one figure: the median µs of a local signature (the relay's own signer,
 * libsecp256k1 when its binding loads), taken before anything else runs. Machines here differ
 * by several times in speed, so absolute figures of different runs compare only through it.
 */
export async function localSigningMedianUs(n = 1000): Promise<number> {
  const { LocalKeySigner } = await import('../src/modules/relay/core/local-key-signer');
  const wallet = Wallet.createRandom();
  const figures = await measureSigning('local', new LocalKeySigner(wallet.privateKey, wallet.address), n);
  return Number(figures.medianUs.toFixed(1));
}
