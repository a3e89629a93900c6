/** A send that may succeed when tried again (the retry policy of the account applies). */
export class TransientSendError extends Error {}

/** The node refused for now (pool full, too many pending from the key): send again later; not a failure, no retry counted. */
export class BackPressureSendError extends Error {}

/** A send that can never succeed; the transaction is failed once nothing of it can still land. */
export class PermanentSendError extends Error {}
