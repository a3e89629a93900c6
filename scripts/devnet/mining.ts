import type { JsonRpcProvider } from 'ethers';

/**
 * Runs `fn` with automine on, restoring interval mining afterwards. Needed because anvil (1.7) in
 * --block-time mode silently drops a long chain of pipelined txs from one sender once a block
 * fills up, while in automine mode each tx is mined on arrival and ordering is trivially safe.
 * `blockTimeSec` is the interval to restore; when unknown (an anvil someone else started) it is
 * inferred from the spacing of the last two blocks.
 */
export async function withAutomine<T>(provider: JsonRpcProvider, blockTimeSec: number | undefined, fn: () => Promise<T>): Promise<T> {
  const automine = (await provider.send('anvil_getAutomine', [])) as boolean;
  if (automine) return fn();
  const restoreSec = blockTimeSec ?? (await inferBlockTime(provider));
  await provider.send('evm_setAutomine', [true]);
  try {
    return await fn();
  } finally {
    // 0 = no automatic mining, which is also what a node with neither automine nor an interval had.
    await provider.send('evm_setIntervalMining', [restoreSec]);
  }
}

async function inferBlockTime(provider: JsonRpcProvider): Promise<number> {
  const latest = await provider.getBlock('latest');
  if (!latest || latest.number < 1) return 0;
  const parent = await provider.getBlock(latest.number - 1);
  return parent ? Math.max(0, latest.timestamp - parent.timestamp) : 0;
}
