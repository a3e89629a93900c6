import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { AppError } from '../common/errors/app-error';
import { toAccountView } from '../modules/accounts/domain/account-view';
import { AccountsService } from '../modules/accounts/domain/accounts.service';
import { LedgerService } from '../modules/accounts/domain/ledger.service';
import { AccountLimitsDto, CreateAccountDto, CreditDto } from '../modules/accounts/dto/admin.dto';
import { WebhookDeadLetters } from '../modules/webhooks/admin/dead-letters.service';
import { DeadLetterQueryDto, ReplayDeadLetterDto } from '../modules/webhooks/dto/dead-letter.dto';

type Flags = Map<string, string | true>;

export const USAGE = `relay-admin <command> [options]

  accounts create --address <addr> [--credit-usd N] [--json]
  accounts credit --address <addr> --usd N
  accounts show   --address <addr>
  accounts audit  --address <addr>
  accounts limits --address <addr> [--per-tx N] [--daily N] [--max-retries N]
                  [--breaker true|false] [--streak-limit N] [--disabled-chains 1,2]
                  [--disabled true|false] [--reset-streak]
  keys create --address <addr>
  keys revoke --key <key>
  webhooks dead-letters [--address <addr>] [--limit N]
  webhooks replay --id <dead-letter id>`;

export class UsageError extends Error {}

function need(flags: Flags, name: string): string {
  const value = flags.get(name);
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

function num(flags: Flags, name: string): number | undefined {
  const value = flags.get(name);
  if (value === undefined) return undefined;
  const n = Number(value);
  if (typeof value !== 'string' || !Number.isFinite(n)) throw new UsageError(`--${name} must be a number`);
  return n;
}

function bool(flags: Flags, name: string): boolean | undefined {
  const value = flags.get(name);
  if (value === undefined) return undefined;
  if (value === true || value === 'true') return true;
  if (value === 'false') return false;
  throw new UsageError(`--${name} must be true or false`);
}

/** Validates CLI input with the same DTOs the admin REST API uses. */
async function checked<T extends object>(cls: new () => T, plain: object): Promise<T> {
  const dto = plainToInstance(cls, plain);
  const errors = await validate(dto, { whitelist: true, forbidNonWhitelisted: true });
  if (errors.length) throw new UsageError(errors.flatMap((e) => Object.values(e.constraints ?? {})).join('; '));
  return dto;
}

/** Runs one admin command and returns what to print. */
export async function runAdminCommand(
  words: string[],
  flags: Flags,
  accounts: AccountsService,
  ledger: LedgerService,
  deadLetters: WebhookDeadLetters,
): Promise<unknown> {
  const [group, action] = words;
  switch (`${group} ${action}`) {
    case 'accounts create': {
      const dto = await checked(CreateAccountDto, { address: need(flags, 'address'), creditUsd: num(flags, 'credit-usd') });
      return accounts.create(dto.address, dto.creditUsd ?? 0);
    }
    case 'accounts credit': {
      const dto = await checked(CreditDto, { usd: num(flags, 'usd') });
      return toAccountView(await accounts.credit(need(flags, 'address'), dto.usd));
    }
    case 'accounts show':
      return toAccountView(await accounts.getByAddress(need(flags, 'address')));
    case 'accounts audit': {
      const account = await accounts.getByAddress(need(flags, 'address'));
      const audit = await ledger.audit(account.id);
      return Object.fromEntries(Object.entries(audit).map(([k, v]) => [k, typeof v === 'bigint' ? v.toString() : v]));
    }
    case 'accounts limits': {
      const chains = flags.get('disabled-chains');
      const dto = await checked(AccountLimitsDto, {
        perTxLimit: num(flags, 'per-tx'),
        dailyLimit: num(flags, 'daily'),
        maxRetries: num(flags, 'max-retries'),
        circuitBreakerEnabled: bool(flags, 'breaker'),
        failureCountStreakLimit: num(flags, 'streak-limit'),
        disabledChainIds: typeof chains === 'string' ? chains.split(',').filter(Boolean).map(Number) : undefined,
        disabled: bool(flags, 'disabled'),
        resetFailureStreak: bool(flags, 'reset-streak'),
      });
      return toAccountView(await accounts.setLimits(need(flags, 'address'), dto));
    }
    case 'keys create':
      return accounts.issueKey(need(flags, 'address'));
    case 'keys revoke':
      await accounts.revokeKey(need(flags, 'key'));
      return { revoked: true };
    case 'webhooks dead-letters': {
      const address = flags.get('address');
      const dto = await checked(DeadLetterQueryDto, { address: typeof address === 'string' ? address : undefined, limit: num(flags, 'limit') });
      return deadLetters.list(dto);
    }
    case 'webhooks replay': {
      const dto = await checked(ReplayDeadLetterDto, { id: need(flags, 'id') });
      return deadLetters.replay(dto.id);
    }
    default:
      throw new UsageError(`unknown command: ${words.join(' ') || '(none)'}`);
  }
}

export function describeError(err: unknown): string {
  if (err instanceof AppError) return `${err.code}: ${err.message}`;
  return err instanceof Error ? err.message : String(err);
}
