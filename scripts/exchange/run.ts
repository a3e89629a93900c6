/**
 * Local exchange for chain 10200001: `npx ts-node --transpile-only scripts/exchange/run.ts`.
 * Env: EXCHANGE_PORT (default 8547), EXCHANGE_HOST (default 127.0.0.1),
 *      EXCHANGE_TRADERS (comma-separated known trader addresses; default anvil's test accounts 0..4,
 *      "*" accepts any address a signature recovers to).
 * The relay reaches it through EXCHANGE_API_URL_10200001=http://127.0.0.1:8547.
 */
import { getAddress } from 'ethers';
import { ANVIL_TEST_ACCOUNTS } from '../devnet/accounts';
import { startExchangeServer } from './server';

const CHAIN_ID = 10200001;

function portFromEnv(): number {
  const raw = process.env.EXCHANGE_PORT;
  if (!raw) return 8547;
  const port = Number(raw);
  if (!Number.isInteger(port) || port <= 0 || port > 65535) throw new Error(`EXCHANGE_PORT=${raw} is not a valid port`);
  return port;
}

/** undefined means "anyone"; a list makes wrong-key and wrong-chain signatures fail as they would on a real venue. */
function tradersFromEnv(): string[] | undefined {
  const raw = process.env.EXCHANGE_TRADERS?.trim();
  if (raw === '*') return undefined;
  if (!raw) return ANVIL_TEST_ACCOUNTS.map((a) => a.address);
  return raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((address) => getAddress(address));
}

async function main(): Promise<void> {
  const traders = tradersFromEnv();
  const exchange = await startExchangeServer({
    port: portFromEnv(),
    host: process.env.EXCHANGE_HOST || '127.0.0.1',
    chainId: CHAIN_ID,
    traders,
    log: (line) => console.log(`${new Date().toISOString()} ${line}`),
  });
  console.log(`exchange for chain ${CHAIN_ID} at ${exchange.url}/exchange`);
  console.log(traders ? `known traders: ${traders.join(', ')}` : 'any signer is a trader');

  let stopping = false;
  const shutdown = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping exchange`);
    exchange
      .stop()
      .catch((err: unknown) => console.error(err))
      .finally(() => process.exit(0));
  };
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
