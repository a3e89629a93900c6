/**
 * Live status over Socket.IO: subscribe to every transaction of the account and watch one go
 * from PENDING to EXECUTED.
 *   npm run example -- examples/socket.ts
 */
import { Wallet } from 'ethers';
import { subscribe } from '@gas-relay/sdk';
import { erc20 } from './lib/erc20';
import { run, stack } from './lib/stack';

run(async () => {
  const { client, chainId, token } = stack();
  const socket = client.socket();
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', () => resolve());
    socket.once('connect_error', reject);
  });
  await subscribe(socket, { all: true });

  const done = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no final status within 30 s')), 30_000);
    socket.on('tx.status', (n) => {
      console.log(`tx.status ${n.txId}: ${n.previousStatus ?? '(new)'} -> ${n.status} ${n.executionTxHash ?? ''}`);
      if (n.txId === txId && (n.status === 'EXECUTED' || n.status === 'FAILED')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  const { txId } = await client.relay.submit({ chainId, to: token('USDC'), callData: erc20.encodeFunctionData('mint', [Wallet.createRandom().address, 1n]), label: 'example:socket' });
  console.log(`submitted ${txId}`);
  await done;
  socket.close();
});
