/** The states of a tracked swap; `src_confirmed` only on a cross-chain one (its source deposit is final enough). */
export type SwapStatus = 'pending' | 'src_confirmed' | 'completed' | 'failed';

export interface TxDetails {
  txHash: string | null;
  chainId: number;
  chainLogo: string | null;
  timestamp: string | null;
}

/** interface.md "Swap tracking record". */
export interface SwapStatusView {
  status: SwapStatus;
  kind: string;
  provider: { key: string; name: string };
  srcTxDetails: TxDetails;
  destTxDetails: TxDetails;
  routeKind: string;
  updatedAtMs: number;
  userAddress: string | null;
  details?: Record<string, string>;
}
