import { Injectable } from '@nestjs/common';
import { getAddress, TransactionReceipt } from 'ethers';
import { ChainRegistry } from '../../chains';
import type { SwapStatus, SwapStatusView } from '../../swap';
import { BridgeDepositRow, BridgeDepositStore, BridgeState } from '../store/bridge-deposit.store';
import { BRIDGE_PROVIDER } from './bridge-quotes.service';
import { DEPOSITED_TOPIC, SPOKE_ABI } from './spoke';

/** interface.md's tracking states of a bridge deposit's row (extensions.md, "Cross-chain swaps"). */
const STATUS_OF: Record<BridgeState, SwapStatus> = {
  seen: 'pending',
  orphaned: 'pending',
  confirmed: 'src_confirmed',
  filling: 'src_confirmed',
  filled: 'completed',
  repaying: 'completed',
  repaid: 'completed',
  // The refund is on its way: the fill will not happen, but the deposit is not back yet.
  refunding: 'src_confirmed',
  refunded: 'failed',
};

/** GET /status for a source transaction holding a bridge deposit. */
@Injectable()
export class BridgeStatus {
  constructor(
    private readonly registry: ChainRegistry,
    private readonly deposits: BridgeDepositStore,
  ) {}

  async status(txHash: string, chainId: number, userAddress?: string): Promise<SwapStatusView | null> {
    if (!/^0x[0-9a-fA-F]{64}$/.test(txHash)) return null;
    const row = await this.deposits.bySourceTx(chainId, txHash);
    return row ? this.view(row, userAddress) : null;
  }

  view(row: BridgeDepositRow, userAddress?: string): SwapStatusView {
    const status = STATUS_OF[row.state];
    const logo = (id: number): string | null => this.registry.all().find((c) => c.chainId === id)?.iconUrl || null;
    const done = status === 'completed';
    return {
      status,
      kind: 'bridge',
      provider: { ...BRIDGE_PROVIDER },
      srcTxDetails: { txHash: row.srcTxHash, chainId: row.srcChainId, chainLogo: logo(row.srcChainId), timestamp: row.createdAt.toISOString() },
      destTxDetails: { txHash: done ? row.fillTxHash : null, chainId: row.destChainId, chainLogo: logo(row.destChainId), timestamp: done && row.filledAt ? row.filledAt.toISOString() : null },
      routeKind: 'crossChainSwap',
      updatedAtMs: row.updatedAt.getTime(),
      userAddress: userAddress ?? getAddress(row.depositor),
      details: {
        depositId: row.depositId,
        inputToken: getAddress(row.inputToken),
        inputAmount: row.inputAmount,
        outputToken: getAddress(row.outputToken),
        minAmountOut: row.outputAmount,
        recipient: getAddress(row.recipient),
        fillDeadline: String(row.fillDeadline),
        ...(row.fillAmount !== null && done ? { fillAmount: row.fillAmount } : {}),
        ...(row.refundTxHash ? { refundTxHash: row.refundTxHash } : {}),
        ...(row.repayTxHash ? { repayTxHash: row.repayTxHash } : {}),
      },
    };
  }

  /** A mined deposit the filler has not recorded yet: pending, with its destination. */
  fromReceipt(chainId: number, receipt: TransactionReceipt, userAddress?: string): SwapStatusView | null {
    const spoke = this.registry.all().find((c) => c.chainId === chainId)?.contracts?.bridgeSpoke?.toLowerCase();
    if (!spoke) return null;
    const log = receipt.logs.find((l) => l.address.toLowerCase() === spoke && l.topics[0] === DEPOSITED_TOPIC);
    if (!log) return null;
    const parsed = SPOKE_ABI.parseLog({ topics: [...log.topics], data: log.data });
    const destChainId = Number(parsed?.args.destinationChainId ?? 0);
    return {
      status: 'pending',
      kind: 'bridge',
      provider: { ...BRIDGE_PROVIDER },
      srcTxDetails: { txHash: receipt.hash, chainId, chainLogo: null, timestamp: null },
      destTxDetails: { txHash: null, chainId: destChainId, chainLogo: null, timestamp: null },
      routeKind: 'crossChainSwap',
      updatedAtMs: Date.now(),
      userAddress: userAddress ?? getAddress(receipt.from),
    };
  }
}
