/**
 * Wallet login and webhooks: the team's backend registers a webhook with its API key, and every
 * status change of the account's transactions arrives signed (Standard Webhooks), verified here
 * with `verifyWebhookSignature`. The wallet signs the SIWE message for a JWT, which reads the
 * account's transactions but may not replace the webhooks or rotate their secret (AUTH_007).
 *   npm run example -- examples/login-webhooks.ts
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import { Wallet } from 'ethers';
import { RelayApiError, verifyWebhookSignature, type TxNotification } from '@gas-relay/sdk';
import { erc20 } from './lib/erc20';
import { run, stack } from './lib/stack';

run(async () => {
  const { client, chainId, token, demoWallet } = stack();
  const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    req.on('end', () => {
      received.push({ headers: req.headers, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the receiver is not listening on a port');
  const url = `http://127.0.0.1:${address.port}/hook`;

  // Where the account's events go, and the secret that signs them, are the backend's: its API key sets them.
  const registered = await client.webhooks.register([{ url, authType: 'bearer', secret: 'example-bearer-token', enabled: true }], { rotateSigningSecret: true });
  const signingSecret = registered.signingSecret;
  if (!signingSecret) throw new Error('a rotation always returns the signing secret');
  console.log(`webhook registered: ${registered.webhooks.map((w) => w.url).join(', ')}`);

  const session = await client.auth.login(demoWallet);
  console.log(`logged in as ${session.address} (account ${session.userId}), token valid until ${new Date(session.expiresAt * 1000).toISOString()}`);
  const asWallet = client.withCredentials({ jwt: session.token });
  const refused = await asWallet.webhooks.register([{ url: 'http://127.0.0.1:9/elsewhere', authType: 'none' }]).catch((err: unknown) => err);
  if (!(refused instanceof RelayApiError) || refused.code !== 'AUTH_007') throw new Error('a wallet session replaced the webhooks');
  console.log(`the wallet session cannot replace the webhooks: ${refused.status} ${refused.code}`);

  const { txId } = await client.relay.submit({ chainId, to: token('USDC'), callData: erc20.encodeFunctionData('mint', [Wallet.createRandom().address, 1n]), label: 'example:webhooks' });
  const deadline = Date.now() + 30_000;
  const final = (): TxNotification | undefined =>
    received.map((r): TxNotification => JSON.parse(r.body)).find((n) => n.txId === txId && (n.status === 'EXECUTED' || n.status === 'FAILED'));
  while (!final() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
  for (const call of received) {
    const n: TxNotification = JSON.parse(call.body);
    const valid = verifyWebhookSignature({ secret: signingSecret, headers: call.headers, rawBody: call.body });
    console.log(`webhook ${call.headers['webhook-id']}: ${n.txId} ${n.previousStatus} -> ${n.status}, signature ${valid ? 'valid' : 'INVALID'}, auth ${call.headers.authorization}`);
    if (!valid) throw new Error('a webhook call failed verification');
  }
  const recent = await asWallet.relay.list({ limit: 1 });
  console.log(`the wallet session reads the account's transactions: latest ${recent.items[0]?.id ?? '(none)'}`);
  await client.webhooks.register([]);
  server.close();
  if (!final()) throw new Error('no final status arrived by webhook');
});
