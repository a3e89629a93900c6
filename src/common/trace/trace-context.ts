import { AsyncLocalStorage } from 'node:async_hooks';
import { randomUUID } from 'node:crypto';

interface TraceStore {
  traceId: string;
}

const storage = new AsyncLocalStorage<TraceStore>();

/** Trace id of the request (or job) being handled, if any. */
export function currentTraceId(): string | undefined {
  return storage.getStore()?.traceId;
}

export function runWithTrace<T>(traceId: string, fn: () => T): T {
  return storage.run({ traceId }, fn);
}

/** The trace id of a relayed transaction's pipeline work (its send job, its settlement's log lines). */
export function txTraceId(txId: string): string {
  return `tx-${txId}`;
}

export function newTraceId(): string {
  return randomUUID();
}

/** Accept a caller's trace id only when it is a harmless token, so logs cannot be forged. */
export function sanitizeTraceId(candidate: unknown): string | undefined {
  return typeof candidate === 'string' && /^[A-Za-z0-9._-]{8,64}$/.test(candidate) ? candidate : undefined;
}
