/**
 * A wallet swaps WETH on 31337 for USDC on 84532: `client.swap.crossChain` builds the route
 * (a source-side swap into USDC, then the bridge), the wallet approves and sends the source
 * transaction, and the flow follows GET /status: pending → src_confirmed → completed, the
 * service's filler paying the recipient on 84532 from its inventory.
 *   npm run example -- examples/cross-chain-swap.ts
 */
import { Contract, Interface, MaxUint256, parseEther } from 'ethers';
import { erc20 } from './lib/erc20';
import { run, stack } from './lib/stack';

const weth9 = new Interface(['function deposit() payable']);

run(async () => {
  const { client, chainId, contracts, demoWallet } = stack(31337);
  const dest = stack(84532);
  const amount = parseEther('0.05');
  await (await demoWallet.sendTransaction({ to: contracts.weth, data: weth9.encodeFunctionData('deposit'), value: amount })).wait();

  const query = { fromChain: chainId, toChain: dest.chainId, fromToken: contracts.weth, toToken: dest.token('USDC'), amount: amount.toString(), sender: demoWallet.address, slippage: 1 };
  const seen: string[] = [];
  const { route, txHash, status } = await client.swap.crossChain(
    query,
    async ({ Tx }) => {
      await (await demoWallet.sendTransaction({ to: contracts.weth, data: erc20.encodeFunctionData('approve', [Tx.allowanceTarget, MaxUint256]) })).wait();
      const sent = await demoWallet.sendTransaction({ to: Tx.to, data: Tx.data, value: BigInt(Tx.value), gasLimit: BigInt(Tx.gasLimit) });
      await sent.wait();
      return sent.hash;
    },
    { pollIntervalMs: 300, onStatus: (s) => seen.push(s.status) },
  );
  const usdc = new Contract(dest.token('USDC'), ['function balanceOf(address) view returns (uint256)'], dest.provider);
  console.log(`${route.routeKind} via ${route.path.map((s) => s.type).join(' → ')}; states ${seen.join(' → ')}`);
  console.log(`cross-chain swap ${txHash}: ${status.status}, filled by ${status.destTxDetails.txHash}; the wallet holds ${await usdc.balanceOf(demoWallet.address)} USDC units on ${dest.chainId} (at least ${route.minAmountOut})`);
  if (status.status !== 'completed') throw new Error(`expected completed, got ${status.status}`);
});
