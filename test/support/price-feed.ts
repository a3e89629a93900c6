import { ContractFactory, Contract, parseEther, toBeHex, Wallet } from 'ethers';
import { loadArtifacts } from '../../scripts/devnet/compile';
import { provider, type TestChain } from './chain-fixtures';
import { TEST_STATE_DIR } from './test-env';

/** A spec's own Chainlink MockV3Aggregator (8 decimals), so moving its price touches no other spec. */
export interface TestFeed {
  address: string;
  /** `updateAnswer(usd × 1e8)`: a fresh round at the chain's time. */
  set(usd: number): Promise<void>;
  /** A round with this answer last updated `ageSeconds` ago (updateRoundData). */
  setAged(usd: number, ageSeconds: number): Promise<void>;
}

export async function deployTestFeed(chain: TestChain, usd: number): Promise<TestFeed> {
  const rpc = provider(chain);
  const wallet = Wallet.createRandom().connect(rpc);
  await rpc.send('anvil_setBalance', [wallet.address, toBeHex(parseEther('10'))]);
  const artifact = (await loadArtifacts({ stateDir: TEST_STATE_DIR })).NativeUsdFeed;
  const deployed = await new ContractFactory(artifact.abi, artifact.bytecode, wallet).deploy(8, answerOf(usd));
  await deployed.waitForDeployment();
  const feed = new Contract(await deployed.getAddress(), artifact.abi, wallet);
  let round = 1n;
  return {
    address: await deployed.getAddress(),
    set: async (value) => {
      round += 1n;
      await (await feed.updateAnswer(answerOf(value), { gasLimit: FEED_GAS })).wait();
    },
    setAged: async (value, ageSeconds) => {
      round += 1n;
      const at = BigInt(Math.floor(Date.now() / 1000) - ageSeconds);
      await (await feed.updateRoundData(round, answerOf(value), at, at, { gasLimit: FEED_GAS })).wait();
    },
  };
}

/** Above what a round costs (about 100k: three new storage slots): an estimate made against another round's slots ran out of gas once. */
const FEED_GAS = 300_000n;

function answerOf(usd: number): bigint {
  return BigInt(Math.round(usd * 1e8));
}
