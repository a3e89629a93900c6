import { Injectable } from '@nestjs/common';
import { AppError } from '../../../common/errors/app-error';
import type { Caller } from '../../../common/http/authenticated-request';
import { TxQueryService } from '../../relay';
import { GaslessSwapEntity } from '../entities/gasless-swap.entity';
import { GaslessSwapStore } from '../store/gasless-swap.store';
import { progressOf } from './gasless-status';
import { GaslessSwapView, toSwapView } from './gasless-swap-view';
import { isUuid } from '../../../common/ids/uuid';

/**
 * GET /gasless/status: the relayed settlement is the source of truth; the swap row catches up
 * with it when the relay announces the outcome (GaslessOutcomeListener) and again on read, so
 * the stored status is never behind what a client was last told.
 */
@Injectable()
export class GaslessStatusService {
  constructor(
    private readonly swaps: GaslessSwapStore,
    private readonly relayTxs: TxQueryService,
  ) {}

  async status(caller: Caller, id: string): Promise<GaslessSwapView> {
    const swap = isUuid(id) ? await this.swaps.findOfUser(id, caller.account.id) : null;
    if (!swap) throw new AppError('RESOURCE_001', `no gasless swap ${id}`);
    return toSwapView(await this.catchUp(swap));
  }

  /** After the relay announced the outcome of a swap's settlement: the swap row follows it. */
  async followRelay(relayTxId: string): Promise<void> {
    const swap = await this.swaps.findByRelayTx(relayTxId);
    if (swap) await this.catchUp(swap);
  }

  private async catchUp(swap: GaslessSwapEntity): Promise<GaslessSwapEntity> {
    if (swap.status === 'executed' || swap.status === 'failed' || !swap.relayTxId) return swap;
    const tx = await this.relayTxs.find(swap.relayTxId);
    if (!tx) return swap;
    const progress = progressOf(tx);
    if (progress.status !== swap.status || progress.executionTxHash !== swap.executionTxHash) {
      await this.swaps.setProgress(swap.id, progress);
      Object.assign(swap, progress);
    }
    return swap;
  }
}
