import { plainToInstance, Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsNumber, IsOptional, IsString, Matches, Max, Min, MinLength, ValidateBy, validateSync } from 'class-validator';
import { isIpOrCidr } from '../common/net/ip-list';
import { keySeparationErrors } from './key-separation';

/** scheme://host[:port] with nothing after it: what an EIP-4361 message's domain and URI are made of. */
const PUBLIC_ORIGIN = /^https?:\/\/(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

// Reads the raw value: implicit conversion would already have turned 'false' into true.
const toBool = ({ obj, key }: { obj: Record<string, unknown>; key: string }) => {
  const raw = obj[key];
  return typeof raw === 'string' ? ['1', 'true', 'yes'].includes(raw.toLowerCase()) : raw;
};

/**
 * Every environment variable the service reads, validated once at startup. `.env.example`
 * documents each of them; a bad or missing value stops the process naming the variable.
 */
export class AppConfig {
  @IsIn(['development', 'production', 'test'])
  NODE_ENV: 'development' | 'production' | 'test' = 'development';

  /** 0 picks a free port (tests). */
  @IsInt() @Min(0) @Max(65535)
  PORT: number = 3000;

  /** api: HTTP + WebSocket; worker: queue processors and reconciler; all: both (local stack). */
  @IsIn(['api', 'worker', 'all'])
  APP_ROLE: 'api' | 'worker' | 'all' = 'all';

  @IsIn(['text', 'json'])
  LOG_FORMAT: 'text' | 'json' = 'text';

  /** One log line per HTTP request. */
  @Transform(toBool) @IsBoolean()
  ACCESS_LOG: boolean = true;

  @Matches(/^postgres(ql)?:\/\/.+/, { message: 'DATABASE_URL must be a postgres:// URL' })
  DATABASE_URL: string;

  @Transform(toBool) @IsBoolean()
  DB_RUN_MIGRATIONS: boolean = true;

  @Matches(/^rediss?:\/\/.+/, { message: 'REDIS_URL must be a redis:// URL' })
  REDIS_URL: string;

  /**
   * Redis Cluster for the BullMQ queues: comma-separated seed nodes, `host:port` or
   * `redis[s]://[user:password@]host:port` (credentials and TLS of the first apply to every node).
   * Unset: the queues share REDIS_URL. Everything else stays on REDIS_URL (docs/decisions.md).
   */
  @IsOptional() @Matches(/^(?:(?:rediss?:\/\/[^,\s]+|[A-Za-z0-9.-]+:\d{1,5})(?:,|$))+$/, { message: 'QUEUE_REDIS_CLUSTER_NODES must be comma-separated host:port or redis:// URLs' })
  QUEUE_REDIS_CLUSTER_NODES?: string;

  /**
   * Days after which a month of relay_transactions, relay_broadcasts, tx_status_events and
   * webhook_deliveries is dropped, counted from the month's end, and only when every row in it is
   * final. 0 (default): never. The ledger is never dropped (docs/decisions.md, "Time partitions").
   */
  @IsInt() @Min(0) @Max(36_500)
  RETENTION_DAYS: number = 0;

  /** Months of partitions kept created ahead of the current one. */
  @IsInt() @Min(1) @Max(24)
  PARTITION_MONTHS_AHEAD: number = 2;

  /** How often a worker checks the partitions (creation ahead, retention). */
  @IsInt() @Min(1000)
  PARTITION_MAINTENANCE_INTERVAL_MS: number = 3_600_000;

  /** Prefix for every BullMQ queue and Redis key, so several deployments can share one Redis. */
  @IsString() @Matches(/^[a-z0-9-]+$/)
  REDIS_PREFIX: string = 'relay';

  /** JSON file describing the chains (see docs/configuration.md). */
  @IsString() @MinLength(1)
  CHAINS_FILE: string;

  /** The built dashboard page (`npm run build:dashboard`), served at /dashboard; relative paths from the working directory. */
  @IsString() @MinLength(1)
  DASHBOARD_DIR: string = 'dist/dashboard';

  /** Bearer token for /admin/*; the admin API is off when unset. */
  @IsOptional() @IsString() @MinLength(16, { message: 'ADMIN_TOKEN must be at least 16 characters' })
  ADMIN_TOKEN?: string;

  /**
   * Bearer token for GET /metrics on the API port (the admin token is accepted too). Without it
   * (and without METRICS_PORT) /metrics on the API port is open outside production and refused in
   * production.
   */
  @IsOptional() @IsString() @MinLength(16, { message: 'METRICS_TOKEN must be at least 16 characters' })
  METRICS_TOKEN?: string;

  /** A second HTTP listener serving only GET /metrics, without a token (an internal port); 0 picks a free port. */
  @IsOptional() @IsInt() @Min(0) @Max(65535)
  METRICS_PORT?: number;

  /** HS256 key of wallet-login JWTs; every API instance needs the same one, or tokens fail on the others. */
  @IsString() @MinLength(32, { message: 'JWT_SECRET must be at least 32 characters' })
  JWT_SECRET: string;

  /** Lifetime of a wallet-login JWT (decisions.md: one hour). */
  @IsInt() @Min(60) @Max(86_400)
  JWT_TTL_SECONDS: number = 3600;

  /** `aud` of wallet-login JWTs, required on every use: a token this key signed for another audience is refused. */
  @IsString() @Matches(/^[A-Za-z0-9._:/-]{1,200}$/, { message: 'JWT_AUDIENCE must be 1-200 characters of letters, digits and . _ : / -' })
  JWT_AUDIENCE: string = 'gas-relay';

  /**
   * The origin users reach the API at (`https://relay.example.com`): the domain and URI of every
   * wallet-login message, never the request's Host header. Required in production; otherwise
   * `http://localhost:<PORT>`.
   */
  @IsOptional() @Matches(PUBLIC_ORIGIN, { message: 'PUBLIC_ORIGIN must be an origin like https://relay.example.com (scheme, host, optional port; no path)' })
  PUBLIC_ORIGIN: string;

  @IsString() @Matches(/^\d+(kb|mb)$/)
  BODY_LIMIT: string = '256kb';

  /** Deepest nesting of arrays and objects in a JSON body; deeper bodies are 400 before parsing. */
  @IsInt() @Min(4) @Max(1000)
  BODY_MAX_DEPTH: number = 32;

  /** Time a client has to send the request headers (slow-header clients are cut off). */
  @IsInt() @Min(1000)
  HTTP_HEADERS_TIMEOUT_MS: number = 20_000;

  /** Time a client has to send a whole request; above submit-tx-sync's longest wait (120 s). */
  @IsInt() @Min(1000)
  HTTP_REQUEST_TIMEOUT_MS: number = 150_000;

  /** Idle keep-alive connection lifetime; above the usual 60 s of load balancers in front. */
  @IsInt() @Min(1000)
  HTTP_KEEP_ALIVE_TIMEOUT_MS: number = 65_000;

  @IsInt() @Min(1000)
  CHAIN_HEALTH_INTERVAL_MS: number = 10_000;

  /** Budget of one JSON-RPC call, retries on a chain's other providers included. */
  @IsInt() @Min(100)
  RPC_TIMEOUT_MS: number = 5_000;

  /** A provider further behind the best head than this serves no read that decides a transaction's fate. */
  @IsInt() @Min(0) @Max(10_000)
  RPC_MAX_LAG_BLOCKS: number = 3;

  /** How often each provider's head is read (lag and circuit trials are measured from it). */
  @IsInt() @Min(100)
  RPC_HEAD_POLL_MS: number = 1_000;

  @IsInt() @Min(0)
  PRICE_CACHE_MS: number = 5_000;

  /** Sanity band: a live native price more than this far from the chain's last good one is refused. */
  @IsNumber() @Min(1) @Max(100)
  PRICE_BAND_PERCENT: number = 20;

  /** How long a last good price anchors the band; after that the chain's feed anchors again. */
  @IsInt() @Min(1)
  PRICE_BAND_WINDOW_SECONDS: number = 900;

  /** Most native `value` (USD) a transaction may carry while the chain is priced from a pool's spot price alone. */
  @IsNumber() @Min(0)
  PRICE_POOL_MAX_VALUE_USD: number = 50;

  /**
   * How long an authenticated API key is reused without a database read. Revocations and account
   * changes reach every instance at once through Redis; this bounds staleness if that signal is lost.
   * 0 reads the key on every request.
   */
  @IsInt() @Min(0) @Max(60_000)
  API_KEY_CACHE_MS: number = 5_000;

  /** Requests per API key per minute on every authenticated route (one window per key), for keys without their own limit. */
  @IsInt() @Min(1)
  RATE_LIMIT_PER_MINUTE: number = 600;

  /** Requests per client IP per minute on the public reads (GET /api/tx, /api/user, /api/supported-chains, the dashboard page). */
  @IsInt() @Min(1)
  PUBLIC_RATE_LIMIT_PER_MINUTE: number = 300;

  /** Requests per client IP per minute on /admin/*, counted before the admin token is checked. */
  @IsInt() @Min(1)
  ADMIN_RATE_LIMIT_PER_MINUTE: number = 120;

  // --- client edge ---
  /**
   * Proxies whose X-Forwarded-For is believed (comma-separated IPs or CIDR blocks, e.g. the load
   * balancer's subnet). Unset: the client IP is the socket's address and the header is ignored,
   * so a client cannot pick its own IP for the account's ipWhitelist.
   */
  @IsOptional()
  @ValidateBy({
    name: 'isProxyList',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && value.split(',').every((entry) => isIpOrCidr(entry.trim())),
      defaultMessage: () => 'TRUST_PROXY must be a comma-separated list of IP addresses or CIDR blocks',
    },
  })
  TRUST_PROXY?: string;

  /** Origins allowed by CORS (comma-separated `https://app.example.com`), or `*` for any; the account's domainWhitelist is checked after. */
  @ValidateBy({
    name: 'isOriginList',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && (value === '*' || value.split(',').every((o) => /^https?:\/\/[^/\s,]+$/i.test(o.trim()))),
      defaultMessage: () => 'CORS_ORIGINS must be * or a comma-separated list of origins like https://app.example.com',
    },
  })
  CORS_ORIGINS: string = '*';

  /** How long a submission waits for the account's approval webhook before it is refused (TRANSACTION_008, timeout). */
  @IsInt() @Min(100) @Max(30_000)
  APPROVAL_TIMEOUT_MS: number = 2_000;

  /** Wallet-login requests (message and verify together) per client IP per minute. */
  @IsInt() @Min(1)
  LOGIN_RATE_LIMIT_PER_MINUTE: number = 30;

  // --- relay ---
  /** Where relayer keys and the treasury live: `local` (RELAYER_MNEMONIC, in memory) or `pkcs11` (a token; docs/hsm-signers.md). */
  @IsIn(['local', 'pkcs11'])
  RELAYER_SIGNER: 'local' | 'pkcs11' = 'local';

  /** Path of the PKCS#11 library (e.g. /usr/lib/softhsm/libsofthsm2.so); with RELAYER_SIGNER=pkcs11. */
  @IsOptional() @IsString()
  PKCS11_MODULE?: string;

  /** Label of the token holding the keys `relayer-<region>-<index>` and `relayer-treasury`. */
  @IsOptional() @IsString()
  PKCS11_TOKEN_LABEL?: string;

  /** The token's user PIN, or PKCS11_PIN_FILE naming a file whose first line is it. */
  @IsOptional() @IsString()
  PKCS11_PIN?: string;

  @IsOptional() @IsString()
  PKCS11_PIN_FILE?: string;

  /**
   * The file read again on SIGHUP (the config reload): a RELAYER_KEYS_PER_REGION there above the
   * running one adds the new mnemonic keys to every pool without a restart (docs/hsm-signers.md).
   */
  @IsString()
  RELAYER_RELOAD_ENV_FILE: string = '.env';

  /** How often the pool lists its key source again (new token labels join without a restart); SIGHUP does it at once. */
  @IsInt() @Min(1_000) @Max(3_600_000)
  RELAYER_KEYS_RESCAN_MS: number = 30_000;

  /** Mnemonic of the relayer pools: region i, key j is m/44'/60'/i'/0/j (same keys on every chain). */
  @Matches(/^([a-z]+ ){11,23}[a-z]+$/, { message: 'RELAYER_MNEMONIC must be a 12 to 24 word BIP-39 mnemonic' })
  RELAYER_MNEMONIC: string;

  /** Mnemonic under which authenticated transactions derive their sender from derivationPath. */
  @Matches(/^([a-z]+ ){11,23}[a-z]+$/, { message: 'AUTH_MNEMONIC must be a 12 to 24 word BIP-39 mnemonic' })
  AUTH_MNEMONIC: string;

  /** Derived senders' keys kept in memory (LRU); one evicted is derived again in well under a millisecond. */
  @IsInt() @Min(1) @Max(1_000_000)
  DERIVED_SIGNER_CACHE_SIZE: number = 4096;

  /** Active regions, each with its own relayer pool. */
  @Matches(/^[a-z0-9-]+(,[a-z0-9-]+)*$/, { message: 'RELAY_REGIONS must be a comma-separated list like us-east,eu-west' })
  RELAY_REGIONS: string = 'us-east,eu-west,ap-south';

  @IsString() @Matches(/^[a-z0-9-]+$/)
  RELAY_DEFAULT_REGION: string = 'us-east';

  @IsInt() @Min(1) @Max(100)
  RELAYER_KEYS_PER_REGION: number = 2;

  /** Country header set by the CDN in front of the API (lowercase name). */
  @IsString()
  RELAY_COUNTRY_HEADER: string = 'cf-ipcountry';

  /** Country to region, e.g. US:us-east,DE:eu-west; countries not listed use their continent's default. */
  @IsString()
  RELAY_COUNTRY_REGIONS: string = '';

  /** Added to eth_estimateGas when the caller gives no gasLimit. */
  @IsInt() @Min(0) @Max(200)
  RELAY_GAS_BUFFER_PERCENT: number = 20;

  /** How long estimates share one read of a chain's market fees (0 reads them for every submission). */
  @IsInt() @Min(0) @Max(60_000)
  RELAY_FEE_CACHE_MS: number = 1_000;

  /** A broadcast not mined after this long is replaced with bumped fees. */
  @IsInt() @Min(1000)
  RELAY_REPLACE_AFTER_MS: number = 30_000;

  @IsInt() @Min(10) @Max(500)
  RELAY_FEE_BUMP_PERCENT: number = 15;

  /**
   * A re-signed transaction (replacement, re-price under the base fee) never carries a max fee
   * above this multiple of the one it was accepted and reserved with (nor one whose worst case
   * passes the account's per-tx limit).
   */
  @IsInt() @Min(1) @Max(100)
  RELAY_MAX_FEE_MULTIPLE: number = 3;

  @IsInt() @Min(1) @Max(500)
  RELAY_SEND_CONCURRENCY: number = 50;

  /**
   * Transactions signed and not yet mined per relayer key: nodes keep about 16 pending per
   * sender and hosted RPCs refuse more. Work beyond it waits for a slot (stays accepted).
   */
  @IsInt() @Min(1) @Max(1000)
  RELAY_MAX_IN_FLIGHT_PER_KEY: number = 16;

  /** How long a send job waits in the worker for a free key before it is queued again (not counted as a retry). */
  @IsInt() @Min(100) @Max(60_000)
  RELAY_SLOT_WAIT_MS: number = 5_000;

  /** Receipt polling; chains with flashBlocks use RELAY_FLASHBLOCKS_POLL_MS. */
  @IsInt() @Min(10)
  RELAY_RECEIPT_POLL_MS: number = 250;

  @IsInt() @Min(10) @Max(1000)
  RELAY_FLASHBLOCKS_POLL_MS: number = 75;

  /**
   * While transactions are in flight the chain's head (one eth_blockNumber) is read at least this
   * often, receipts fetched when it moved: how late after its block a transaction shows EXECUTED.
   * 0 = no such cap (the poll slows to RELAY_RECEIPT_POLL_MS).
   */
  @IsInt() @Min(0) @Max(10_000)
  RELAY_HEAD_POLL_MS: number = 25;

  @IsInt() @Min(500)
  RELAY_RECONCILE_INTERVAL_MS: number = 5_000;

  /** How often the deposit watcher reads each chain for transfers to deposit addresses (and sweeps credited ones). */
  @IsInt() @Min(200)
  DEPOSIT_WATCH_INTERVAL_MS: number = 5_000;

  // --- bridge (cross-chain swaps) ---
  /** Address of the account whose balance pays the bridge's own transactions (fills, repayments, refunds); empty: the filler does not run. */
  @IsOptional() @Matches(/^(0x[0-9a-fA-F]{40})?$/, { message: 'BRIDGE_ACCOUNT must be an address' })
  BRIDGE_ACCOUNT?: string;

  /** How often the filler reads every chain's spoke for deposits, fills, repayments and refunds. */
  @IsInt() @Min(100)
  BRIDGE_WATCH_INTERVAL_MS: number = 2_000;

  /** A quote's deposit must be filled within this long, or it is refunded after it. */
  @IsInt() @Min(30) @Max(86_400)
  BRIDGE_FILL_DEADLINE_SECONDS: number = 1_800;

  /** The filler's capital cost, in basis points of the bridged amount, on top of the destination gas. */
  @IsInt() @Min(0) @Max(1_000)
  BRIDGE_CAPITAL_FEE_BPS: number = 5;

  /** Below this much of a token (in whole units) a spoke's inventory raises the low-inventory alert. */
  @IsInt() @Min(0)
  BRIDGE_LOW_INVENTORY_UNITS: number = 1_000;

  // --- relayer wallets ---
  /** Balance floor of every relayer key (wei, integer string); a chain's relayerMinBalanceWei wins. Under it a key gets no new work and is topped up. */
  @Matches(/^\d{1,78}$/, { message: 'RELAYER_MIN_BALANCE_WEI must be an integer number of wei' })
  RELAYER_MIN_BALANCE_WEI: string = '10000000000000000';

  /** What a top-up brings a key back to (wei); a chain's relayerTargetBalanceWei wins. Default: 5 × the floor. */
  @IsOptional() @Matches(/^\d{1,78}$/, { message: 'RELAYER_TARGET_BALANCE_WEI must be an integer number of wei' })
  RELAYER_TARGET_BALANCE_WEI?: string;

  /** How often the relayer balances are read and low keys topped up. */
  @IsInt() @Min(200)
  RELAYER_BALANCE_INTERVAL_MS: number = 15_000;

  /** Private key of the treasury that tops up relayer keys (0x + 64 hex). */
  @IsOptional() @Matches(/^0x[0-9a-fA-F]{64}$/, { message: 'RELAYER_TREASURY_KEY must be a 0x-prefixed 32-byte private key' })
  RELAYER_TREASURY_KEY?: string;

  /** Or the treasury as a path on RELAYER_MNEMONIC, e.g. m/44'/60'/99'/0/0. */
  @IsOptional() @Matches(/^m(\/\d{1,10}'?){1,10}$/, { message: "RELAYER_TREASURY_PATH must be a BIP-32 path like m/44'/60'/99'/0/0" })
  RELAYER_TREASURY_PATH?: string;

  /** Optional URL that receives operator alerts (relayer key low, topped up, treasury short) as JSON POSTs. */
  @IsOptional() @Matches(/^https?:\/\/.+/, { message: 'OPERATOR_WEBHOOK_URL must be an http(s) URL' })
  OPERATOR_WEBHOOK_URL?: string;

  // --- webhooks ---
  /**
   * AES-256-GCM key for webhook secrets at rest (outbound auth secrets, signing secrets):
   * 32 bytes as 64 hex digits or base64. Unset turns webhooks off (registration answers
   * SYSTEM_002), so deployments without webhooks need no key.
   */
  @IsOptional()
  @Matches(/^([0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)$/, { message: 'WEBHOOK_ENCRYPTION_KEY must be 32 bytes as 64 hex digits or base64' })
  WEBHOOK_ENCRYPTION_KEY?: string;

  /** Lets webhooks reach loopback, private and link-local addresses: local stacks and tests only. */
  @Transform(toBool) @IsBoolean()
  WEBHOOK_ALLOW_PRIVATE: boolean = false;

  /** One delivery attempt, connect to last byte. */
  @IsInt() @Min(100) @Max(60_000)
  WEBHOOK_TIMEOUT_MS: number = 10_000;

  /** Wait before each retry (comma-separated ms); after the last one fails the delivery is dead-lettered. */
  @Matches(/^\d+(,\d+){0,19}$/, { message: 'WEBHOOK_RETRY_SCHEDULE_MS must be a comma-separated list of milliseconds' })
  WEBHOOK_RETRY_SCHEDULE_MS: string = '5000,30000,120000,600000,1800000,3600000';

  /** Safety-net pass over undispatched events and due deliveries (the Redis signal is the fast path). */
  @IsInt() @Min(100)
  WEBHOOK_SWEEP_INTERVAL_MS: number = 5_000;

  /** Delivery attempts one worker runs at once. */
  @IsInt() @Min(1) @Max(500)
  WEBHOOK_CONCURRENCY: number = 20;

  /** Delivery attempts of one account one worker runs at once, so a slow account cannot hold every slot. */
  @IsInt() @Min(1) @Max(500)
  WEBHOOK_MAX_CONCURRENT_PER_ACCOUNT: number = 4;

  /** Failed attempts in a row (timeout, connection error, non-2xx) that open a webhook's circuit. */
  @IsInt() @Min(1) @Max(1000)
  WEBHOOK_CIRCUIT_FAILURES: number = 5;

  /** How long an open circuit short-circuits a webhook's attempts before one trial attempt is let through. */
  @IsInt() @Min(100) @Max(86_400_000)
  WEBHOOK_CIRCUIT_COOLDOWN_MS: number = 60_000;

  /**
   * Lets an account's approval webhook be plain http outside NODE_ENV development/test (where it
   * always may): a deployment whose approval endpoints sit on a private network it trusts.
   */
  @Transform(toBool) @IsBoolean()
  APPROVAL_WEBHOOK_ALLOW_HTTP: boolean = false;

  // --- vault ---
  /** How long a vault quote can be submitted to POST /v1/deposits. */
  @IsInt() @Min(10) @Max(3600)
  VAULT_QUOTE_TTL_SECONDS: number = 120;

  /** The signed batch's on-chain deadline is the quote's expiry plus this, so a quote submitted at the last second still has time to be mined. */
  @IsInt() @Min(30) @Max(86_400)
  VAULT_SETTLEMENT_GRACE_SECONDS: number = 600;

  /** Share-price sampling period of every configured venue. */
  @IsInt() @Min(200)
  VAULT_SAMPLE_INTERVAL_MS: number = 60_000;

  /** APY is measured between the oldest sample inside this window and the newest one. */
  @IsInt() @Min(60)
  VAULT_APY_WINDOW_SECONDS: number = 7 * 86_400;

  /** Samples must span at least this long before a venue has an APY (and can be offered). */
  @IsInt() @Min(1)
  VAULT_APY_MIN_SPAN_SECONDS: number = 3_600;

  /** Largest share of a deposit the diversified solver puts into one venue (basis points). */
  @IsInt() @Min(1_000) @Max(10_000)
  VAULT_DIVERSIFIED_CAP_BPS: number = 6_000;

  // --- gasless ---
  /** Permit deadline of a gasless quote when the request gives no deadlineMinutes (also the quote's validity). */
  @IsInt() @Min(1) @Max(1440)
  GASLESS_DEADLINE_MINUTES: number = 30;

  /** Headroom added to the settlement's gas cost in the gasless fee: gas prices may rise between quote and inclusion. */
  @IsInt() @Min(0) @Max(50_000)
  GASLESS_FEE_MARGIN_BPS: number = 2_000;

  // --- swap ---
  /** How often the pool indexer polls for a new block (then applies its Sync events with one eth_getLogs). */
  @IsInt() @Min(50)
  SWAP_POOL_REFRESH_MS: number = 500;

  /** Validity of a route quote (its `expiry`), after which build-path-by-id answers 404. */
  @IsInt() @Min(1) @Max(3600)
  SWAP_QUOTE_TTL_SECONDS: number = 60;

  /** SETTLEMENT_DELEGATE_<chainId> variables, collected by validateConfig (chain id -> lowercase address). */
  SETTLEMENT_DELEGATES: Record<number, string> = {};
}

const SETTLEMENT_DELEGATE_VAR = /^SETTLEMENT_DELEGATE_(\d+)$/;

/** The per-chain delegate variables cannot be class fields; each must be an address. */
function settlementDelegates(env: Record<string, unknown>): { delegates: Record<number, string>; errors: string[] } {
  const delegates: Record<number, string> = {};
  const errors: string[] = [];
  for (const [key, value] of Object.entries(env)) {
    const match = SETTLEMENT_DELEGATE_VAR.exec(key);
    if (!match || value === '' || value === undefined) continue;
    if (typeof value !== 'string' || !/^0x[0-9a-fA-F]{40}$/.test(value)) errors.push(`  ${key}: must be a contract address`);
    else delegates[Number(match[1])] = value.toLowerCase();
  }
  return { delegates, errors };
}

export function validateConfig(env: Record<string, unknown>): AppConfig {
  // Empty strings in .env files mean "not set", so defaults apply.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== ''));
  const config = plainToInstance(AppConfig, present, { enableImplicitConversion: true, exposeDefaultValues: true });
  const errors = validateSync(config, { skipMissingProperties: false, whitelist: false });
  const delegates = settlementDelegates(present);
  if (errors.length > 0 || delegates.errors.length > 0) {
    const lines = errors.map((e) => `  ${e.property}: ${Object.values(e.constraints ?? {}).join(', ') || 'invalid'}`);
    throw new Error(`Invalid configuration:\n${[...lines, ...delegates.errors].join('\n')}`);
  }
  config.SETTLEMENT_DELEGATES = delegates.delegates;
  if (config.PUBLIC_ORIGIN === undefined) {
    // A production relay must name itself: a guessed origin would put the wrong domain in every login message.
    if (config.NODE_ENV === 'production') throw new Error('Invalid configuration:\n  PUBLIC_ORIGIN: required in production (the origin users reach the API at, e.g. https://relay.example.com)');
    config.PUBLIC_ORIGIN = `http://localhost:${config.PORT || 3000}`;
  }
  config.PUBLIC_ORIGIN = new URL(config.PUBLIC_ORIGIN).origin;
  if (config.RELAYER_SIGNER === 'pkcs11') {
    const missing = [!config.PKCS11_MODULE && 'PKCS11_MODULE', !config.PKCS11_TOKEN_LABEL && 'PKCS11_TOKEN_LABEL', !config.PKCS11_PIN && !config.PKCS11_PIN_FILE && 'PKCS11_PIN or PKCS11_PIN_FILE'].filter(Boolean);
    if (missing.length) throw new Error(`Invalid configuration:\n  ${missing.join(', ')}: required with RELAYER_SIGNER=pkcs11`);
    // The treasury is then the token's `relayer-treasury`: a key in memory beside it would defeat the token.
    if (config.RELAYER_TREASURY_KEY || config.RELAYER_TREASURY_PATH) throw new Error('Invalid configuration:\n  RELAYER_TREASURY_KEY / RELAYER_TREASURY_PATH: not with RELAYER_SIGNER=pkcs11 (the treasury is the token key labelled relayer-treasury)');
  }
  if (config.RELAYER_TREASURY_KEY && config.RELAYER_TREASURY_PATH) throw new Error('Invalid configuration:\n  RELAYER_TREASURY_KEY and RELAYER_TREASURY_PATH: set one, not both');
  const keyErrors = keySeparationErrors(config);
  if (keyErrors.length > 0) throw new Error(`Invalid configuration:\n${keyErrors.map((e) => `  ${e}`).join('\n')}`);
  if (config.RELAYER_TARGET_BALANCE_WEI !== undefined && BigInt(config.RELAYER_TARGET_BALANCE_WEI) <= BigInt(config.RELAYER_MIN_BALANCE_WEI)) {
    throw new Error('Invalid configuration:\n  RELAYER_TARGET_BALANCE_WEI: must be above RELAYER_MIN_BALANCE_WEI');
  }
  return config;
}
