/** What a cross-chain quote stores beside its route (`StoredQuote.crossChain`), in strings for JSON. */
export interface BridgePlan {
  srcChainId: number;
  destChainId: number;
  srcSpoke: string;
  /** The user's input token on the source chain (lowercase; zero address = native). */
  fromToken: string;
  amountIn: string;
  /** The bridged asset on the source chain, and the least of it the deposit must carry. */
  bridgeToken: string;
  minBridged: string;
  /** The user's token on the destination chain and the least the recipient is paid. */
  toToken: string;
  minAmountOut: string;
  recipient: string;
  fillDeadline: number;
  /** Whether `StoredQuote.plan` is a source-side swap into `bridgeToken` (paid to the spoke). */
  sourceSwap: boolean;
  gasLimit: string;
}
