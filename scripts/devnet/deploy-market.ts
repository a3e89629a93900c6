import { Interface, concat } from 'ethers';
import type { ArtifactSet } from './compile';
import type { NpmArtifacts } from './npm-artifacts';
import { GAS, type TxSender } from './tx-sender';

/** What the local chains' native currency is priced at (extensions.md, "Local stack test hooks"). */
export const NATIVE_USD_FEED_DECIMALS = 8;
export const NATIVE_USD_FEED_ANSWER = 3000n * 10n ** 8n;
export const FEED_IFACE = new Interface([
  'function updateAnswer(int256 answer)',
  'function latestRoundData() view returns (uint80, int256, uint256, uint256, uint80)',
]);

/**
 * Market data of a chain: Chainlink's MockV3Aggregator answering 3000 USD with 8 decimals
 * (`nativeUsdFeed`) and Uniswap's TickLens (`tickLens`). Adds both to `contracts`.
 */
export async function deployMarketData(sender: TxSender, artifacts: ArtifactSet, npm: NpmArtifacts, contracts: Record<string, string>): Promise<void> {
  const feed = artifacts.NativeUsdFeed;
  if (!feed || feed.bytecode === '0x') throw new Error('compiled artifact NativeUsdFeed missing');
  const feedArgs = new Interface(feed.abi).encodeDeploy([NATIVE_USD_FEED_DECIMALS, NATIVE_USD_FEED_ANSWER]);
  contracts.nativeUsdFeed = await sender.deploy('deploy NativeUsdFeed (MockV3Aggregator)', concat([feed.bytecode, feedArgs]));
  contracts.tickLens = await sender.deploy('deploy TickLens', npm.tickLens.bytecode);
}

/**
 * On a chain deployed earlier (anvil state kept), the feed's last round may be older than the
 * chains file's maxAgeSeconds or moved by a test: it answers 3000 USD again, now. Any key may
 * update a MockV3Aggregator (it has no access control), anvil's account 0 included.
 */
export async function refreshNativeUsdFeed(sender: TxSender, feed: string | undefined): Promise<void> {
  if (!feed) return;
  await sender.send({ label: 'refresh NativeUsdFeed', to: feed, data: FEED_IFACE.encodeFunctionData('updateAnswer', [NATIVE_USD_FEED_ANSWER]), gasLimit: GAS.call });
  await sender.confirmAll();
}
