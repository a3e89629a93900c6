import { Injectable, Logger } from '@nestjs/common';
import { HDNodeWallet, Interface, JsonRpcProvider, keccak256, Wallet } from 'ethers';
import { providerErrorDetail } from '../../../common/evm/provider-error';
import { AppConfig } from '../../../config/app-config';
import { SenderLocks } from '../../../database/sender-lock';
import { ChainDefinition, ChainRegistry } from '../../chains';
import { DepositStore } from '../store/deposit.store';
import { DepositAddresses } from './deposit-addresses.service';
import { treasuryWallet } from './treasury-wallet';

const ERC20 = new Interface(['function transfer(address to, uint256 amount) returns (bool)', 'function balanceOf(address) view returns (uint256)']);
const NATIVE_TRANSFER_GAS = 21_000n;
/** Legacy price = 2 × eth_gasPrice, like the treasury's top-ups: a sweep must not sit in the pool. */
const PRICE_MULTIPLIER = 2n;
/** A sweep holds its rows this long; a worker that dies mid-sweep frees them when it runs out. */
const SWEEP_LEASE_MS = 120_000;
const RECEIPT_TIMEOUT_MS = 60_000;
const RECEIPT_POLL_MS = 250;

export interface SweepResult {
  address: string;
  hashes: string[];
}

/**
 * Moves deposited funds to the treasury with the service's gas (extensions.md: "Deposits are
 * swept to the treasury by the service"). Per deposit address holding credited, unswept
 * deposits: each USD stablecoin's whole balance is transferred to the treasury by the deposit
 * key, after the treasury sent the deposit address exactly the gas that transfer needs; then
 * the native balance less its own transfer's gas. Balance-based, so a sweep repeated after a
 * crash moves only what is still there. The only destination the deposit keys ever sign for is
 * the treasury (docs/security.md, "Deposit addresses").
 */
@Injectable()
export class DepositSweeper {
  private readonly logger = new Logger(DepositSweeper.name);
  private readonly treasury: Wallet | HDNodeWallet | null;

  constructor(
    config: AppConfig,
    private readonly registry: ChainRegistry,
    private readonly addresses: DepositAddresses,
    private readonly deposits: DepositStore,
    private readonly senders: SenderLocks,
  ) {
    this.treasury = treasuryWallet(config);
  }

  async sweepAll(chains: ChainDefinition[]): Promise<void> {
    for (const chain of chains) {
      await this.sweepChain(chain).catch((err) => this.logger.warn(`deposit sweep of chain ${chain.chainId}: ${providerErrorDetail(err)}`));
    }
  }

  async sweepChain(chain: ChainDefinition): Promise<SweepResult[]> {
    if (!this.treasury) return [];
    const out: SweepResult[] = [];
    for (const { userId, address } of await this.deposits.unsweptAddresses(chain.chainId)) {
      const ids = await this.deposits.leaseSweep(chain.chainId, address, SWEEP_LEASE_MS);
      if (ids.length === 0) continue;
      try {
        const hashes = await this.sweep(chain, userId, address);
        await this.deposits.markSwept(ids, hashes[hashes.length - 1] ?? null);
        out.push({ address, hashes });
      } catch (err) {
        await this.deposits.releaseSweep(ids);
        this.logger.warn(`sweeping ${address} on ${chain.chainId}: ${providerErrorDetail(err)}`);
      }
    }
    return out;
  }

  private async sweep(chain: ChainDefinition, userId: string, address: string): Promise<string[]> {
    const treasury = this.treasury as Wallet | HDNodeWallet;
    const provider = this.registry.provider(chain.chainId);
    const key = this.addresses.keys.wallet(userId);
    if (key.address.toLowerCase() !== address) throw new Error(`deposit key of ${userId} does not derive ${address}`);
    const gasPrice = BigInt(await provider.send('eth_gasPrice', [])) * PRICE_MULTIPLIER;
    const hashes: string[] = [];
    for (const token of (chain.tokens ?? []).filter((t) => t.usdStable)) {
      const balance = BigInt(await provider.call({ to: token.address, data: ERC20.encodeFunctionData('balanceOf', [address]) }));
      if (balance === 0n) continue;
      const data = ERC20.encodeFunctionData('transfer', [treasury.address, balance]);
      const gasLimit = ((await provider.estimateGas({ from: address, to: token.address, data })) * 12n) / 10n;
      const native = await provider.getBalance(address);
      const needed = gasLimit * gasPrice;
      // The service's gas: the treasury sends what the transfer needs, nothing more.
      if (native < needed) hashes.push(await this.send(provider, treasury, chain.chainId, { to: address, value: needed - native, gasLimit: NATIVE_TRANSFER_GAS, gasPrice }));
      hashes.push(await this.send(provider, key, chain.chainId, { to: token.address, data, value: 0n, gasLimit, gasPrice }));
    }
    const native = await provider.getBalance(address);
    const fee = NATIVE_TRANSFER_GAS * gasPrice;
    if (native > fee) hashes.push(await this.send(provider, key, chain.chainId, { to: treasury.address, value: native - fee, gasLimit: NATIVE_TRANSFER_GAS, gasPrice }));
    return hashes;
  }

  /** Signs, sends and waits for a successful receipt. */
  private async send(
    provider: JsonRpcProvider,
    signer: Wallet | HDNodeWallet,
    chainId: number,
    tx: { to: string; value: bigint; gasLimit: bigint; gasPrice: bigint; data?: string },
  ): Promise<string> {
    // The treasury's relayer top-ups read its pending nonce too (SenderLocks).
    const hash = await this.senders.hold(chainId, signer.address, async () => {
      const nonce = await provider.getTransactionCount(signer.address, 'pending');
      const raw = await signer.signTransaction({ type: 0, chainId, nonce, ...tx });
      await provider.send('eth_sendRawTransaction', [raw]);
      return keccak256(raw);
    });
    const until = Date.now() + RECEIPT_TIMEOUT_MS;
    for (;;) {
      const receipt = (await provider.send('eth_getTransactionReceipt', [hash])) as { status: string } | null;
      if (receipt) {
        if (BigInt(receipt.status) !== 1n) throw new Error(`sweep transaction ${hash} reverted`);
        return hash;
      }
      if (Date.now() > until) throw new Error(`sweep transaction ${hash} not mined in ${RECEIPT_TIMEOUT_MS} ms`);
      await new Promise((r) => setTimeout(r, RECEIPT_POLL_MS));
    }
  }
}
