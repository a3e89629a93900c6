import { readFileSync } from 'node:fs';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { toAccountView } from '../modules/accounts/domain/account-view';
import { cliActor, outcomeOf } from '../modules/accounts/admin/audit/admin-audit-log.service';
import type { AdminAuditLog } from '../modules/accounts/admin/audit/admin-audit-log.service';
import type { AccountsService } from '../modules/accounts/domain/accounts.service';
import type { LedgerService } from '../modules/accounts/domain/ledger.service';
import { AccountLimitsDto, CreateAccountDto, CreditDto, KeyRateLimitDto } from '../modules/accounts/dto/admin.dto';
import type { ChainAuditService } from '../modules/relay/audit/chain-audit.service';
import type { RelayerKeyState, RelayerKeyStore } from '../modules/relay/store/relayer-key.store';
import { AppError } from '../common/errors/app-error';
import { checksumAddress, normalizeAddress } from '../common/evm/address';
import { ChainAuditQueryDto } from '../modules/relay/http/dto/chain-audit.dto';
import type { WebhookDeadLetters } from '../modules/webhooks/admin/dead-letters.service';
import { DeadLetterQueryDto, ReplayDeadLetterDto } from '../modules/webhooks/dto/dead-letter.dto';

/** Services a command needs; resolved only once a command actually runs (help and usage errors open no connection). */
export interface AdminServices {
  accounts: AccountsService;
  ledger: LedgerService;
  deadLetters: WebhookDeadLetters;
  /** Every command that changes something is recorded here first (the same log as the REST API's). */
  audit: AdminAuditLog;
  /** Relayer key states (relayer_keys), as `relayers list|retire|activate` change them. */
  relayerKeys: RelayerKeyStore;
  /** Loaded only by the audit commands (they open chain connections). */
  chainAudit: () => Promise<ChainAuditService>;
}

export class UsageError extends Error {}

const number = (value: string): number => {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n)) throw new InvalidArgumentError('must be a number');
  return n;
};
const integer = (value: string): number => {
  const n = number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError('must be a non-negative integer');
  return n;
};
const boolean = (value: string): boolean => {
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw new InvalidArgumentError('must be true or false');
};
const chainIds = (value: string): number[] => value.split(',').filter(Boolean).map((id) => integer(id));
/** Comma-separated; an empty value is the empty list (no restriction). */
const list = (value: string): string[] => value.split(',').map((v) => v.trim()).filter(Boolean);
// A parser returning null would make commander store `true`: the words travel as they are.
const numberOrNone = (value: string): number | 'none' => (value === 'none' ? 'none' : number(value));
const rateLimit = (value: string): number | 'default' => (value === 'default' ? 'default' : integer(value));
/** A JSON array given inline, or the path of a file holding one. */
const jsonArray = (value: string): unknown[] => {
  let text = value.trim();
  if (!text.startsWith('[')) {
    try {
      text = readFileSync(value, 'utf8');
    } catch (err) {
      throw new InvalidArgumentError(`neither a JSON array nor a readable file: ${(err as Error).message}`);
    }
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (!Array.isArray(parsed)) throw new Error('not an array');
    return parsed;
  } catch (err) {
    throw new InvalidArgumentError(`must be a JSON array of {chainId?, address, selectors?}: ${(err as Error).message}`);
  }
};

/** Validates CLI input with the same DTOs the admin REST API uses. */
async function checked<T extends object>(cls: new () => T, plain: object): Promise<T> {
  const dto = plainToInstance(cls, plain);
  const errors = await validate(dto, { whitelist: true, forbidNonWhitelisted: true });
  if (errors.length) throw new UsageError(errors.flatMap((e) => Object.values(e.constraints ?? {})).join('; '));
  return dto;
}

/**
 * relay-admin on commander: every flag declared, unknown flags and stray arguments refused, a
 * help text per command. `run` receives what a command returns, to print it.
 */
export function buildAdminProgram(services: () => Promise<AdminServices>, print: (result: unknown, json: boolean) => void): Command {
  const program = new Command('relay-admin')
    .description('Operator commands: accounts, API keys, webhook dead letters (same service as the admin REST API)')
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ writeErr: (text) => process.stderr.write(text) });
  const json = new Option('--json', 'print compact JSON');
  const address = new Option('--address <addr>', 'wallet address of the account').makeOptionMandatory();
  const action =
    <O>(fn: (s: AdminServices, options: O) => Promise<unknown>) =>
    async (options: O & { json?: boolean }): Promise<void> =>
      print(await fn(await services(), options), options.json === true);
  // A changing command: in the audit log before it runs, with its outcome after (usage errors are 400s, as over REST).
  const audited =
    <O extends object>(name: string, target: (options: O) => string | null, fn: (s: AdminServices, options: O) => Promise<unknown>) =>
    async (options: O & { json?: boolean }): Promise<void> => {
      const s = await services();
      const { json: asJson, ...body } = options;
      const entry = { actor: cliActor(), source: 'cli' as const, action: name, target: target(options), body, ip: null };
      print(await s.audit.record(entry, () => fn(s, options), cliOutcome), asJson === true);
    };
  const group = (name: string, description: string) => program.command(name).description(description).exitOverride();
  const command = (parent: Command, name: string, description: string) =>
    parent.command(name).description(description).allowExcessArguments(false).allowUnknownOption(false).exitOverride().addOption(json);

  const accounts = group('accounts', 'accounts and their balances and limits');
  command(accounts, 'create', 'create an account with its first API key (shown once)')
    .addOption(address)
    .option('--credit-usd <n>', 'initial credit in USD', number)
    .action(audited('accounts create', (o: { address: string }) => o.address, async (s, o: { address: string; creditUsd?: number }) => {
      const dto = await checked(CreateAccountDto, { address: o.address, creditUsd: o.creditUsd });
      return s.accounts.create(dto.address, dto.creditUsd ?? 0);
    }));
  command(accounts, 'credit', 'credit USD to an account')
    .addOption(address)
    .requiredOption('--usd <n>', 'USD to add', number)
    .action(audited('accounts credit', (o: { address: string }) => o.address, async (s, o: { address: string; usd: number }) => {
      const dto = await checked(CreditDto, { usd: o.usd });
      return toAccountView(await s.accounts.credit(o.address, dto.usd));
    }));
  command(accounts, 'show', 'show an account')
    .addOption(address)
    .action(action(async (s, o: { address: string }) => toAccountView(await s.accounts.getByAddress(o.address))));
  command(accounts, 'audit', "compare the cached balances with the ledger sums, and the account's final transactions with the chain")
    .addOption(address)
    .option('--chain-id <id>', 'check only this chain', integer)
    .option('--since <iso>', 'check only transactions created at or after this time')
    .action(action(async (s, o: { address: string; chainId?: number; since?: string }) => {
      const query = await checked(ChainAuditQueryDto, { chainId: o.chainId, since: o.since === undefined ? undefined : new Date(o.since) });
      const account = await s.accounts.getByAddress(o.address);
      const audit = await s.ledger.audit(account.id);
      const chain = await (await s.chainAudit()).audit({ chainId: query.chainId, since: query.since, userId: account.id });
      return { ...Object.fromEntries(Object.entries(audit).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v])), chain };
    }));
  command(program, 'audit', 'check every final relayed transaction against the chain and the ledger (all accounts)')
    .option('--chain-id <id>', 'check only this chain', integer)
    .option('--since <iso>', 'check only transactions created at or after this time')
    .option('--limit <n>', 'rows to check at most', integer)
    .action(action(async (s, o: { chainId?: number; since?: string; limit?: number }) => {
      const query = await checked(ChainAuditQueryDto, { chainId: o.chainId, since: o.since === undefined ? undefined : new Date(o.since), limit: o.limit });
      return (await s.chainAudit()).audit({ chainId: query.chainId, since: query.since }, query.limit);
    }));
  command(accounts, 'limits', 'set spend limits, retry policy, breaker, disabled chains and the account policy (only the flags given change)')
    .addOption(address)
    .option('--per-tx <n>', 'USD per transaction', number)
    .option('--daily <n>', 'USD per UTC day', number)
    .option('--max-retries <n>', 'retries of a failed send', integer)
    .option('--breaker <bool>', 'circuit breaker on (true) or off (false)', boolean)
    .option('--streak-limit <n>', 'failures in a row that open the breaker', integer)
    .option('--disabled-chains <ids>', 'comma-separated chain ids the account may not use', chainIds)
    .option('--disabled <bool>', 'disable (true) or enable (false) the account', boolean)
    .option('--reset-streak', 'reset the failure streak to 0')
    .option('--legacy-derivation <bool>', "while true, paths only this account used before per-account derivation send from their old addresses (to move what they hold)", boolean)
    .option('--ip-whitelist <list>', "comma-separated IPs or CIDR blocks allowed to use the account's keys ('' = any)", list)
    .option('--domain-whitelist <list>', "comma-separated host names or *.domain wildcards allowed as Origin ('' = any)", list)
    .option('--allowed-targets <file|json>', 'JSON array of {chainId?, address, selectors?}, inline or in a file ([] = any)', jsonArray)
    .option('--low-balance-usd <n|none>', 'account.low_balance event below this many USD (none removes it)', numberOrNone)
    .option('--approval-webhook <url>', 'approval webhook asked before each sponsorship (with --approval-secret)')
    .option('--approval-secret <whsec>', 'its Standard Webhooks signing secret (whsec_...)')
    .option('--approval-enabled <bool>', 'switch the approval webhook on (true) or off (false)', boolean)
    .option('--remove-approval-webhook', 'remove the approval webhook')
    .action(audited('accounts limits', (o: { address: string }) => o.address, async (s, o: { address: string; perTx?: number; daily?: number; maxRetries?: number; breaker?: boolean; streakLimit?: number; disabledChains?: number[]; disabled?: boolean; resetStreak?: boolean; legacyDerivation?: boolean; ipWhitelist?: string[]; domainWhitelist?: string[]; allowedTargets?: unknown[]; lowBalanceUsd?: number | 'none'; approvalWebhook?: string; approvalSecret?: string; approvalEnabled?: boolean; removeApprovalWebhook?: boolean }) => {
      if (o.removeApprovalWebhook && (o.approvalWebhook !== undefined || o.approvalSecret !== undefined || o.approvalEnabled !== undefined)) {
        throw new UsageError('--remove-approval-webhook cannot be combined with the other --approval-* flags');
      }
      const approval = o.approvalWebhook !== undefined || o.approvalSecret !== undefined || o.approvalEnabled !== undefined
        ? { url: o.approvalWebhook, secret: o.approvalSecret, enabled: o.approvalEnabled }
        : undefined;
      const dto = await checked(AccountLimitsDto, {
        perTxLimit: o.perTx,
        dailyLimit: o.daily,
        maxRetries: o.maxRetries,
        circuitBreakerEnabled: o.breaker,
        failureCountStreakLimit: o.streakLimit,
        disabledChainIds: o.disabledChains,
        disabled: o.disabled,
        resetFailureStreak: o.resetStreak,
        legacyDerivation: o.legacyDerivation,
        ipWhitelist: o.ipWhitelist,
        domainWhitelist: o.domainWhitelist,
        allowedTargets: o.allowedTargets,
        lowBalanceThresholdUsd: o.lowBalanceUsd === 'none' ? null : o.lowBalanceUsd,
        approvalWebhook: o.removeApprovalWebhook ? null : approval,
      });
      return toAccountView(await s.accounts.setLimits(o.address, dto));
    }));
  command(accounts, 'list', 'accounts, newest first')
    .option('--limit <n>', 'at most this many', integer, 50)
    .option('--offset <n>', 'skip this many', integer, 0)
    .action(action(async (s, o: { limit: number; offset: number }) => (await s.accounts.list({ limit: Math.min(o.limit, 500), offset: o.offset })).map((a) => toAccountView(a))));

  const keys = group('keys', 'API keys');
  command(keys, 'create', 'issue another API key for an account (shown once)')
    .addOption(address)
    .action(audited('keys create', (o: { address: string }) => o.address, (s, o: { address: string }) => s.accounts.issueKey(o.address)));
  command(keys, 'revoke', 'revoke an API key')
    .requiredOption('--key <key>', 'the plain API key')
    .action(audited('keys revoke', (o: { key: string }) => `key ${o.key.slice(0, 10)}…`, async (s, o: { key: string }) => {
      await s.accounts.revokeKey(o.key);
      return { revoked: true };
    }));
  command(keys, 'rate-limit', "set a key's requests per minute on the submit and quote endpoints")
    .requiredOption('--key-id <id>', 'key id (from keys list)')
    .requiredOption('--per-minute <n|default>', 'requests per minute, or default for the deployment default', rateLimit)
    .action(audited('keys rate-limit', (o: { keyId: string }) => o.keyId, async (s, o: { keyId: string; perMinute: number | 'default' }) => {
      const dto = await checked(KeyRateLimitDto, { rateLimitPerMinute: o.perMinute === 'default' ? null : o.perMinute });
      await s.accounts.setKeyRateLimit(o.keyId, dto.rateLimitPerMinute);
      return { keyId: o.keyId, rateLimitPerMinute: dto.rateLimitPerMinute };
    }));
  command(keys, 'list', "an account's API keys (prefix, created, revoked; never the key)")
    .addOption(address)
    .action(action((s, o: { address: string }) => s.accounts.listKeys(o.address)));

  const relayers = group('relayers', 'relayer keys: lifecycle states (the same as POST /admin/relayers/{address}/retire|activate)');
  const relayer = new Option('--address <addr>', 'address of the relayer key').makeOptionMandatory();
  // A key is known once a running service has listed it (relayer_keys); an unknown one is RESOURCE_001, as over REST.
  const moveKey = async (s: AdminServices, input: string, from: RelayerKeyState[], to: RelayerKeyState) => {
    const address = normalizeAddress(input);
    if (!address) throw new UsageError(`--address ${input} is not an address`);
    const row = (await s.relayerKeys.all()).find((k) => k.address === address);
    if (!row) throw new AppError('RESOURCE_001', `${input} is not a relayer key`);
    await s.relayerKeys.transition(address, from, to);
    const after = (await s.relayerKeys.all()).find((k) => k.address === address)!;
    return { region: after.region, address: checksumAddress(after.address), signer: after.signer, state: after.state };
  };
  command(relayers, 'list', 'every relayer key with its region, signer backend and state')
    .action(action(async (s) => (await s.relayerKeys.all()).map((k) => ({ region: k.region, address: checksumAddress(k.address), signer: k.signer, state: k.state, since: k.stateChangedAt.toISOString() }))));
  command(relayers, 'retire', 'no new work for the key; in-flight work finishes, then its balance on every chain goes to the treasury and it is retired')
    .addOption(relayer)
    .action(audited('relayers retire', (o: { address: string }) => o.address, (s, o: { address: string }) => moveKey(s, o.address, ['active'], 'draining')));
  command(relayers, 'activate', 'bring a draining or retired key back into its pool')
    .addOption(relayer)
    .action(audited('relayers activate', (o: { address: string }) => o.address, (s, o: { address: string }) => moveKey(s, o.address, ['draining', 'retired'], 'active')));

  const webhooks = group('webhooks', 'webhook delivery');
  command(webhooks, 'dead-letters', 'deliveries whose retries ran out, newest first')
    .option('--address <addr>', 'only this account')
    .option('--limit <n>', 'at most this many (default 50, at most 500)', integer)
    .action(action(async (s, o: { address?: string; limit?: number }) => s.deadLetters.list(await checked(DeadLetterQueryDto, { address: o.address, limit: o.limit }))));
  command(webhooks, 'replay', 'deliver a dead letter again with a fresh retry schedule')
    .requiredOption('--id <id>', 'dead-letter (delivery) id')
    .action(audited('webhooks replay', (o: { id: string }) => o.id, async (s, o: { id: string }) => s.deadLetters.replay((await checked(ReplayDeadLetterDto, { id: o.id })).id)));

  return program;
}

function cliOutcome(err: unknown): { status: number; errorCode: string } {
  return err instanceof UsageError ? { status: 400, errorCode: 'VALIDATION_004' } : outcomeOf(err);
}

export { CommanderError };
