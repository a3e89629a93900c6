import type { RouteView } from '../../swap';
import type { Eip712Payload, GaslessMode } from './permit-typed-data';

/** A gasless quote as stored until it is submitted or its permit deadline passes. */
export interface StoredGaslessQuote {
  quoteId: string;
  /** Only the account that asked may submit it. */
  userId: string;
  mode: GaslessMode;
  chainId: number;
  settler: string;
  sender: string;
  receiver: string;
  fromToken: string;
  /** The zero address for native output (the settler checks the receiver's ETH balance). */
  toToken: string;
  /** Everything the permit moves: fee included. Base-10 strings throughout, so it survives JSON. */
  amountIn: string;
  feeAmount: string;
  amountOut: string;
  minAmountOut: string;
  nonce: string;
  /** Unix seconds: the permit's deadline, which is also the quote's expiry. */
  deadline: number;
  executorData: string;
  eip712: Eip712Payload;
  routeKind: string;
}

/** GET /gasless/quote items (interface.md "Gasless quote object"). */
export interface GaslessQuoteView {
  quoteId: string;
  quote: RouteView;
  eip712: Eip712Payload;
  fee: { feeAmount: string; feeRecipient: string; feeUsd: number };
  nonce: string;
  deadline: string;
  calldataTemplate: { to: string; value: string; innerData: string; meta: string };
}
