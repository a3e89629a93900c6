import { getAddress, isHexString, Signature } from 'ethers';
import { AppError } from '../../../common/errors/app-error';
import { normalizeAddress } from '../../../common/evm/address';
import { ChainDefinition } from '../../chains';
import { SubmitTxDto } from '../http/dto/submit-tx.dto';
import { StoredAuthorization, TransactionType } from '../store/relay-transaction.entity';

/** Chains whose flash-blocks (sub-block preconfirmations) the relay can use (interface.md). */
export const FLASH_BLOCKS_CHAINS = new Set([8453, 84532]);
const UINT = /^(0|[1-9]\d{0,77})$/;
const MAX_UINT256 = 2n ** 256n - 1n;

export type GasSettings =
  | { kind: 'auto' }
  | { kind: 'legacy'; gasPrice: bigint }
  | { kind: 'eip1559'; maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };

/** A submission checked against the chain, with every field in its domain type. */
export interface RelayRequest {
  chain: ChainDefinition;
  to: string;
  data: string;
  value: bigint;
  gasLimit: bigint | null;
  gas: GasSettings;
  maxUsd: number | null;
  label: string;
  transactionType: TransactionType;
  derivationPath: string | null;
  authorizationList: StoredAuthorization[] | null;
  validUntil: Date | null;
}

/** How far ahead a deadline may be: beyond it a client has surely made a unit mistake (ms for s). */
export const MAX_VALID_FOR_SEC = 30 * 24 * 60 * 60;

/** `validUntil` (Unix seconds) as a date: in the future and within MAX_VALID_FOR_SEC. */
export function parseValidUntil(validUntil: number | undefined, now = Date.now()): Date | null {
  if (validUntil === undefined) return null;
  const nowSec = Math.floor(now / 1000);
  if (validUntil <= nowSec) throw new AppError('VALIDATION_001', `validUntil ${validUntil} is not in the future (now ${nowSec})`);
  if (validUntil > nowSec + MAX_VALID_FOR_SEC) throw new AppError('VALIDATION_001', `validUntil must be at most ${MAX_VALID_FOR_SEC} seconds (30 days) ahead; it is Unix seconds`);
  return new Date(validUntil * 1000);
}

function uint(value: string | undefined, field: string, code: 'TRANSACTION_005' | 'VALIDATION_001'): bigint | null {
  if (value === undefined) return null;
  if (!UINT.test(value)) throw new AppError(code, `${field} must be a base-10 integer string`);
  const parsed = BigInt(value);
  if (parsed > MAX_UINT256) throw new AppError(code, `${field} must fit in uint256`);
  return parsed;
}

/** TRANSACTION_005 rules: one gas form only, both EIP-1559 fields together, priority ≤ max. */
export function parseGas(dto: Pick<SubmitTxDto, 'gasPrice' | 'maxFeePerGas' | 'maxPriorityFeePerGas' | 'gasLimit'>): { gas: GasSettings; gasLimit: bigint | null } {
  const gasPrice = uint(dto.gasPrice, 'gasPrice', 'TRANSACTION_005');
  const maxFee = uint(dto.maxFeePerGas, 'maxFeePerGas', 'TRANSACTION_005');
  const priority = uint(dto.maxPriorityFeePerGas, 'maxPriorityFeePerGas', 'TRANSACTION_005');
  const gasLimit = uint(dto.gasLimit, 'gasLimit', 'TRANSACTION_005');
  if (gasLimit !== null && (gasLimit < 21_000n || gasLimit > 30_000_000n)) {
    throw new AppError('TRANSACTION_005', 'gasLimit must be between 21000 and 30000000');
  }
  if (gasPrice !== null && (maxFee !== null || priority !== null)) {
    throw new AppError('TRANSACTION_005', 'gasPrice cannot be combined with maxFeePerGas/maxPriorityFeePerGas');
  }
  if ((maxFee === null) !== (priority === null)) {
    throw new AppError('TRANSACTION_005', 'maxFeePerGas and maxPriorityFeePerGas must be given together');
  }
  if (maxFee !== null && priority !== null) {
    if (priority > maxFee) throw new AppError('TRANSACTION_005', 'maxPriorityFeePerGas must not exceed maxFeePerGas');
    if (maxFee === 0n) throw new AppError('TRANSACTION_005', 'maxFeePerGas must be positive');
    return { gas: { kind: 'eip1559', maxFeePerGas: maxFee, maxPriorityFeePerGas: priority }, gasLimit };
  }
  if (gasPrice !== null) {
    if (gasPrice === 0n) throw new AppError('TRANSACTION_005', 'gasPrice must be positive');
    return { gas: { kind: 'legacy', gasPrice }, gasLimit };
  }
  return { gas: { kind: 'auto' }, gasLimit };
}

function parseAuthorizations(dto: SubmitTxDto, chain: ChainDefinition): StoredAuthorization[] | null {
  if (!dto.authorizationList || dto.authorizationList.length === 0) return null;
  if (!chain.capabilities.eip7702) throw new AppError('VALIDATION_001', `chain ${chain.chainId} does not support EIP-7702 authorizations`);
  return dto.authorizationList.map((a, i) => {
    const address = normalizeAddress(a.address);
    if (!address) throw new AppError('VALIDATION_002', `authorizationList[${i}].address is not an address`);
    // chainId 0 is valid on every chain: once relayed, anyone could replay it wherever the authority's nonce matches.
    if (a.chainId !== chain.chainId) throw new AppError('VALIDATION_001', `authorizationList[${i}].chainId must be ${chain.chainId} (the transaction's chain; 0, any chain, is refused)`);
    if (a.nonce < 0) throw new AppError('VALIDATION_001', `authorizationList[${i}].nonce must not be negative`);
    const yParity = Number(a.yParity);
    if (yParity !== 0 && yParity !== 1) throw new AppError('VALIDATION_001', `authorizationList[${i}].yParity must be 0 or 1`);
    if (!isHexString(a.r, 32) || !isHexString(a.s, 32)) throw new AppError('VALIDATION_001', `authorizationList[${i}].r and .s must be 32-byte hex`);
    try {
      Signature.from({ r: a.r, s: a.s, yParity: yParity as 0 | 1 });
    } catch {
      throw new AppError('VALIDATION_001', `authorizationList[${i}] is not a valid signature`);
    }
    return { chainId: String(a.chainId), address: getAddress(address), nonce: String(a.nonce), yParity, r: a.r, s: a.s };
  });
}

/** Checks an EVM submission against interface.md's rules and the chain; throws the catalog code. */
export function parseRelayRequest(dto: SubmitTxDto, chain: ChainDefinition): RelayRequest {
  const transactionType: TransactionType = dto.transactionType ?? (dto.isAuthenticatedTx ? 'authenticated' : 'flash');
  if (transactionType === 'flash-blocks' && !FLASH_BLOCKS_CHAINS.has(chain.chainId)) {
    throw new AppError('VALIDATION_003', `flash-blocks is only available on chains ${[...FLASH_BLOCKS_CHAINS].join(' and ')}`);
  }
  if (transactionType === 'funding-signed') throw new AppError('VALIDATION_001', 'funding-signed transactions go through POST /api/submit-signed-tx');
  const to = normalizeAddress(dto.to);
  if (dto.to === undefined) throw new AppError('VALIDATION_004', 'to is required');
  if (!to) throw new AppError('VALIDATION_002', 'to is not an address');
  if (!isHexString(dto.callData) || dto.callData.length % 2 !== 0) throw new AppError('VALIDATION_004', 'callData must be 0x-prefixed hex');
  const value = uint(dto.value ?? '0', 'value', 'VALIDATION_001') ?? 0n;
  const { gas, gasLimit } = parseGas(dto);
  let derivationPath: string | null = null;
  if (dto.isAuthenticatedTx) {
    if (!dto.derivationPath) throw new AppError('VALIDATION_001', 'derivationPath is required when isAuthenticatedTx is true');
    derivationPath = dto.derivationPath;
  }
  return {
    chain,
    to,
    data: dto.callData.toLowerCase(),
    value,
    gasLimit,
    gas,
    maxUsd: dto.maxUSD ?? null,
    label: dto.label ?? '',
    transactionType,
    derivationPath,
    authorizationList: parseAuthorizations(dto, chain),
    validUntil: parseValidUntil(dto.validUntil),
  };
}
