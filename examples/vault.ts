/**
 * Deposit into the best ERC-4626 vault allocation and withdraw again, from a wallet without
 * ETH: the wallet signs an EIP-7702 authorization and the settlement's Execute message, the relay
 * sends the transaction.
 *   npm run example -- examples/vault.ts
 */
import { Wallet } from 'ethers';
import { RelayApiError, type DepositQuote } from '@gas-relay/sdk';
import { erc20 } from './lib/erc20';
import { run, stack } from './lib/stack';

run(async () => {
  const { client, chainId, token, provider } = stack();
  const usdc = token('USDC');
  const user = Wallet.createRandom().connect(provider);
  await client.relay.submitSync({ tx: { chainId, to: usdc, callData: erc20.encodeFunctionData('mint', [user.address, 1_000_000_000n]), label: 'example:vault-mint' } });

  // Right after `npm start` the venues have no measured APY yet (RESOURCE_001): ask again shortly.
  let quote: DepositQuote | undefined;
  for (let attempt = 0; !quote; attempt++) {
    try {
      quote = await client.vault.quoteDeposit({ userAddress: user.address, chain: chainId, asset: usdc, amount: '1000000000', riskTier: 'balanced' });
    } catch (err) {
      if (!(err instanceof RelayApiError && err.code === 'RESOURCE_001') || attempt >= 60) throw err;
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  }
  console.log(`auction won by ${quote.solverId}: net APY ${quote.netApy.toFixed(2)} % in ${quote.allocation.map((a) => `${a.venueId} ${a.shareBps / 100} %`).join(', ')}`);

  const deposit = await client.vault.waitForOrder((await client.vault.signAndDeposit(quote, user)).orderId);
  console.log(`deposit order ${deposit.orderId} ${deposit.status} (${deposit.executionTxHash})`);
  if (deposit.status !== 'confirmed') throw new Error('the deposit failed');

  const positions = await client.vault.positions(user.address, chainId);
  for (const p of positions) console.log(`position ${p.venueId}: ${p.shares} shares worth ${p.assets} (cost ${p.costBasis}, pnl ${p.pnl})`);

  for (const position of positions) {
    const plan = await client.vault.quoteWithdrawal({ userAddress: user.address, chain: chainId, vault: position.vault });
    const withdrawal = await client.vault.waitForOrder((await client.vault.signAndDeposit(plan, user)).orderId);
    console.log(`withdrawal of ${plan.shares} shares from ${position.venueId}: ${withdrawal.status}`);
    if (withdrawal.status !== 'confirmed') throw new Error('the withdrawal failed');
  }
  const balance = await provider.call({ to: usdc, data: erc20.encodeFunctionData('balanceOf', [user.address]) });
  console.log(`USDC back in the wallet: ${BigInt(balance)}; positions left: ${(await client.vault.positions(user.address, chainId)).length}`);
});
