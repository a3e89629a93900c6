import { AppError } from '../../../common/errors/app-error';
import { bumpFees, FeeSettings } from '../core/fees';

/** Nodes refuse a replacement that raises either fee by less than this. */
export const MIN_REPLACEMENT_BUMP_PERCENT = 10;
const UINT = /^(0|[1-9][0-9]{0,77})$/;

/**
 * The fees of a client's speed-up: `bumpPercent` over the last broadcast, or the explicit pair,
 * which must raise both fees by at least 10% (else the node would refuse the replacement).
 */
export function speedUpFees(last: FeeSettings, request: { bumpPercent?: number; maxFeePerGas?: string; maxPriorityFeePerGas?: string }, defaultPercent: number): FeeSettings {
  const explicit = request.maxFeePerGas !== undefined || request.maxPriorityFeePerGas !== undefined;
  if (!explicit) return bumpFees(last, request.bumpPercent ?? defaultPercent);
  if (request.bumpPercent !== undefined) throw new AppError('VALIDATION_001', 'give bumpPercent or maxFeePerGas with maxPriorityFeePerGas, not both');
  if (request.maxFeePerGas === undefined || request.maxPriorityFeePerGas === undefined) {
    throw new AppError('TRANSACTION_005', 'maxFeePerGas and maxPriorityFeePerGas must be given together');
  }
  if (!UINT.test(request.maxFeePerGas) || !UINT.test(request.maxPriorityFeePerGas)) throw new AppError('TRANSACTION_005', 'fees must be base-10 integer strings');
  const maxFee = BigInt(request.maxFeePerGas);
  const priority = BigInt(request.maxPriorityFeePerGas);
  if (priority > maxFee) throw new AppError('TRANSACTION_005', 'maxPriorityFeePerGas must not exceed maxFeePerGas');
  const fees: FeeSettings = last.type === 'legacy' ? { type: 'legacy', gasPrice: maxFee } : { type: 'eip1559', maxFeePerGas: maxFee, maxPriorityFeePerGas: priority };
  const floor = bumpFees(last, MIN_REPLACEMENT_BUMP_PERCENT);
  const below = fees.type === 'legacy' ? fees.gasPrice < (floor as typeof fees).gasPrice : fees.maxFeePerGas < (floor as typeof fees).maxFeePerGas || fees.maxPriorityFeePerGas < (floor as typeof fees).maxPriorityFeePerGas;
  if (below) throw new AppError('TRANSACTION_005', `a replacement must raise both fees by at least ${MIN_REPLACEMENT_BUMP_PERCENT}% over the last broadcast`);
  return fees;
}
