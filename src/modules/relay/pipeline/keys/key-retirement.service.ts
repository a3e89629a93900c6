import { Inject, Injectable, Logger, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import Redis from 'ioredis';
import { keccak256 } from 'ethers';
import { REDIS } from '../../../../redis/redis.module';
import { ChainRegistry } from '../../../chains';
import { SignerPool } from '../../core/signer-pool.service';
import { RelayerKeyStore } from '../../store/relayer-key.store';
import { RelayTransactionStore } from '../../store/relay-transaction.store';
import { SignerNonceStore } from '../../store/signer-nonce.store';
import { NonceManager } from './nonce-manager.service';
import { providerErrorDetail } from '../../../../common/evm/provider-error';

const TRANSFER_GAS = 21_000n;
/** Legacy price = 2 × eth_gasPrice: the sweep pays exactly gasLimit × gasPrice, so it can send all the rest. */
const PRICE_MULTIPLIER = 2n;
const PASS_EVERY_MS = 2_000;
/** One process sweeps a key at a time (two sweeps would race for the same balance). */
const LOCK_MS = 30_000;

type ChainOutcome = 'busy' | 'swept' | 'empty';

/**
 * The second half of `retire` (KeyRotation), in worker roles: for each draining key, on every
 * EVM chain, once nothing of it is in flight (no row signed or broadcast, the nonce counter at
 * the chain's mined nonce), its balance less the transfer's gas goes to the treasury in one
 * legacy transfer at the key's next nonce (claimed through NonceManager like any send). When
 * no chain holds more than a transfer's gas, the key is `retired`.
 */
@Injectable()
export class KeyRetirement implements OnApplicationBootstrap, OnApplicationShutdown {
  private readonly logger = new Logger(KeyRetirement.name);
  private timer?: NodeJS.Timeout;
  private running = false;

  constructor(
    private readonly signers: SignerPool,
    private readonly keys: RelayerKeyStore,
    private readonly txs: RelayTransactionStore,
    private readonly counters: SignerNonceStore,
    private readonly nonces: NonceManager,
    private readonly chains: ChainRegistry,
    @Inject(REDIS) private readonly redis: Redis,
  ) {}

  onApplicationBootstrap(): void {
    this.timer = setInterval(() => void this.pass(), PASS_EVERY_MS);
    this.timer.unref();
  }

  onApplicationShutdown(): void {
    clearInterval(this.timer);
  }

  async pass(): Promise<void> {
    if (this.running) return;
    this.running = true;
    try {
      const draining = (await this.keys.all()).filter((k) => k.state === 'draining');
      for (const key of draining) await this.drain(key.address).catch((err: Error) => this.logger.warn(`retiring ${key.address}: ${err.message.split('\n')[0]}`));
    } catch (err) {
      this.logger.warn(`retirement pass: ${(err as Error).message}`);
    } finally {
      this.running = false;
    }
  }

  private async drain(address: string): Promise<void> {
    const treasury = this.signers.treasury();
    const signer = this.signers.byAddress(address);
    if (!treasury || !signer) return;
    const lock = `key-retirement:${address}`;
    if ((await this.redis.set(lock, '1', 'PX', LOCK_MS, 'NX')) !== 'OK') return;
    try {
      const outcomes: ChainOutcome[] = [];
      for (const chain of this.chains.all().filter((c) => c.enabled && c.rpcUrl && !c.capabilities.exchangeAction)) {
        outcomes.push(await this.drainOn(chain.chainId, address, treasury.address));
      }
      if (outcomes.every((o) => o === 'empty') && (await this.keys.transition(address, ['draining'], 'retired'))) {
        this.logger.log(`relayer key ${address} retired: its balances are on the treasury ${treasury.address}`);
      }
    } finally {
      await this.redis.del(lock);
    }
  }

  private async drainOn(chainId: number, address: string, treasury: string): Promise<ChainOutcome> {
    const provider = this.chains.provider(chainId);
    if ((await this.txs.sentBy(chainId, address)) > 0) return 'busy';
    const mined = BigInt(await provider.getTransactionCount(address, 'latest'));
    const counter = await this.counters.next(chainId, address.toLowerCase());
    // A nonce signed and not yet mined (a send, a fill, an earlier sweep): wait for it.
    if (counter !== null && counter > mined) return 'busy';
    const balance = await provider.getBalance(address);
    const gasPrice = BigInt(await provider.send('eth_gasPrice', [])) * PRICE_MULTIPLIER;
    const value = balance - TRANSFER_GAS * gasPrice;
    if (value <= 0n) return 'empty';
    const signer = this.signers.byAddress(address)!;
    const { signed } = await this.nonces.claim(chainId, address, (nonce) =>
      signer.signTransaction({ type: 0, chainId, nonce: Number(nonce), to: treasury, value, gasLimit: TRANSFER_GAS, gasPrice }),
    );
    try {
      await provider.send('eth_sendRawTransaction', [signed]);
      this.logger.log(`sweep of retiring key ${address} on ${chainId}: ${value} wei to the treasury (${keccak256(signed)})`);
    } catch (err) {
      // Its nonce is then a gap the reconciler fills; the next pass sweeps again.
      this.logger.warn(`sweep of ${address} on ${chainId} refused: ${providerErrorDetail(err)}`);
    }
    return 'swept';
  }
}
