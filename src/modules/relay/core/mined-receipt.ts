/** A receipt as the relay needs it, from raw JSON-RPC (eth_getTransactionReceipt / eth_getBlockReceipts). */
export interface MinedReceipt {
  transactionHash: string;
  blockNumber: number;
  blockHash: string;
  status: 0 | 1;
  from: string;
  to: string | null;
  gasUsed: bigint;
  effectiveGasPrice: bigint;
  /** L1 data fee on OP-stack chains; 0 elsewhere. */
  l1Fee: bigint;
  contractAddress: string | null;
  logs: number;
}

type RawReceipt = Record<string, unknown> & { logs?: unknown[] };

const big = (v: unknown): bigint => (typeof v === 'string' || typeof v === 'number' ? BigInt(v) : 0n);

export function fromRpcReceipt(raw: RawReceipt): MinedReceipt {
  return {
    transactionHash: String(raw.transactionHash).toLowerCase(),
    blockNumber: Number(big(raw.blockNumber)),
    blockHash: String(raw.blockHash),
    status: big(raw.status) === 1n ? 1 : 0,
    from: String(raw.from).toLowerCase(),
    to: typeof raw.to === 'string' ? raw.to.toLowerCase() : null,
    gasUsed: big(raw.gasUsed),
    effectiveGasPrice: big(raw.effectiveGasPrice ?? raw.gasPrice),
    l1Fee: big(raw.l1Fee),
    contractAddress: typeof raw.contractAddress === 'string' ? raw.contractAddress : null,
    logs: Array.isArray(raw.logs) ? raw.logs.length : 0,
  };
}

/** What GET /api/tx?includeReceipt=true shows (bigints as decimal strings). */
export interface ReceiptJson {
  transactionHash: string;
  blockNumber: number;
  blockHash: string;
  status: 0 | 1;
  from: string;
  to: string | null;
  gasUsed: string;
  effectiveGasPrice: string;
  l1Fee: string;
  contractAddress: string | null;
  logs: number;
}

export function receiptJson(r: MinedReceipt): ReceiptJson {
  return {
    transactionHash: r.transactionHash,
    blockNumber: r.blockNumber,
    blockHash: r.blockHash,
    status: r.status,
    from: r.from,
    to: r.to,
    gasUsed: r.gasUsed.toString(),
    effectiveGasPrice: r.effectiveGasPrice.toString(),
    l1Fee: r.l1Fee.toString(),
    contractAddress: r.contractAddress,
    logs: r.logs,
  };
}
