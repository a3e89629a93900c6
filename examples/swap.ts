/**
 * A wallet swaps USDC for WETH along the best route: GET /build-best-path gives the
 * transaction, the wallet approves the executor and sends it, GET /status tracks it.
 *   npm run example -- examples/swap.ts
 */
import { MaxUint256 } from 'ethers';
import { erc20 } from './lib/erc20';
import { run, stack } from './lib/stack';

run(async () => {
  const { client, chainId, token, demoWallet } = stack();
  const usdc = token('USDC');
  const amount = 100_000_000n; // 100 USDC
  await (await demoWallet.sendTransaction({ to: usdc, data: erc20.encodeFunctionData('mint', [demoWallet.address, amount]) })).wait();

  const query = { fromChain: chainId, toChain: chainId, fromToken: usdc, toToken: token('WETH'), amount: amount.toString(), sender: demoWallet.address, slippage: 1 };
  const routes = await client.swap.quote(query);
  console.log(`${routes.length} routes; best: ${routes[0].amountOut} WETH wei via ${routes[0].providers.map((p) => p.name).join(' + ')}`);
  const { Tx, route } = await client.swap.buildBestPath(query);
  await (await demoWallet.sendTransaction({ to: usdc, data: erc20.encodeFunctionData('approve', [Tx.allowanceTarget, MaxUint256]) })).wait();
  const sent = await demoWallet.sendTransaction({ to: Tx.to, data: Tx.data, value: BigInt(Tx.value), gasLimit: BigInt(Tx.gasLimit) });
  await sent.wait();
  const status = await client.swap.status(sent.hash, chainId, demoWallet.address);
  console.log(`swap ${sent.hash}: ${status.status}, at least ${route.minAmountOut} WETH wei expected`);
  if (status.status !== 'completed') throw new Error(`expected completed, got ${status.status}`);
});
