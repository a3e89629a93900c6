import { AppError } from '../errors/app-error';

const MAX_UINT256 = 2n ** 256n - 1n;

/**
 * A token amount from a request: a base-10 integer string already checked by the DTO, here also
 * required to be positive and to fit a uint256, so it can always be encoded into a transaction.
 */
export function positiveUint256(text: string, field: string): bigint {
  const value = BigInt(text);
  if (value === 0n) throw new AppError('VALIDATION_001', `${field} must be greater than zero`);
  if (value > MAX_UINT256) throw new AppError('VALIDATION_001', `${field} does not fit a uint256`);
  return value;
}
