import { Injectable, Logger } from '@nestjs/common';
import { keccak256 } from 'ethers';
import { AppConfig } from '../../../config/app-config';
import { ChainRegistry } from '../../chains';
import { SignerPool } from '../../relay';
import type { RelaySigner } from '../../relay';
import { MetricsService } from '../../metrics';
import { RelayerTopUpStore, TopUpRow } from '../store/relayer-top-up.store';
import { Floors, topUpAmount } from './floors';
import { OperatorAlerts } from './operator-alerts.service';
import { providerErrorDetail } from '../../../common/evm/provider-error';
import { SenderLocks } from '../../../database/sender-lock';

const TRANSFER_GAS = 21_000n;
/** Legacy price = 2 × eth_gasPrice: a top-up must not wait behind the work it unblocks. */
const PRICE_MULTIPLIER = 2n;
/** An open top-up never signed (its worker died before signing) is given up after this long. */
const UNSIGNED_TIMEOUT_MS = 60_000;
/** An unmined top-up is broadcast again after this long (dropped by a node). */
const REBROADCAST_AFTER_MS = 30_000;

/**
 * Refills relayer keys from the treasury (RELAYER_TREASURY_KEY, RELAYER_TREASURY_PATH on the
 * relayer mnemonic, or the PKCS#11 token's `relayer-treasury`; SignerPool.treasury). A top-up is a `relayer_top_ups` row first: the partial unique index allows
 * one open row per (chain, key), so however many workers see the key low, one transfer is sent;
 * the row holds the signed bytes and is followed to its receipt.
 */
@Injectable()
export class TreasuryTopUps {
  private readonly logger = new Logger(TreasuryTopUps.name);
  private readonly treasury: RelaySigner | null;

  constructor(
    private readonly config: AppConfig,
    private readonly chains: ChainRegistry,
    private readonly store: RelayerTopUpStore,
    private readonly alerts: OperatorAlerts,
    private readonly metrics: MetricsService,
    private readonly senders: SenderLocks,
    signers: SignerPool,
  ) {
    this.treasury = signers.treasury();
  }

  get address(): string | null {
    return this.treasury?.address ?? null;
  }

  /** Sends one top-up to `address` unless one is open already. Returns the opened row, if any. */
  async topUp(chainId: number, region: string, address: string, balanceWei: bigint, floors: Floors): Promise<TopUpRow | null> {
    const amount = topUpAmount(balanceWei, floors);
    if (!this.treasury || amount <= 0n) return null;
    const row = await this.store.open(chainId, address, this.treasury.address, amount);
    if (!row) return null;
    const provider = this.chains.provider(chainId);
    try {
      const gasPrice = BigInt(await provider.send('eth_gasPrice', [])) * PRICE_MULTIPLIER;
      const available = await provider.getBalance(this.treasury.address);
      if (available < amount + TRANSFER_GAS * gasPrice) {
        await this.store.close(row.id, 'failed', `treasury holds ${available} wei`);
        this.metrics.relayerTopUps.inc({ chain: String(chainId), result: 'treasury_short' });
        await this.alerts.raise({ kind: 'relayer.treasury_short', chainId, address: this.treasury.address, balanceWei: available.toString(), amountWei: amount.toString(), detail: `cannot top up ${address}` });
        return null;
      }
      const treasury = this.treasury;
      // The deposit sweeper sends from the treasury too, and other workers top up other keys.
      const { nonce, hash, raw } = await this.senders.hold(chainId, treasury.address, async () => {
        const nonce = BigInt(await provider.getTransactionCount(treasury.address, 'pending'));
        const raw = await treasury.signTransaction({ type: 0, chainId, nonce: Number(nonce), to: address, value: amount, gasLimit: TRANSFER_GAS, gasPrice });
        const hash = keccak256(raw);
        await this.store.signed(row.id, nonce, hash, raw);
        await provider.send('eth_sendRawTransaction', [raw]);
        return { nonce, hash, raw };
      });
      this.metrics.relayerTopUps.inc({ chain: String(chainId), result: 'sent' });
      await this.alerts.raise({ kind: 'relayer.top_up_sent', chainId, address, region, balanceWei: balanceWei.toString(), floorWei: floors.floorWei.toString(), amountWei: amount.toString(), hash });
      return { ...row, nonce, hash, raw };
    } catch (err) {
      const message = providerErrorDetail(err);
      await this.store.close(row.id, 'failed', message);
      this.metrics.relayerTopUps.inc({ chain: String(chainId), result: 'failed' });
      await this.alerts.raise({ kind: 'relayer.top_up_failed', chainId, address, amountWei: amount.toString(), detail: message });
      return null;
    }
  }

  /** Follows the chain's open top-ups: mined (or reverted) rows are closed, dropped ones broadcast again. */
  async track(chainId: number): Promise<void> {
    const provider = this.chains.provider(chainId);
    for (const row of await this.store.openOn(chainId)) {
      const age = Date.now() - row.updatedAt.getTime();
      try {
        if (!row.hash || !row.raw) {
          if (age > UNSIGNED_TIMEOUT_MS) await this.store.close(row.id, 'failed', 'never signed');
          continue;
        }
        const receipt = await provider.getTransactionReceipt(row.hash);
        if (receipt) {
          const ok = receipt.status === 1;
          if (await this.store.close(row.id, ok ? 'mined' : 'failed', ok ? null : 'reverted')) {
            this.metrics.relayerTopUps.inc({ chain: String(chainId), result: ok ? 'mined' : 'failed' });
            await this.alerts.raise({ kind: ok ? 'relayer.top_up_mined' : 'relayer.top_up_failed', chainId, address: row.address, amountWei: row.amountWei.toString(), hash: row.hash });
          }
          continue;
        }
        if (age < REBROADCAST_AFTER_MS) continue;
        const mined = BigInt(await provider.getTransactionCount(row.treasury, 'latest'));
        // The treasury's nonce moved past the top-up without its receipt: another transaction took it.
        if (row.nonce !== null && mined > row.nonce) await this.store.close(row.id, 'failed', 'nonce used by another transaction');
        else await provider.send('eth_sendRawTransaction', [row.raw]).catch((err: Error) => this.logger.warn(`rebroadcast of top-up ${row.hash}: ${err.message.split('\n')[0]}`));
      } catch (err) {
        this.logger.warn(`tracking top-up ${row.id} on ${chainId}: ${(err as Error).message.split('\n')[0]}`);
      }
    }
  }

  async treasuryBalance(chainId: number): Promise<bigint | null> {
    return this.treasury ? this.chains.provider(chainId).getBalance(this.treasury.address) : null;
  }
}
