import { JsonRpcProvider, Wallet } from 'ethers';
import { DEPLOYER_PRIVATE_KEY } from '../devnet/accounts';
import { FEED_IFACE } from '../devnet/deploy-market';
import { LOCAL_FEED_MAX_AGE_SECONDS } from './chains-config';

/**
 * A real Chainlink feed posts a round at least every heartbeat; the local one only when told. So
 * that the local chains stay priced from it (not from the fallbacks) however long the stack runs,
 * its current answer is posted again once it is a third of maxAgeSeconds old. A price a client set
 * with `updateAnswer` is kept; only its time moves. Only while the chain automines (heartbeat.ts).
 */
export function startFeedKeeper(chains: Array<{ rpcUrl: string; chainId: number; contracts: Record<string, string> }>, everySec = 60): NodeJS.Timeout {
  const timer = setInterval(() => {
    for (const chain of chains) void keepFresh(chain.rpcUrl, chain.chainId, chain.contracts.nativeUsdFeed).catch(() => undefined);
  }, everySec * 1000);
  timer.unref();
  return timer;
}

export async function keepFresh(rpcUrl: string, chainId: number, feed: string | undefined): Promise<boolean> {
  if (!feed) return false;
  const provider = new JsonRpcProvider(rpcUrl, chainId, { staticNetwork: true });
  try {
    if ((await provider.send('anvil_getAutomine', [])) !== true) return false;
    const [, answer, , updatedAt] = FEED_IFACE.decodeFunctionResult('latestRoundData', await provider.call({ to: feed, data: FEED_IFACE.encodeFunctionData('latestRoundData') }));
    if (Date.now() / 1000 - Number(updatedAt) < LOCAL_FEED_MAX_AGE_SECONDS / 3) return false;
    const tx = await new Wallet(DEPLOYER_PRIVATE_KEY, provider).sendTransaction({ to: feed, data: FEED_IFACE.encodeFunctionData('updateAnswer', [answer]) });
    await tx.wait();
    return true;
  } finally {
    provider.destroy();
  }
}
