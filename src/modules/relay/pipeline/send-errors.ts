/** A send that may succeed when tried again (the retry policy of the account applies). */
export class TransientSendError extends Error {}

/** A send that can never succeed; the transaction is failed once nothing of it can still land. */
export class PermanentSendError extends Error {}
