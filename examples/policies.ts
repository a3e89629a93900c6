/**
 * Sponsorship policies: "the first transaction of each user is free, on USDC mints only". A
 * team with an enabled policy sponsors only what one allows; the refusal names its reason first
 * (here `end_user_limit`). The policy is removed at the end, so the account sponsors as before.
 *   npm run example -- examples/policies.ts
 */
import { Wallet } from 'ethers';
import { RelayApiError } from '@gas-relay/sdk';
import { erc20 } from './lib/erc20';
import { run, stack } from './lib/stack';

run(async () => {
  const { client, chainId, token } = stack();
  const mint = erc20.getFunction('mint')!.selector;
  const policy = await client.policies.create({
    name: 'example: one free mint per user',
    chainIds: [chainId],
    targets: [{ address: token('USDC'), selectors: [mint] }],
    budgetUsd: 5,
    perEndUser: { maxTxs: 1, windowSeconds: 3600 },
  });
  console.log(`policy ${policy.id} created: ${policy.name}`);
  try {
    const user = Wallet.createRandom().address;
    const tx = { chainId, to: token('USDC'), callData: erc20.encodeFunctionData('mint', [user, 1_000n]), endUser: user, label: 'example:policies' };
    const { txId } = await client.relay.submit(tx);
    const record = await client.relay.waitFor(txId, { timeoutMs: 60_000 });
    console.log(`first mint for ${user}: ${record.status}, sponsored by policy ${record.policyId}`);
    if (record.policyId !== policy.id) throw new Error('the transaction does not name its policy');

    const refused = await client.relay.submit(tx).catch((err: unknown) => err);
    if (!(refused instanceof RelayApiError) || refused.code !== 'TRANSACTION_010') throw new Error('a second mint for the same user was sponsored');
    console.log(`second mint for the same user refused: ${refused.status} ${refused.code} ${refused.message.split(':')[0]}`);

    const usage = await client.policies.usage(policy.id);
    console.log(`usage: ${usage.txCount} transaction(s), ${usage.spentUsd} USD spent, ${usage.reservedUsd} USD reserved; ${usage.endUsers.map((u) => `${u.address} ${u.txCount} until ${u.windowResetsAt}`).join(', ')}`);
  } finally {
    await client.policies.remove(policy.id);
  }
});
