/** A send that may succeed when tried again (the retry policy of the account applies). */
export class TransientSendError extends Error {}

/** A send that can never succeed; the transaction is failed once nothing of it can still land. */
export class PermanentSendError extends Error {}

/**
 * Not a failure: no key had room (every one at RELAY_MAX_IN_FLIGHT_PER_KEY), the node's pool
 * refused as full, or a re-price waits for fee data to catch up. The send is queued again after
 * `delayMs` without counting a retry.
 */
export class BackPressureError extends Error {
  constructor(
    message: string,
    readonly delayMs: number,
  ) {
    super(message);
  }
}
