import type { Request } from 'express';

const PENDING = Symbol('pending rate-limit decision');

type WithPending = Request & { [PENDING]?: Promise<void> };

/**
 * The guard's decision for a request whose handler runs alongside the check: resolves when the
 * request may be answered (allowed, or the limiter failed open), rejects with the 429.
 */
export function setPendingDecision(req: Request, decision: Promise<void>): void {
  // Observed at once: if the handler fails first, a later 429 must not surface as an unhandled rejection.
  decision.catch(() => undefined);
  (req as WithPending)[PENDING] = decision;
}

export function pendingDecision(req: Request): Promise<void> | undefined {
  return (req as WithPending)[PENDING];
}
