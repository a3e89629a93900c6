/**
 * Relay a call with sponsored gas and follow it to its final status: `relay.waitFor` listens on
 * Socket.IO and polls GET /api/tx, whichever answers first.
 *   npm run example -- examples/relay.ts
 */
import { Wallet } from 'ethers';
import { erc20 } from './lib/erc20';
import { run, stack } from './lib/stack';

run(async () => {
  const { client, chainId, token } = stack();
  const recipient = Wallet.createRandom().address;
  const tx = { chainId, to: token('USDC'), callData: erc20.encodeFunctionData('mint', [recipient, 5_000_000n]), label: 'example:relay' };

  const quote = await client.relay.quote(tx);
  console.log(`quote: ${quote.costUSD} USD (minBalanceRequired ${quote.minBalanceRequired} wei)`);
  const { txId, estimatedCostUSD } = await client.relay.submit(tx);
  console.log(`submitted ${txId}, reserved ${estimatedCostUSD} USD`);
  const record = await client.relay.waitFor(txId, { timeoutMs: 60_000 });
  console.log(`${record.status} ${record.executionTxHash} cost ${record.costUSD} USD`);
  if (record.status !== 'EXECUTED') throw new Error(`expected EXECUTED, got ${record.status}`);
});
