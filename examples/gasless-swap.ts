/**
 * A wallet that never held ETH swaps USDC for WETH:
 *   1. the relay mints it test USDC (sponsored, like any relayed call);
 *   2. its one own transaction, the Permit2 approval, goes through POST /api/submit-signed-tx,
 *      which tops the wallet up with exactly the gas it needs and broadcasts it;
 *   3. it signs the gasless quote's Permit2 typed data (mode 3: the swap's terms are in the
 *      signature) and the relay settles the swap; the fee is paid in USDC.
 *   npm run example -- examples/gasless-swap.ts
 */
import { MaxUint256, Wallet } from 'ethers';
import { erc20 } from './lib/erc20';
import { run, stack } from './lib/stack';

run(async () => {
  const { client, chainId, token, contracts, provider } = stack();
  const usdc = token('USDC');
  const weth = token('WETH');
  const user = Wallet.createRandom().connect(provider);
  console.log(`wallet ${user.address}, ETH balance ${await provider.getBalance(user.address)}`);

  const minted = await client.relay.submitSync({ tx: { chainId, to: usdc, callData: erc20.encodeFunctionData('mint', [user.address, 50_000_000n]), label: 'example:gasless-mint' } });
  console.log(`minted 50 USDC: ${minted.status}`);

  const fees = await provider.getFeeData();
  const approve = await user.signTransaction({
    type: 2,
    chainId,
    nonce: 0,
    to: usdc,
    data: erc20.encodeFunctionData('approve', [contracts.permit2, MaxUint256]),
    gasLimit: 80_000n,
    maxFeePerGas: fees.maxFeePerGas,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
  });
  const funded = await client.relay.submitSigned({ chainId, signedTx: approve, label: 'example:permit2-approval' });
  const approval = await client.relay.waitFor(funded.txId);
  console.log(`Permit2 approval ${approval.status} (gas funded by the relay: ${funded.fundingTxHash ?? 'not needed'})`);
  if (approval.status !== 'EXECUTED') throw new Error('the approval failed');

  const [quote] = await client.gasless.quote({ fromChain: chainId, toChain: chainId, fromToken: usdc, toToken: weth, amount: '20000000', sender: user.address, acquisitionMode: 3 });
  console.log(`quote ${quote.quoteId}: ${quote.quote.amountOut} WETH wei for 20 USDC, fee ${quote.fee.feeAmount} USDC units`);
  const signature = await client.gasless.sign(quote, user);
  const submitted = await client.gasless.submit(quote.quoteId, signature);
  const swap = await client.gasless.waitFor(submitted.swapId);
  const received = await provider.call({ to: weth, data: erc20.encodeFunctionData('balanceOf', [user.address]) });
  console.log(`swap ${swap.swapId} ${swap.status} ${swap.executionTxHash}; the wallet now holds ${BigInt(received)} WETH wei`);
  if (swap.status !== 'executed' || BigInt(received) === 0n) throw new Error('the gasless swap did not deliver');
});
