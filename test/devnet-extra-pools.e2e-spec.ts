import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Interface, JsonRpcProvider } from 'ethers';
import { bringUpDevnet, type Devnet } from '../scripts/devnet';
import { DEPLOYER_ADDRESS } from '../scripts/devnet/accounts';

/**
 * LOCAL_EXTRA_POOLS through the PoolSeeder: blocks packed by the deployer under manual mining.
 * At 2,000 and 20,000 pools anvil's automine dropped txs (a tx that did not fit the block being
 * built went, with every later one of its sender); here every pool must exist with liquidity,
 * blocks must hold several txs, and automine must be back on for what runs next.
 */
describe('local stack: LOCAL_EXTRA_POOLS deployment', () => {
  const port = Number(process.env.TEST_ANVIL_CACHE_PORT ?? 18989) + 1;
  const stateDir = mkdtempSync(join(tmpdir(), 'extra-pools-'));
  const provider = new JsonRpcProvider(`http://127.0.0.1:${port}`, 31337, { staticNetwork: true });
  let devnet: Devnet;
  const EXTRA = 60;

  beforeAll(async () => {
    devnet = await bringUpDevnet({ chains: [{ chainId: 31337, name: 'Devnet', port }], stateDir, extraPools: EXTRA });
  }, 180_000);
  afterAll(async () => {
    provider.destroy();
    await devnet?.stop();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('deploys every planned pool with liquidity, in packed blocks, and leaves automine on', async () => {
    const chain = devnet.chains[0];
    const v2 = Object.entries(chain.contracts).filter(([k]) => /^pool:uniswap-v2:XT\d+\/XT\d+$|^pool:uniswap-v2:USDC\/XT\d+$/.test(k));
    const v3 = Object.entries(chain.contracts).filter(([k]) => /^v3pool:USDC\/XT\d+:3000$/.test(k));
    expect(v2.length + v3.length).toBe(EXTRA);
    expect(chain.tokens.filter((t) => t.extra)).toHaveLength(Math.ceil((EXTRA + 1) / 3));

    const pair = new Interface(['function getReserves() view returns (uint112, uint112, uint32)', 'function balanceOf(address) view returns (uint256)']);
    const pool = new Interface(['function liquidity() view returns (uint128)']);
    for (const [key, address] of v2) {
      const [r0, r1] = pair.decodeFunctionResult('getReserves', await provider.call({ to: address, data: pair.encodeFunctionData('getReserves') }));
      expect([key, r0 > 0n && r1 > 0n]).toEqual([key, true]);
      const [lp] = pair.decodeFunctionResult('balanceOf', await provider.call({ to: address, data: pair.encodeFunctionData('balanceOf', [DEPLOYER_ADDRESS]) }));
      expect([key, lp > 0n]).toEqual([key, true]);
    }
    for (const [key, address] of v3) {
      const [liquidity] = pool.decodeFunctionResult('liquidity', await provider.call({ to: address, data: pool.encodeFunctionData('liquidity') }));
      expect([key, liquidity > 0n]).toEqual([key, true]);
    }

    const head = await provider.getBlockNumber();
    const recent = await Promise.all(Array.from({ length: 5 }, (_, i) => provider.getBlock(head - i)));
    expect(Math.max(...recent.map((b) => b?.transactions.length ?? 0))).toBeGreaterThan(1);
    expect(await provider.send('anvil_getAutomine', [])).toBe(true);
  });
});
