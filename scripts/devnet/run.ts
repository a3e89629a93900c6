/**
 * Local devnet CLI: `npx ts-node scripts/devnet/run.ts` (or `npm run devnet`).
 * Env: CHAIN_31337_PORT (default 8545), CHAIN_84532_PORT (default 8546),
 *      DEVNET_FUND (comma-separated addresses to give 10,000 ETH each).
 */
import { getAddress } from 'ethers';
import { ANVIL_TEST_ACCOUNTS, DEPLOYER_ADDRESS } from './accounts';
import { bringUpDevnet, devnetChainsFile } from './index';
import type { DevnetChain } from './types';
import { redactUrl } from '../../src/common/evm/provider-url';

function portFromEnv(name: string, fallback: number): number {
  const raw = process.env[name];
  if (!raw) return fallback;
  const port = Number(raw);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`${name}=${raw} is not a valid port`);
  return port;
}

function fundFromEnv(): string[] {
  return (process.env.DEVNET_FUND ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((address) => getAddress(address));
}

function printSummary(chains: DevnetChain[]): void {
  for (const chain of chains) {
    console.log(`\n${chain.name} (chain ${chain.chainId}) at ${redactUrl(chain.rpcUrl)}`);
    for (const [key, address] of Object.entries(chain.contracts)) console.log(`  ${key.padEnd(34)} ${address}`);
    for (const t of chain.tokens) console.log(`  token ${t.symbol.padEnd(28)} ${t.address} (${t.decimals} decimals)`);
  }
  console.log(`\ndeployer ${DEPLOYER_ADDRESS}; funded test accounts: ${ANVIL_TEST_ACCOUNTS.map((a) => a.address).join(', ')}`);
  console.log(`state: ${devnetChainsFile()}`);
}

async function main(): Promise<void> {
  const started = Date.now();
  const devnet = await bringUpDevnet({
    chains: [
      { chainId: 31337, name: 'Devnet', port: portFromEnv('CHAIN_31337_PORT', 8545) },
      { chainId: 84532, name: 'Base Sepolia (local)', port: portFromEnv('CHAIN_84532_PORT', 8546) },
    ],
    fund: fundFromEnv(),
    log: (line) => console.log(line),
  });
  printSummary(devnet.chains);
  console.log(`\ndevnet ready in ${Date.now() - started} ms; Ctrl-C to stop`);

  // Keeps the process alive even when every anvil was reused (then nothing else holds the event loop).
  const keepAlive = setInterval(() => undefined, 1 << 30);
  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping devnet`);
    devnet
      .stop()
      .catch((err: unknown) => console.error(err))
      .finally(() => {
        clearInterval(keepAlive);
        process.exit(0);
      });
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
