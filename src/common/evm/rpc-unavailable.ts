/**
 * No provider of a chain answered a call (all failed, backed off or, for a read that decides a
 * transaction's fate, too far behind). `reason` is a short code for answers and /health
 * (`timeout`, `http 429`, `connection refused`, `no healthy provider`...); the message names
 * providers only in their redacted form.
 */
export class RpcUnavailableError extends Error {
  /** An ethers-like code, so callers that tell provider errors from others see one. */
  readonly code = 'RPC_UNAVAILABLE';

  constructor(
    readonly reason: string,
    message: string,
  ) {
    super(message);
    this.name = 'RpcUnavailableError';
  }
}
