import { AbiCoder, dataSlice, isHexString } from 'ethers';

const ERROR_SELECTOR = '0x08c379a0'; // Error(string)
const PANIC_SELECTOR = '0x4e487b71'; // Panic(uint256)

const PANIC_REASONS: Record<number, string> = {
  0x01: 'assertion failed',
  0x11: 'arithmetic overflow or underflow',
  0x12: 'division or modulo by zero',
  0x21: 'invalid enum value',
  0x22: 'invalid storage byte array',
  0x31: 'pop on empty array',
  0x32: 'array index out of bounds',
  0x41: 'out of memory',
  0x51: 'call to an uninitialized function',
};

/** Human-readable revert reason from revert data: Error(string), Panic(uint256) or a custom error selector. */
export function decodeRevertData(data: string | null | undefined): string {
  if (!data || data === '0x' || !isHexString(data)) return 'execution reverted (no reason)';
  const selector = data.slice(0, 10).toLowerCase();
  try {
    if (selector === ERROR_SELECTOR) {
      const [reason] = AbiCoder.defaultAbiCoder().decode(['string'], dataSlice(data, 4));
      return `execution reverted: ${reason as string}`;
    }
    if (selector === PANIC_SELECTOR) {
      const [code] = AbiCoder.defaultAbiCoder().decode(['uint256'], dataSlice(data, 4));
      const n = Number(code as bigint);
      return `execution reverted: panic 0x${n.toString(16).padStart(2, '0')} (${PANIC_REASONS[n] ?? 'unknown panic'})`;
    }
  } catch {
    // Malformed payload behind a known selector: fall through to the raw form.
  }
  if (data.length >= 10) return `execution reverted: custom error ${selector}${data.length > 10 ? ` (data ${data})` : ''}`;
  return `execution reverted (data ${data})`;
}

/** Revert data inside an ethers or JSON-RPC error, wherever the provider put it. */
export function revertDataOf(err: unknown): string | null {
  const seen = new Set<unknown>();
  const walk = (value: unknown): string | null => {
    if (!value || typeof value !== 'object' || seen.has(value)) return null;
    seen.add(value);
    const record = value as Record<string, unknown>;
    if (typeof record.data === 'string' && isHexString(record.data)) return record.data;
    for (const key of ['error', 'info', 'data', 'cause']) {
      const found = walk(record[key]);
      if (found) return found;
    }
    return null;
  };
  return walk(err);
}

/** True when an RPC error says the call reverted (as opposed to a transport failure). */
export function isRevertError(err: unknown): boolean {
  const e = err as { code?: string; message?: string; shortMessage?: string };
  if (e?.code === 'CALL_EXCEPTION') return true;
  const text = `${e?.shortMessage ?? ''} ${e?.message ?? ''}`.toLowerCase();
  return text.includes('revert') || revertDataOf(err) !== null;
}
