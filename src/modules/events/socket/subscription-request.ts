import { AppError } from '../../../common/errors/app-error';

export type SubscriptionRequest = { txId: string } | { all: true };

/** `{txId}` or `{all: true}`, nothing else: a payload that could mean both is refused, not guessed. */
export function parseSubscription(body: unknown): SubscriptionRequest {
  if (typeof body !== 'object' || body === null) throw invalid();
  const { txId, all } = body as { txId?: unknown; all?: unknown };
  if (all === true && txId === undefined) return { all: true };
  if (typeof txId === 'string' && txId.trim() !== '' && all === undefined) return { txId: txId.trim() };
  throw invalid();
}

function invalid(): AppError {
  return new AppError('VALIDATION_001', 'subscribe expects {txId} or {all: true}');
}
