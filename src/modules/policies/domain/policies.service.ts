import { Injectable } from '@nestjs/common';
import { formatUnits, parseUnits } from 'ethers';
import { AppError } from '../../../common/errors/app-error';
import { normalizeAddress } from '../../../common/evm/address';
import { microToUsd, usdToMicro } from '../../../common/money/usd';
import { PolicyDto, PolicyInputDto, PolicyUsageDto } from '../dto/policy.dto';
import { PolicyFields, PolicyStore } from '../store/policy.store';
import { SponsorshipPolicy } from './policy';

/** Enough for campaigns, per-chain and per-contract rules; each submission reads them all. */
export const MAX_POLICIES_PER_ACCOUNT = 50;
/** End users listed by GET /api/policies/{id}/usage (the most recent windows first would need another index; by address). */
const USAGE_END_USERS = 1000;

/**
 * A team's own policies (POST/GET/PATCH/DELETE /api/policies): every read and write is scoped
 * to the caller's account in the statement itself, so another account's id is 404 like a
 * missing one.
 */
@Injectable()
export class PoliciesService {
  constructor(private readonly store: PolicyStore) {}

  async list(userId: string): Promise<PolicyDto[]> {
    return (await this.store.listOf(userId)).map(toPolicyView);
  }

  async get(userId: string, id: string): Promise<PolicyDto> {
    return toPolicyView(await this.owned(userId, id));
  }

  async create(userId: string, input: PolicyInputDto): Promise<PolicyDto> {
    if (input.name === undefined) throw new AppError('VALIDATION_001', 'name is required');
    if ((await this.store.countOf(userId)) >= MAX_POLICIES_PER_ACCOUNT) throw new AppError('VALIDATION_001', `an account has at most ${MAX_POLICIES_PER_ACCOUNT} policies`);
    const patch = fieldsOf(input);
    const fields: PolicyFields = {
      name: input.name,
      enabled: input.enabled ?? true,
      chainIds: null,
      targets: null,
      startsAt: null,
      endsAt: null,
      budgetMicro: null,
      perEndUser: null,
      allow: null,
      deny: null,
      maxGasPriceWei: null,
      ...patch,
    };
    checkWindow(fields.startsAt, fields.endsAt);
    return toPolicyView(await this.store.insert(userId, fields));
  }

  async update(userId: string, id: string, input: PolicyInputDto): Promise<PolicyDto> {
    if (input.name === null) throw new AppError('VALIDATION_001', 'name cannot be cleared');
    if (input.enabled === null) throw new AppError('VALIDATION_001', 'enabled must be true or false');
    const current = await this.owned(userId, id);
    const patch = fieldsOf(input);
    checkWindow(patch.startsAt !== undefined ? patch.startsAt : current.startsAt, patch.endsAt !== undefined ? patch.endsAt : current.endsAt);
    const updated = Object.keys(patch).length === 0 ? current : await this.store.update(userId, id, patch);
    if (!updated) throw notFound(id);
    return toPolicyView(updated);
  }

  async remove(userId: string, id: string): Promise<void> {
    if (!(await this.store.remove(userId, id))) throw notFound(id);
  }

  async usage(userId: string, id: string, now = new Date()): Promise<PolicyUsageDto> {
    const policy = await this.owned(userId, id);
    const rows = await this.store.endUsersOf(policy.id, USAGE_END_USERS);
    const windowMs = policy.perEndUser ? policy.perEndUser.windowSeconds * 1000 : null;
    return {
      spentUsd: microToUsd(policy.spentMicro),
      reservedUsd: microToUsd(policy.reservedMicro),
      txCount: policy.txCount,
      endUsers: rows.map((r) => {
        const resetsAt = windowMs === null ? null : new Date(new Date(r.window_start).getTime() + windowMs);
        // A window that is over counts nothing any more: the next transaction starts a new one.
        const over = resetsAt !== null && resetsAt <= now;
        return {
          address: r.end_user,
          spentUsd: over ? 0 : microToUsd(BigInt(r.spent_micro)),
          txCount: over ? 0 : r.tx_count,
          windowResetsAt: over || resetsAt === null ? null : resetsAt.toISOString(),
        };
      }),
    };
  }

  private async owned(userId: string, id: string): Promise<SponsorshipPolicy> {
    const policy = await this.store.find(userId, id);
    if (!policy) throw notFound(id);
    return policy;
  }
}

function notFound(id: string): AppError {
  return new AppError('RESOURCE_001', `policy ${id} not found`);
}

function checkWindow(startsAt: Date | null, endsAt: Date | null): void {
  if (startsAt && endsAt && endsAt <= startsAt) throw new AppError('VALIDATION_001', 'endsAt must be after startsAt');
}

const addresses = (list: string[] | undefined, field: string): string[] | null =>
  list === undefined
    ? null
    : [...new Set(list.map((a, i) => {
        const address = normalizeAddress(a);
        if (!address) throw new AppError('VALIDATION_001', `${field}[${i}] is not an address`);
        return address;
      }))];

/** The fields the input names, in domain units (micro-USD, wei, lowercase addresses, dates). */
function fieldsOf(input: PolicyInputDto): Partial<PolicyFields> {
  const f: Partial<PolicyFields> = {};
  if (input.name !== undefined && input.name !== null) f.name = input.name;
  if (input.enabled !== undefined && input.enabled !== null) f.enabled = input.enabled;
  if (input.chainIds !== undefined) f.chainIds = input.chainIds === null ? null : [...new Set(input.chainIds)];
  if (input.targets !== undefined) {
    f.targets =
      input.targets === null
        ? null
        : input.targets.map((t) => ({
            address: normalizeAddress(t.address)!,
            ...(t.selectors && t.selectors.length > 0 ? { selectors: [...new Set(t.selectors.map((s) => s.toLowerCase()))] } : {}),
          }));
  }
  if (input.startsAt !== undefined) f.startsAt = input.startsAt === null ? null : new Date(input.startsAt);
  if (input.endsAt !== undefined) f.endsAt = input.endsAt === null ? null : new Date(input.endsAt);
  if (input.budgetUsd !== undefined) f.budgetMicro = input.budgetUsd === null ? null : usdToMicro(input.budgetUsd);
  if (input.perEndUser !== undefined) {
    const p = input.perEndUser;
    f.perEndUser = p === null ? null : { maxMicro: p.maxUsd === undefined || p.maxUsd === null ? null : usdToMicro(p.maxUsd), maxTxs: p.maxTxs ?? null, windowSeconds: p.windowSeconds };
  }
  if (input.endUsers !== undefined) {
    f.allow = input.endUsers === null ? null : addresses(input.endUsers.allow, 'endUsers.allow');
    f.deny = input.endUsers === null ? null : addresses(input.endUsers.deny, 'endUsers.deny');
  }
  if (input.maxGasPriceGwei !== undefined) f.maxGasPriceWei = input.maxGasPriceGwei === null ? null : parseUnits(input.maxGasPriceGwei.toFixed(9), 'gwei');
  return f;
}

export function toPolicyView(p: SponsorshipPolicy): PolicyDto {
  return {
    id: p.id,
    name: p.name,
    enabled: p.enabled,
    ...(p.chainIds ? { chainIds: p.chainIds } : {}),
    ...(p.targets ? { targets: p.targets } : {}),
    ...(p.startsAt ? { startsAt: p.startsAt.toISOString() } : {}),
    ...(p.endsAt ? { endsAt: p.endsAt.toISOString() } : {}),
    ...(p.budgetMicro !== null ? { budgetUsd: microToUsd(p.budgetMicro) } : {}),
    ...(p.perEndUser
      ? {
          perEndUser: {
            ...(p.perEndUser.maxMicro !== null ? { maxUsd: microToUsd(p.perEndUser.maxMicro) } : {}),
            ...(p.perEndUser.maxTxs !== null ? { maxTxs: p.perEndUser.maxTxs } : {}),
            windowSeconds: p.perEndUser.windowSeconds,
          },
        }
      : {}),
    ...(p.allow || p.deny ? { endUsers: { ...(p.allow ? { allow: p.allow } : {}), ...(p.deny ? { deny: p.deny } : {}) } } : {}),
    ...(p.maxGasPriceWei !== null ? { maxGasPriceGwei: Number(formatUnits(p.maxGasPriceWei, 'gwei')) } : {}),
    createdAt: new Date(p.createdAt).toISOString(),
  };
}
