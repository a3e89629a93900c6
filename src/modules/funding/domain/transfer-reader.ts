import { getAddress, JsonRpcProvider, toQuantity, ZeroAddress, zeroPadValue } from 'ethers';

/** keccak256("Transfer(address,address,uint256)") */
export const TRANSFER_TOPIC = '0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef';
/** How many recipient topics go into one eth_getLogs filter. */
const ADDRESSES_PER_FILTER = 200;

export interface ChainTransfer {
  txHash: string;
  logIndex: number;
  /** Lowercase deposit address. */
  to: string;
  /** Lowercase token address; ZeroAddress for the native currency. */
  token: string;
  amount: bigint;
  blockNumber: number;
  blockHash: string;
}

interface RpcTx {
  hash: string;
  from: string;
  to: string | null;
  value: string;
}

interface RpcBlock {
  number: string;
  hash: string;
  transactions: RpcTx[];
}

/**
 * Reads transfers to the given addresses in blocks [from, to] through the chain registry's
 * provider: ERC-20 `Transfer` logs of `tokens` whose recipient is a deposit address (the
 * recipient topic in the filter), and top-level transactions whose `to` is one with a value,
 * successful by their receipt. A native transfer made inside another contract's call (an
 * internal transfer) is not seen (docs/decisions.md, "Deposit addresses").
 */
export class TransferReader {
  constructor(private readonly provider: JsonRpcProvider) {}

  async head(): Promise<number> {
    return Number(BigInt((await this.provider.send('eth_blockNumber', [])) as string));
  }

  /** The canonical block hash at each height. */
  async blockHashes(numbers: number[]): Promise<Map<number, string | null>> {
    const out = new Map<number, string | null>();
    for (const n of numbers) {
      const block = (await this.provider.send('eth_getBlockByNumber', [toQuantity(n), false])) as { hash: string } | null;
      out.set(n, block?.hash.toLowerCase() ?? null);
    }
    return out;
  }

  async tokenTransfers(from: number, to: number, tokens: string[], addresses: string[]): Promise<ChainTransfer[]> {
    if (tokens.length === 0 || addresses.length === 0) return [];
    const out: ChainTransfer[] = [];
    for (let i = 0; i < addresses.length; i += ADDRESSES_PER_FILTER) {
      const recipients = addresses.slice(i, i + ADDRESSES_PER_FILTER).map((a) => zeroPadValue(a, 32));
      const logs = await this.provider.getLogs({ fromBlock: from, toBlock: to, address: tokens, topics: [TRANSFER_TOPIC, null, recipients] });
      for (const log of logs) {
        if (log.topics.length !== 3 || log.removed) continue;
        out.push({
          txHash: log.transactionHash.toLowerCase(),
          logIndex: log.index,
          to: getAddress('0x' + log.topics[2].slice(26)).toLowerCase(),
          token: log.address.toLowerCase(),
          amount: BigInt(log.data),
          blockNumber: log.blockNumber,
          blockHash: log.blockHash.toLowerCase(),
        });
      }
    }
    return out;
  }

  /** `ignoreFrom`: senders whose transfers are not deposits (the treasury's gas for a sweep). */
  async nativeTransfers(from: number, to: number, addresses: Set<string>, ignoreFrom: Set<string>): Promise<ChainTransfer[]> {
    if (addresses.size === 0) return [];
    const out: ChainTransfer[] = [];
    for (let n = from; n <= to; n++) {
      const block = (await this.provider.send('eth_getBlockByNumber', [toQuantity(n), true])) as RpcBlock | null;
      if (!block) continue;
      for (const tx of block.transactions) {
        const recipient = tx.to?.toLowerCase();
        if (!recipient || !addresses.has(recipient) || BigInt(tx.value) === 0n || ignoreFrom.has(tx.from.toLowerCase())) continue;
        const receipt = (await this.provider.send('eth_getTransactionReceipt', [tx.hash])) as { status: string; blockHash: string } | null;
        // A reverted call moved no value; a receipt of another block means the block changed under us (the next pass sees it).
        if (!receipt || BigInt(receipt.status) !== 1n || receipt.blockHash.toLowerCase() !== block.hash.toLowerCase()) continue;
        out.push({
          txHash: tx.hash.toLowerCase(),
          logIndex: -1,
          to: recipient,
          token: ZeroAddress,
          amount: BigInt(tx.value),
          blockNumber: Number(BigInt(block.number)),
          blockHash: block.hash.toLowerCase(),
        });
      }
    }
    return out;
  }
}
