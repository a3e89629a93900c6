import { AsyncLocalStorage } from 'node:async_hooks';
import type { StoredAnswer } from './idempotency.service';

/**
 * What the request running under an Idempotency-Key has committed so far: undefined while
 * nothing; then the answer a retry gets should the request fail from there on (null: the record
 * exists but the route has no answer to replay from it). Set by the service that committed.
 */
export interface IdempotencyScope {
  committed: StoredAnswer | null | undefined;
}

const storage = new AsyncLocalStorage<IdempotencyScope>();

/** Runs a route's handler with a fresh scope (the interceptor); the scope tells it what was committed. */
export function withIdempotencyScope<T>(scope: IdempotencyScope, fn: () => Promise<T>): Promise<T> {
  return storage.run(scope, fn);
}

/**
 * The record this request creates is committed: from now on its Idempotency-Key is never
 * given up, whatever fails after (a queue or Redis error, a lost wait), so a retry cannot create
 * a second one. `answer` is what a retry gets if this request fails from here on (a later call
 * replaces it); null when there is none (a retry is then 409 RESOURCE_004 until the key expires).
 * Outside a request with an Idempotency-Key, nothing.
 */
export function keepIdempotencyClaim(answer: StoredAnswer | null): void {
  const scope = storage.getStore();
  if (scope) scope.committed = answer;
}
