/**
 * The ONE table of node answers (docs/spec/extensions.md, "RPC providers"). An error a node or a
 * provider sends back is either
 *
 * - `transaction`: the node says something about THIS transaction (nonce too low, already known,
 *   underpriced, unfunded, invalid). Never a provider fault: the same bytes get the same answer
 *   from any honest node, so no provider is backed off for it (OZ Relayer #681 paused every
 *   provider on "nonce too low");
 * - `call`: a deterministic answer to the call itself (a revert, bad params): the caller's;
 * - `range`: an eth_getLogs range or result set the provider will not serve: retried smaller;
 * - `limited`: the provider is rate limiting (429, -32005, "too many requests"): backed off;
 * - `fault`: the provider failed (internal error, missing state, syncing, timed out): backed
 *   off and the read retried on another provider.
 *
 * Rows are checked in order; the first whose code (when given) and text match wins. Texts are
 * lower-case substrings of the clients' own messages; each row names where the string comes
 * from (src/common/evm/node-answer.spec.ts has one case per string).
 */
export type TxOutcome = 'known' | 'nonce-used' | 'replacement-underpriced' | 'under-base-fee' | 'busy' | 'unfunded' | 'rejected';

export type NodeAnswer = { kind: 'transaction'; outcome: TxOutcome } | { kind: 'call' } | { kind: 'range' } | { kind: 'limited' } | { kind: 'fault' };

type Row = { text?: string; code?: number; answer: NodeAnswer };

const tx = (outcome: TxOutcome): NodeAnswer => ({ kind: 'transaction', outcome });
const KNOWN = tx('known');
const NONCE_USED = tx('nonce-used');
const REPLACEMENT = tx('replacement-underpriced');
const UNDER_BASE_FEE = tx('under-base-fee');
const BUSY = tx('busy');
const UNFUNDED = tx('unfunded');
const REJECTED = tx('rejected');
const CALL: NodeAnswer = { kind: 'call' };
const RANGE: NodeAnswer = { kind: 'range' };
const LIMITED: NodeAnswer = { kind: 'limited' };
const FAULT: NodeAnswer = { kind: 'fault' };

const ROWS: Row[] = [
  // --- the node holds this very transaction
  { text: 'already known', answer: KNOWN }, // geth/op-geth core/txpool ErrAlreadyKnown, reth, erigon, nethermind
  { text: 'known transaction', answer: KNOWN }, // besu ETH_SEND_TX_ALREADY_KNOWN, hardhat "Known transaction: 0x…"
  { text: 'already imported', answer: KNOWN }, // anvil PoolError::AlreadyImported
  { text: 'existing txn with same hash', answer: KNOWN }, // erigon DuplicateHash
  { text: 'existing tx with same hash', answer: KNOWN }, // erigon (older) DuplicateHash
  { text: 'alreadyknown', answer: KNOWN }, // nethermind (older) AddTxResult.AlreadyKnown
  { text: 'already exists', answer: KNOWN }, // provider wording
  // --- the nonce is consumed (by which transaction is for the chain to say)
  { text: 'nonce too low', answer: NONCE_USED }, // geth core ErrNonceTooLow, reth, erigon, nethermind, besu "Nonce too low", anvil, hardhat
  { text: 'nonce has already been used', answer: NONCE_USED }, // ethers NONCE_EXPIRED short message
  { text: 'nonce_expired', answer: NONCE_USED }, // ethers code in a message
  { text: 'oldnonce', answer: NONCE_USED }, // nethermind AcceptTxResult.OldNonce (older releases)
  { text: 'invalid nonce; got', answer: NONCE_USED }, // provider wording
  { text: 'authority nonce too low', answer: NONCE_USED }, // geth core/txpool ErrAuthorityNonceTooLow
  // --- another transaction sits at this nonce in a pool
  { text: 'replacement transaction underpriced', answer: REPLACEMENT }, // geth ErrReplaceUnderpriced, reth, erigon, nethermind, besu, hardhat
  { text: 'insufficient gas price to replace existing transaction', answer: REPLACEMENT }, // anvil PoolError::ReplacementUnderpriced
  { text: 'could not replace existing tx', answer: REPLACEMENT }, // erigon NotReplaced
  { text: 'replacement fee too low', answer: REPLACEMENT }, // ethers REPLACEMENT_UNDERPRICED wording
  { text: 'future transaction tries to replace pending', answer: REPLACEMENT }, // geth ErrFutureReplacePending
  // --- priced under what the pool takes now: re-price at the same nonce
  { text: 'max fee per gas less than block base fee', answer: UNDER_BASE_FEE }, // geth core ErrFeeCapTooLow, reth FeeCapTooLow, anvil
  { text: 'fee cap less than block base fee', answer: UNDER_BASE_FEE }, // geth (pre-1.11) ErrFeeCapTooLow
  { text: 'is too low for the next block, which has a basefeepergas', answer: UNDER_BASE_FEE }, // hardhat (EDR) maxFeePerGas / gasPrice below next base fee
  { text: 'gas price below current base fee', answer: UNDER_BASE_FEE }, // besu GAS_PRICE_BELOW_CURRENT_BASE_FEE
  { text: 'gas price below configured minimum gas price', answer: UNDER_BASE_FEE }, // besu GAS_PRICE_TOO_LOW
  { text: 'transaction gas price below minimum', answer: UNDER_BASE_FEE }, // op-geth core/txpool ErrTxGasPriceTooLow
  { text: 'which is below the minimum of', answer: UNDER_BASE_FEE }, // hardhat (EDR) "Transaction gas price is X, which is below the minimum of Y"
  { text: 'transaction underpriced', answer: UNDER_BASE_FEE }, // geth ErrUnderpriced, nethermind FeeTooLow
  { text: 'fee too low', answer: UNDER_BASE_FEE }, // erigon FeeTooLow
  { text: 'feecaptoolow', answer: UNDER_BASE_FEE }, // revm InvalidTransaction name in some relayed errors
  { text: 'gas price too low', answer: UNDER_BASE_FEE }, // common provider wording
  { text: 'gas price below minimum', answer: UNDER_BASE_FEE }, // provider wording
  { text: 'maxfeepergas too low', answer: UNDER_BASE_FEE }, // provider wording
  // --- not taken now, the nonce is still ours: back-pressure
  { text: 'txpool is full', answer: BUSY }, // geth legacypool ErrTxPoolOverflow, reth TxPoolOverflow
  { text: 'sub-pool is full', answer: BUSY }, // erigon PendingPoolOverflow / BaseFeePoolOverflow / QueuedPoolOverflow
  { text: 'transaction pool is full', answer: BUSY }, // besu transaction pool full
  { text: 'tx pool is full', answer: BUSY }, // provider wording
  { text: 'account limit exceeded', answer: BUSY }, // geth ErrAccountLimitExceeded
  { text: 'in-flight transaction limit reached', answer: BUSY }, // op-geth ErrInflightTxLimitReached
  { text: 'nonce too high', answer: BUSY }, // geth core ErrNonceTooHigh, reth, nethermind NonceGap, besu, anvil, hardhat (no queueing on automine)
  { text: 'nonce too far in future', answer: BUSY }, // nethermind NonceTooFarInFuture
  { text: 'too distant from current sender nonce', answer: BUSY }, // besu NONCE_TOO_FAR_IN_FUTURE_FOR_SENDER
  { text: 'too many pending', answer: BUSY }, // provider pending-limit wording
  { text: 'exceeds the pending tx limit', answer: BUSY }, // provider pending-limit wording
  { text: 'spammer', answer: BUSY }, // erigon Spammer
  // --- the key cannot pay
  { text: 'insufficient funds', answer: UNFUNDED }, // geth core ErrInsufficientFunds, reth, erigon, nethermind, anvil "Insufficient funds for gas * price + value"
  { text: 'transaction would cause overdraft', answer: UNFUNDED }, // geth/op-geth legacypool ErrOverdraft
  { text: 'upfront cost exceeds account balance', answer: UNFUNDED }, // besu TRANSACTION_UPFRONT_COST_EXCEEDS_BALANCE
  { text: "sender doesn't have enough funds", answer: UNFUNDED }, // hardhat (EDR)
  // --- never acceptable as signed
  { text: 'intrinsic gas too low', answer: REJECTED }, // geth core ErrIntrinsicGas, reth GasTooLow, anvil
  { text: 'intrinsic gas exceeds gas limit', answer: REJECTED }, // besu INTRINSIC_GAS_EXCEEDS_LIMIT
  { text: 'intrinsicgas', answer: REJECTED }, // erigon IntrinsicGas
  { text: 'invalid sender', answer: REJECTED }, // geth ErrInvalidSender, erigon InvalidSender
  { text: 'failed to recover sender', answer: REJECTED }, // nethermind FailedToRecoverSender
  { text: 'exceeds block gas limit', answer: REJECTED }, // geth ErrGasLimit, besu EXCEEDS_BLOCK_GAS_LIMIT (-32005!), hardhat
  { text: 'gas limit reached', answer: REJECTED }, // geth core ErrGasLimitReached, nethermind GasLimitExceeded
  { text: 'max priority fee per gas higher than max fee per gas', answer: REJECTED }, // geth core ErrTipAboveFeeCap, reth, anvil
  { text: 'max priority fee per gas exceeds max fee per gas', answer: REJECTED }, // besu
  { text: 'transaction type not supported', answer: REJECTED }, // geth core ErrTxTypeNotSupported, reth
  { text: 'unsupported transaction type', answer: REJECTED }, // nethermind NotSupportedTxType
  { text: 'invalid chain id', answer: REJECTED }, // reth InvalidChainId, anvil "invalid chain id for signer"
  { text: 'wrong chainid', answer: REJECTED }, // besu WRONG_CHAIN_ID
  { text: 'oversized data', answer: REJECTED }, // geth ErrOversizedData, erigon
  { text: 'transaction too large', answer: REJECTED }, // nethermind MaxTxSizeExceeded
  { text: 'max initcode size exceeded', answer: REJECTED }, // geth core ErrMaxInitCodeSizeExceeded, reth, anvil
  { text: 'sender not an eoa', answer: REJECTED }, // geth core ErrSenderNoEOA, nethermind, anvil
  { text: 'sender is not an eoa', answer: REJECTED }, // reth SenderNoEOA
  { text: 'invalid transaction', answer: REJECTED }, // nethermind "transaction invalid" sibling; provider wording
  { text: 'transaction invalid', answer: REJECTED }, // nethermind TransactionInvalid
  // --- eth_getLogs ranges and result sets a provider will not serve
  { text: 'exceed maximum block range', answer: RANGE }, // geth eth/filters (--rpc.rangelimit)
  { text: 'query exceeds max block range', answer: RANGE }, // reth EthFilterError::QueryExceedsMaxBlocks
  { text: 'query exceeds max results', answer: RANGE }, // reth EthFilterError::QueryExceedsMaxResults
  { text: 'requested range exceeds maximum rpc range limit', answer: RANGE }, // besu EXCEEDS_RPC_MAX_BLOCK_RANGE (-32005)
  { text: 'query returned more than', answer: RANGE }, // infura/alchemy "query returned more than 10000 results"
  { text: 'block range is too', answer: RANGE }, // provider wording ("block range is too wide")
  { text: 'block range too', answer: RANGE }, // provider wording ("block range too large")
  { text: 'is limited to a', answer: RANGE }, // quicknode "eth_getLogs is limited to a 10,000 range"
  { text: 'range too large', answer: RANGE },
  { text: 'too many results', answer: RANGE },
  { text: 'too many logs', answer: RANGE },
  { text: 'response size', answer: RANGE }, // "response size exceeded"
  // --- reverts and call errors: the call's own answer
  { code: 3, answer: CALL }, // geth internal/ethapi revertError (code 3), reth, anvil
  { text: 'execution reverted', answer: CALL }, // geth vm ErrExecutionReverted, reth, erigon, nethermind, anvil
  { text: 'vm exception while processing transaction', answer: CALL }, // hardhat
  { text: 'transaction reverted', answer: CALL }, // hardhat "Transaction reverted without a reason string"
  { text: 'out of gas', answer: CALL }, // geth vm ErrOutOfGas, reth
  { text: 'gas required exceeds allowance', answer: CALL }, // geth ethapi estimate, reth
  // --- the provider is limiting us
  { text: 'too many requests', answer: LIMITED }, // HTTP 429 text of most providers
  { text: 'rate limit', answer: LIMITED },
  { text: 'request limit', answer: LIMITED },
  { text: 'exceeded its compute units', answer: LIMITED }, // alchemy
  { text: 'capacity exceeded', answer: LIMITED },
  { text: 'number of requests exceeds max batch size', answer: LIMITED }, // besu EXCEEDS_RPC_MAX_BATCH_SIZE
  { code: -32005, answer: LIMITED }, // EIP-1474 "limit exceeded"
  { code: 429, answer: LIMITED },
  // --- the provider failed: retry elsewhere
  { text: 'missing trie node', answer: FAULT }, // geth trie MissingNodeError (ithacaxyz/relay #1093)
  { text: 'header not found', answer: FAULT }, // geth ethapi, reth HeaderNotFound (a node behind the block asked for)
  { text: 'is not available', answer: FAULT }, // geth "historical state … is not available"
  { text: 'pruned history unavailable', answer: FAULT }, // reth PrunedHistoryUnavailable
  { text: 'world state unavailable', answer: FAULT }, // besu WORLD_STATE_UNAVAILABLE
  { text: 'initial sync is still in progress', answer: FAULT }, // besu CHAIN_HEAD_WORLD_STATE_NOT_AVAILABLE
  { text: 'transaction pool not enabled', answer: FAULT }, // besu TX_POOL_DISABLED
  { text: 'node is syncing', answer: FAULT }, // nethermind Syncing
  { text: 'timeout expired', answer: FAULT }, // besu TIMEOUT_ERROR
  { text: 'request timed out', answer: FAULT }, // geth rpc errcodeTimeout
  { text: 'internal blocking task error', answer: FAULT }, // reth InternalBlockingTaskError
  { text: 'upstream', answer: FAULT }, // load balancers: "upstream request failed", "no healthy upstream"
  { text: 'bad gateway', answer: FAULT },
  { text: 'service unavailable', answer: FAULT },
  { code: -32603, answer: FAULT }, // JSON-RPC internal error (besu INTERNAL_ERROR, reth internal_rpc_err)
  { code: -32601, answer: FAULT }, // method not found on this provider: another may serve it
  { code: -32002, answer: FAULT }, // besu TX_POOL_DISABLED / geth timeout code
];

/** What an error answer (code and message, as a node sends it) says. Unknown answers are the call's own. */
export function classifyNodeAnswer(code: number | null | undefined, message: string): NodeAnswer {
  const text = message.toLowerCase();
  for (const row of ROWS) {
    if (row.code !== undefined && row.code !== code) continue;
    if (row.text !== undefined && !text.includes(row.text)) continue;
    return row.answer;
  }
  return CALL;
}

/** Every matched string with what it means: the spec checks each row has a case. */
export const NODE_ANSWER_TEXTS: ReadonlyArray<{ text: string; answer: NodeAnswer }> = ROWS.filter((r) => r.text !== undefined).map((r) => ({ text: r.text as string, answer: r.answer }));
