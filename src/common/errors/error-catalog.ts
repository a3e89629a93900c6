/**
 * The error catalog of interface.md plus the codes this service adds where the contract is
 * silent (AUTH_006 from decisions.md; TRANSACTION_007 also for a tripped circuit breaker, another
 * refusal by the account's own policy; RELAYER_001 when no relayer key of the pool is funded). The HTTP status lives here, next to the code, so no
 * caller can pair a code with the wrong status.
 */
export const ERROR_CATALOG = {
  AUTH_001: { status: 401, message: 'unauthorized access' },
  AUTH_002: { status: 401, message: 'invalid API key' },
  AUTH_003: { status: 403, message: 'request origin (IP or Origin) not allowed for this account' },
  AUTH_004: { status: 401, message: 'invalid JWT' },
  AUTH_005: { status: 401, message: 'expired JWT' },
  AUTH_006: { status: 401, message: 'login message expired or already used' },
  AUTH_007: { status: 403, message: 'this action needs an API key; a wallet-login session cannot do it' },
  AUTH_008: { status: 400, message: 'invalid wallet signature' },
  USER_001: { status: 404, message: 'no account for the address' },
  USER_002: { status: 403, message: 'account disabled' },
  USER_003: { status: 400, message: 'invalid user address' },
  VALIDATION_001: { status: 400, message: 'invalid input' },
  VALIDATION_002: { status: 400, message: 'invalid address format' },
  VALIDATION_003: { status: 400, message: 'invalid or unsupported chain id' },
  VALIDATION_004: { status: 400, message: 'schema validation failed' },
  TRANSACTION_001: { status: 400, message: 'cost limit exceeded' },
  TRANSACTION_002: { status: 400, message: 'insufficient balance' },
  TRANSACTION_003: { status: 404, message: 'transaction not found' },
  TRANSACTION_004: { status: 500, message: 'execution reverted during simulation' },
  TRANSACTION_005: { status: 400, message: 'invalid gas parameters' },
  TRANSACTION_006: { status: 400, message: 'daily limit exceeded' },
  TRANSACTION_007: { status: 403, message: "target or method not allowed by the account's policy" },
  TRANSACTION_008: { status: 403, message: "sponsorship not approved by the account's approval webhook" },
  TRANSACTION_009: { status: 409, message: 'transaction is not in a state that allows this action' },
  TRANSACTION_010: { status: 403, message: 'no sponsorship policy of the account allows this submission' },
  CHAIN_001: { status: 400, message: 'unsupported chain' },
  CHAIN_003: { status: 500, message: 'blockchain RPC error' },
  CHAIN_004: { status: 503, message: "no fresh price for the chain's native currency" },
  RELAYER_001: { status: 503, message: 'no funded relayer key: the relay cannot send on this chain now' },
  RESOURCE_001: { status: 404, message: 'requested resource not found' },
  RESOURCE_003: { status: 429, message: 'resource limit exceeded' },
  RESOURCE_004: { status: 409, message: 'idempotency key reused with a different request' },
  SYSTEM_001: { status: 500, message: 'database operation failed' },
  SYSTEM_002: { status: 500, message: 'internal server error' },
} as const satisfies Record<string, { status: number; message: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

/** `category` of an error body is the code's prefix (USER, AUTH, ...). */
export function categoryOf(code: ErrorCode): string {
  return code.slice(0, code.indexOf('_'));
}
