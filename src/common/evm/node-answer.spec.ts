import { classifyNodeAnswer, NODE_ANSWER_TEXTS, NodeAnswer } from './node-answer';

type Expect = NodeAnswer['kind'] | `transaction:${string}`;

const kindOf = (a: NodeAnswer): Expect => (a.kind === 'transaction' ? `transaction:${a.outcome}` : a.kind);

/**
 * One case per string, as each client sends it, with where it comes from. "the node says
 * something about this transaction" (transaction:*) never backs a provider off; limited and
 * fault do; call and range are answers to the call.
 */
const CASES: Array<[source: string, code: number | null, message: string, expected: Expect]> = [
  // geth (ethereum/go-ethereum core/txpool/errors.go, core/error.go, core/txpool/legacypool, eth/filters, trie, rpc)
  ['geth core/txpool ErrAlreadyKnown', -32000, 'already known', 'transaction:known'],
  ['geth core/txpool ErrInvalidSender', -32000, 'invalid sender', 'transaction:rejected'],
  ['geth core/txpool ErrUnderpriced', -32000, 'transaction underpriced', 'transaction:under-base-fee'],
  ['geth core/txpool ErrReplaceUnderpriced', -32000, 'replacement transaction underpriced', 'transaction:replacement-underpriced'],
  ['geth core/txpool ErrAccountLimitExceeded', -32000, 'account limit exceeded', 'transaction:busy'],
  ['geth core/txpool ErrGasLimit', -32000, 'exceeds block gas limit', 'transaction:rejected'],
  ['geth core/txpool ErrOversizedData', -32000, 'oversized data', 'transaction:rejected'],
  ['geth core/txpool ErrFutureReplacePending', -32000, 'future transaction tries to replace pending', 'transaction:replacement-underpriced'],
  ['geth core/txpool ErrAuthorityNonceTooLow', -32000, 'authority nonce too low', 'transaction:nonce-used'],
  ['geth core/txpool/legacypool ErrTxPoolOverflow', -32000, 'txpool is full', 'transaction:busy'],
  ['geth core/txpool/legacypool ErrOverdraft', -32000, 'transaction would cause overdraft', 'transaction:unfunded'],
  ['geth core ErrNonceTooLow', -32000, 'nonce too low: address 0x70997970C51812dc3A010C7d01b50e0d17dc79C8, tx: 4 state: 5', 'transaction:nonce-used'],
  ['geth core ErrNonceTooHigh', -32000, 'nonce too high: address 0x70997970C51812dc3A010C7d01b50e0d17dc79C8, tx: 9 state: 5', 'transaction:busy'],
  ['geth core ErrInsufficientFunds', -32000, 'insufficient funds for gas * price + value: address 0x7099 have 1 want 2', 'transaction:unfunded'],
  ['geth core ErrIntrinsicGas', -32000, 'intrinsic gas too low: gas 20000, minimum needed 21000', 'transaction:rejected'],
  ['geth core ErrFeeCapTooLow', -32000, 'max fee per gas less than block base fee: address 0x7099, maxFeePerGas: 1, baseFee: 7', 'transaction:under-base-fee'],
  ['geth (pre-1.11) ErrFeeCapTooLow', -32000, 'fee cap less than block base fee', 'transaction:under-base-fee'],
  ['geth core ErrTipAboveFeeCap', -32000, 'max priority fee per gas higher than max fee per gas', 'transaction:rejected'],
  ['geth core ErrTxTypeNotSupported', -32000, 'transaction type not supported', 'transaction:rejected'],
  ['geth core ErrGasLimitReached', -32000, 'gas limit reached', 'transaction:rejected'],
  ['geth core ErrMaxInitCodeSizeExceeded', -32000, 'max initcode size exceeded', 'transaction:rejected'],
  ['geth core ErrSenderNoEOA', -32000, 'sender not an eoa: address 0x7099', 'transaction:rejected'],
  ['geth internal/ethapi revertError', 3, 'execution reverted: Ownable: caller is not the owner', 'call'],
  ['geth core/vm ErrOutOfGas', -32000, 'out of gas', 'call'],
  ['geth internal/ethapi estimate', -32000, 'gas required exceeds allowance (30000000)', 'call'],
  ['geth eth/filters --rpc.rangelimit', -32000, 'exceed maximum block range: 10000', 'range'],
  ['geth trie MissingNodeError', -32000, 'missing trie node 5b9e8d2c (path ) <nil>', 'fault'],
  ['geth internal/ethapi header not found', -32000, 'header not found', 'fault'],
  ['geth core/state historical state', -32000, 'historical state 0xabc is not available', 'fault'],
  ['geth rpc errcodeTimeout', -32002, 'request timed out', 'fault'],
  // op-geth (ethereum-optimism/op-geth core/txpool/errors.go)
  ['op-geth core/txpool ErrTxGasPriceTooLow', -32000, 'transaction gas price below minimum: gas tip cap 1, minimum needed 2', 'transaction:under-base-fee'],
  ['op-geth core/txpool ErrInflightTxLimitReached', -32000, 'in-flight transaction limit reached for delegated accounts', 'transaction:busy'],
  // reth (paradigmxyz/reth crates/rpc/rpc-eth-types/src/error/mod.rs)
  ['reth RpcInvalidTransactionError::NonceTooLow', -32000, 'nonce too low: next nonce 5, tx nonce 4', 'transaction:nonce-used'],
  ['reth RpcInvalidTransactionError::InsufficientFunds', -32003, 'insufficient funds for gas * price + value: have 1 want 2', 'transaction:unfunded'],
  ['reth RpcInvalidTransactionError::FeeCapTooLow', -32000, 'max fee per gas less than block base fee', 'transaction:under-base-fee'],
  ['reth RpcInvalidTransactionError::GasTooLow', -32000, 'intrinsic gas too low', 'transaction:rejected'],
  ['reth RpcInvalidTransactionError::TipAboveFeeCap', -32003, 'max priority fee per gas higher than max fee per gas', 'transaction:rejected'],
  ['reth RpcInvalidTransactionError::InvalidChainId', -32000, 'invalid chain ID', 'transaction:rejected'],
  ['reth RpcInvalidTransactionError::SenderNoEOA', -32003, 'sender is not an EOA', 'transaction:rejected'],
  ['reth RpcPoolError::TxPoolOverflow', -32003, 'txpool is full', 'transaction:busy'],
  ['reth RpcPoolError::AlreadyKnown', -32000, 'already known', 'transaction:known'],
  ['reth EthFilterError::QueryExceedsMaxBlocks', -32602, 'query exceeds max block range 100000', 'range'],
  ['reth EthFilterError::QueryExceedsMaxResults', -32602, 'query exceeds max results 20000', 'range'],
  ['reth EthApiError::PrunedHistoryUnavailable', 4444, 'pruned history unavailable', 'fault'],
  ['reth EthApiError::InternalBlockingTaskError', -32603, 'internal blocking task error', 'fault'],
  // erigon (erigontech/erigon txnprovider/txpool/txpoolcfg DiscardReason.String)
  ['erigon AlreadyKnown', -32000, 'already known', 'transaction:known'],
  ['erigon DuplicateHash', -32000, 'existing txn with same hash', 'transaction:known'],
  ['erigon NonceTooLow', -32000, 'nonce too low', 'transaction:nonce-used'],
  ['erigon NotReplaced', -32000, 'could not replace existing tx', 'transaction:replacement-underpriced'],
  ['erigon ReplaceUnderpriced', -32000, 'replacement transaction underpriced', 'transaction:replacement-underpriced'],
  ['erigon FeeTooLow', -32000, 'fee too low', 'transaction:under-base-fee'],
  ['erigon InsufficientFunds', -32000, 'insufficient funds', 'transaction:unfunded'],
  ['erigon PendingPoolOverflow', -32000, 'pending sub-pool is full', 'transaction:busy'],
  ['erigon BaseFeePoolOverflow', -32000, 'baseFee sub-pool is full', 'transaction:busy'],
  ['erigon Spammer', -32000, 'spammer', 'transaction:busy'],
  ['erigon IntrinsicGas', -32000, 'IntrinsicGas', 'transaction:rejected'],
  ['erigon InvalidSender', -32000, 'invalid sender', 'transaction:rejected'],
  ['erigon OversizedData', -32000, 'oversized data', 'transaction:rejected'],
  // nethermind (NethermindEth/nethermind Nethermind.TxPool/TxPoolErrorMessages.cs, AcceptTxResult.cs)
  ['nethermind AlreadyKnown', -32010, 'already known', 'transaction:known'],
  ['nethermind (older) AddTxResult.AlreadyKnown', -32010, 'AlreadyKnown', 'transaction:known'],
  ['nethermind OldNonce', -32010, 'nonce too low', 'transaction:nonce-used'],
  ['nethermind (older) OldNonce', -32010, 'OldNonce', 'transaction:nonce-used'],
  ['nethermind FeeTooLow', -32010, 'transaction underpriced', 'transaction:under-base-fee'],
  ['nethermind ReplacementNotAllowed', -32010, 'replacement transaction underpriced', 'transaction:replacement-underpriced'],
  ['nethermind NonceGap', -32010, 'nonce too high', 'transaction:busy'],
  ['nethermind NonceTooFarInFuture', -32010, 'nonce too far in future', 'transaction:busy'],
  ['nethermind InsufficientFunds', -32010, 'insufficient funds for gas', 'transaction:unfunded'],
  ['nethermind GasLimitExceeded', -32010, 'gas limit reached', 'transaction:rejected'],
  ['nethermind FailedToResolveSender', -32010, 'failed to recover sender', 'transaction:rejected'],
  ['nethermind Invalid', -32010, 'transaction invalid', 'transaction:rejected'],
  ['nethermind NotSupportedTxType', -32010, 'unsupported transaction type', 'transaction:rejected'],
  ['nethermind MaxTxSizeExceeded', -32010, 'transaction too large', 'transaction:rejected'],
  ['nethermind SenderIsContract', -32010, 'sender not an eoa', 'transaction:rejected'],
  ['nethermind Syncing', -32010, 'node is syncing', 'fault'],
  // besu (hyperledger/besu ethereum/api/.../response/RpcErrorType.java)
  ['besu ETH_SEND_TX_ALREADY_KNOWN', -32000, 'Known transaction', 'transaction:known'],
  ['besu ETH_SEND_TX_REPLACEMENT_UNDERPRICED', -32000, 'Replacement transaction underpriced', 'transaction:replacement-underpriced'],
  ['besu NONCE_TOO_LOW', -32001, 'Nonce too low', 'transaction:nonce-used'],
  ['besu NONCE_TOO_HIGH', -32006, 'Nonce too high', 'transaction:busy'],
  ['besu NONCE_TOO_FAR_IN_FUTURE_FOR_SENDER', -32000, 'Transaction nonce is too distant from current sender nonce', 'transaction:busy'],
  ['besu TRANSACTION_UPFRONT_COST_EXCEEDS_BALANCE', -32004, 'Upfront cost exceeds account balance', 'transaction:unfunded'],
  ['besu INTRINSIC_GAS_EXCEEDS_LIMIT', -32003, 'Intrinsic gas exceeds gas limit', 'transaction:rejected'],
  ['besu EXCEEDS_BLOCK_GAS_LIMIT (-32005, not a rate limit)', -32005, 'Transaction gas limit exceeds block gas limit', 'transaction:rejected'],
  ['besu GAS_PRICE_TOO_LOW', -32009, 'Gas price below configured minimum gas price', 'transaction:under-base-fee'],
  ['besu GAS_PRICE_BELOW_CURRENT_BASE_FEE', -32009, 'Gas price below current base fee', 'transaction:under-base-fee'],
  ['besu MAX_PRIORITY_FEE_PER_GAS_EXCEEDS_MAX_FEE_PER_GAS', -32000, 'Max priority fee per gas exceeds max fee per gas', 'transaction:rejected'],
  ['besu WRONG_CHAIN_ID', -32000, 'Wrong chainId', 'transaction:rejected'],
  ['besu REVERT_ERROR', -32000, 'Execution reverted', 'call'],
  ['besu EXCEEDS_RPC_MAX_BLOCK_RANGE (-32005)', -32005, 'Requested range exceeds maximum RPC range limit', 'range'],
  ['besu EXCEEDS_RPC_MAX_BATCH_SIZE (-32005)', -32005, 'Number of requests exceeds max batch size', 'limited'],
  ['besu TIMEOUT_ERROR', -32603, 'Timeout expired', 'fault'],
  ['besu INTERNAL_ERROR', -32603, 'Internal error', 'fault'],
  ['besu TX_POOL_DISABLED', -32002, 'Transaction pool not enabled. (Either txpool explicitly disabled, or node not yet in sync).', 'fault'],
  ['besu CHAIN_HEAD_WORLD_STATE_NOT_AVAILABLE', -32008, 'Initial sync is still in progress', 'fault'],
  ['besu WORLD_STATE_UNAVAILABLE', -32000, 'World state unavailable', 'fault'],
  // anvil (foundry-rs/foundry crates/anvil/src/eth/error.rs)
  ['anvil PoolError::AlreadyImported', -32003, 'Tx: [0xabc] already Imported', 'transaction:known'],
  ['anvil PoolError::ReplacementUnderpriced', -32003, 'Tx: [0xabc] insufficient gas price to replace existing transaction', 'transaction:replacement-underpriced'],
  ['anvil InvalidTransactionError::NonceTooLow', -32003, 'nonce too low', 'transaction:nonce-used'],
  ['anvil InvalidTransactionError::NonceTooHigh', -32003, 'Nonce too high', 'transaction:busy'],
  ['anvil InvalidTransactionError::InsufficientFunds', -32003, 'Insufficient funds for gas * price + value', 'transaction:unfunded'],
  ['anvil InvalidTransactionError::FeeCapTooLow', -32003, 'max fee per gas less than block base fee', 'transaction:under-base-fee'],
  ['anvil InvalidTransactionError::GasTooLow', -32003, 'intrinsic gas too low', 'transaction:rejected'],
  ['anvil InvalidTransactionError::InvalidChainId', -32003, 'invalid chain id for signer', 'transaction:rejected'],
  ['anvil InvalidTransactionError::SenderNoEOA', -32003, 'sender not an eoa', 'transaction:rejected'],
  ['anvil InvalidTransactionError::Revert', 3, 'execution reverted: custom error 0x1234', 'call'],
  // hardhat (EDR: @nomicfoundation/edr, messages of hardhat node 2.29)
  ['hardhat Nonce too low', -32000, 'Nonce too low. Expected nonce to be 5 but got 4.', 'transaction:nonce-used'],
  ['hardhat Transaction nonce too low', -32000, 'Transaction nonce too low. Expected nonce to be at least 5 but got 4.', 'transaction:nonce-used'],
  ['hardhat Nonce too high (automine)', -32000, "Nonce too high. Expected nonce to be 5 but got 9. Note that transactions can't be queued when automining.", 'transaction:busy'],
  ['hardhat Known transaction', -32000, 'Known transaction: 0xabc', 'transaction:known'],
  ['hardhat Replacement underpriced', -32000, 'Replacement transaction underpriced. A gasPrice/maxFeePerGas of at least 2 is necessary to replace the existing transaction with nonce 4.', 'transaction:replacement-underpriced'],
  ['hardhat insufficient funds', -32000, "Sender doesn't have enough funds to send tx. The max upfront cost is: 2 and the sender's balance is: 1.", 'transaction:unfunded'],
  ['hardhat maxFeePerGas under next base fee', -32000, 'Transaction maxFeePerGas (1) is too low for the next block, which has a baseFeePerGas of 7', 'transaction:under-base-fee'],
  ['hardhat gasPrice under next base fee', -32000, 'Transaction gasPrice (1) is too low for the next block, which has a baseFeePerGas of 7', 'transaction:under-base-fee'],
  ['hardhat min gas price', -32000, 'Transaction gas price is 1, which is below the minimum of 2', 'transaction:under-base-fee'],
  ['hardhat gas limit over block', -32000, 'Transaction gas limit is 40000000 and exceeds block gas limit of 30000000', 'transaction:rejected'],
  ['hardhat revert', -32603, "Error: VM Exception while processing transaction: reverted with reason string 'nope'", 'call'],
  ['hardhat revert without reason', -32603, 'Transaction reverted without a reason string', 'call'],
  // hosted providers and load balancers in front of any client
  ['provider 429 text', 429, 'Too Many Requests', 'limited'],
  ['EIP-1474 limit exceeded', -32005, 'limit exceeded', 'limited'],
  ['infura -32005 rate limit', -32005, 'daily request count exceeded, request rate limited', 'limited'],
  ['alchemy compute units', 429, 'Your app has exceeded its compute units per second capacity', 'limited'],
  ['provider rate limit', -32000, 'rate limit reached', 'limited'],
  ['provider request limit', -32000, 'request limit reached', 'limited'],
  ['provider capacity', -32000, 'capacity exceeded', 'limited'],
  ['infura getLogs', -32005, 'query returned more than 10000 results', 'range'],
  ['alchemy getLogs', -32602, 'Log response size exceeded. You can make eth_getLogs requests with up to a 2K block range', 'range'],
  ['quicknode getLogs', -32614, 'eth_getLogs is limited to a 10,000 range', 'range'],
  ['provider block range', -32000, 'block range is too wide', 'range'],
  ['provider block range 2', -32000, 'block range too large', 'range'],
  ['provider range too large', -32000, 'range too large', 'range'],
  ['provider too many results', -32000, 'too many results', 'range'],
  ['provider too many logs', -32000, 'too many logs', 'range'],
  ['load balancer upstream', -32603, 'internal error: upstream request failed', 'fault'],
  ['load balancer bad gateway', -32000, 'bad gateway', 'fault'],
  ['load balancer unavailable', -32000, 'service unavailable', 'fault'],
  ['method not found elsewhere', -32601, 'the method eth_getBlockReceipts does not exist/is not available', 'fault'],
  ['provider pending limit', -32000, 'too many pending transactions for sender', 'transaction:busy'],
  ['provider pending limit 2', -32000, 'exceeds the pending tx limit', 'transaction:busy'],
  ['provider tx pool full', -32000, 'tx pool is full', 'transaction:busy'],
  ['provider transaction pool full', -32000, 'transaction pool is full', 'transaction:busy'],
  ['provider already exists', -32000, 'transaction already exists', 'transaction:known'],
  ['provider nonce wording', -32000, 'invalid nonce; got 4, expected 5', 'transaction:nonce-used'],
  ['provider gas price too low', -32000, 'gas price too low', 'transaction:under-base-fee'],
  ['provider gas price below minimum', -32000, 'gas price below minimum', 'transaction:under-base-fee'],
  ['provider maxFeePerGas too low', -32000, 'maxFeePerGas too low', 'transaction:under-base-fee'],
  ['provider invalid transaction', -32000, 'invalid transaction: bad signature', 'transaction:rejected'],
  ['ethers NONCE_EXPIRED', null, 'nonce has already been used', 'transaction:nonce-used'],
  ['ethers NONCE_EXPIRED code', null, 'NONCE_EXPIRED', 'transaction:nonce-used'],
  ['ethers REPLACEMENT_UNDERPRICED', null, 'replacement fee too low', 'transaction:replacement-underpriced'],
  ['revm name in a relayed error', null, 'FeeCapTooLow', 'transaction:under-base-fee'],
  ['older erigon duplicate', null, 'INTERNAL_ERROR: existing tx with same hash', 'transaction:known'],
  ['anything else is the call\'s own answer', -32000, 'something unexpected', 'call'],
];

describe('classifyNodeAnswer: what a node answer says (one case per string, source named)', () => {
  it.each(CASES)('%s: %s %s → %s', (_source, code, message, expected) => {
    expect(kindOf(classifyNodeAnswer(code, message))).toBe(expected);
  });

  it('has a case for every string of the table', () => {
    const messages = CASES.map((c) => c[2].toLowerCase());
    const missing = NODE_ANSWER_TEXTS.filter((row) => !messages.some((m) => m.includes(row.text))).map((r) => r.text);
    expect(missing).toEqual([]);
  });

  it('never takes an answer about the transaction for a provider failure, whatever its code', () => {
    for (const [, code, message, expected] of CASES) {
      if (expected.startsWith('transaction:')) expect(['limited', 'fault']).not.toContain(classifyNodeAnswer(code, message).kind);
    }
  });
});
