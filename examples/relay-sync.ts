/**
 * Submit and wait in one call: POST /api/submit-tx-sync answers at the final status (or 202
 * with `timedOut: true`, after which `relay.waitFor` takes over).
 *   npm run example -- examples/relay-sync.ts
 */
import { Wallet } from 'ethers';
import { erc20 } from './lib/erc20';
import { run, stack } from './lib/stack';

run(async () => {
  const { client, chainId, token } = stack();
  const callData = erc20.encodeFunctionData('mint', [Wallet.createRandom().address, 1_000_000n]);
  let record = await client.relay.submitSync({ tx: { chainId, to: token('USDC'), callData, label: 'example:sync' }, timeoutMs: 30_000, includeReceipt: true });
  if (record.timedOut) record = await client.relay.waitFor(record.id);
  console.log(`${record.status} ${record.executionTxHash} gasUsed ${record.receipt?.gasUsed} cost ${record.costUSD} USD`);
  if (record.status !== 'EXECUTED') throw new Error(`expected EXECUTED, got ${record.status}`);
});
