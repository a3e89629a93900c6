import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';
import { joinSql, rawSql, Sql, sql } from '../../../database/sql';
import { SqlRunner, SqlStore } from '../../../database/sql-store';
import { PolicyTarget, SponsorshipPolicy } from '../domain/policy';

/** The writable fields of a policy (a PATCH names some; null clears). */
export interface PolicyFields {
  name: string;
  enabled: boolean;
  chainIds: number[] | null;
  targets: PolicyTarget[] | null;
  startsAt: Date | null;
  endsAt: Date | null;
  budgetMicro: bigint | null;
  perEndUser: SponsorshipPolicy['perEndUser'];
  allow: string[] | null;
  deny: string[] | null;
  maxGasPriceWei: bigint | null;
}

interface PolicyRow {
  id: string;
  user_id: string;
  name: string;
  enabled: boolean;
  chain_ids: number[] | null;
  targets: PolicyTarget[] | null;
  starts_at: Date | null;
  ends_at: Date | null;
  budget_micro: string | null;
  per_user_max_micro: string | null;
  per_user_max_txs: number | null;
  per_user_window_seconds: number | null;
  allow_end_users: string[] | null;
  deny_end_users: string[] | null;
  max_gas_price_wei: string | null;
  spent_micro: string;
  reserved_micro: string;
  tx_count: number;
  created_at: Date;
}

export interface EndUserUsageRow {
  end_user: string;
  window_start: Date;
  spent_micro: string;
  reserved_micro: string;
  tx_count: number;
}

const big = (v: string | null): bigint | null => (v === null ? null : BigInt(v));

function toPolicy(r: PolicyRow): SponsorshipPolicy {
  return {
    id: r.id,
    userId: r.user_id,
    name: r.name,
    enabled: r.enabled,
    chainIds: r.chain_ids,
    targets: r.targets,
    startsAt: r.starts_at,
    endsAt: r.ends_at,
    budgetMicro: big(r.budget_micro),
    perEndUser: r.per_user_window_seconds === null ? null : { maxMicro: big(r.per_user_max_micro), maxTxs: r.per_user_max_txs, windowSeconds: r.per_user_window_seconds },
    allow: r.allow_end_users,
    deny: r.deny_end_users,
    maxGasPriceWei: big(r.max_gas_price_wei),
    spentMicro: BigInt(r.spent_micro),
    reservedMicro: BigInt(r.reserved_micro),
    txCount: r.tx_count,
    createdAt: r.created_at,
  };
}

/** Column = value pairs for the fields `patch` names. */
function assignments(patch: Partial<PolicyFields>): Sql[] {
  const set: Sql[] = [];
  if (patch.name !== undefined) set.push(sql`name = ${patch.name}`);
  if (patch.enabled !== undefined) set.push(sql`enabled = ${patch.enabled}`);
  if (patch.chainIds !== undefined) set.push(sql`chain_ids = ${patch.chainIds}::int[]`);
  if (patch.targets !== undefined) set.push(sql`targets = ${patch.targets === null ? null : JSON.stringify(patch.targets)}::jsonb`);
  if (patch.startsAt !== undefined) set.push(sql`starts_at = ${patch.startsAt}::timestamptz`);
  if (patch.endsAt !== undefined) set.push(sql`ends_at = ${patch.endsAt}::timestamptz`);
  if (patch.budgetMicro !== undefined) set.push(sql`budget_micro = ${patch.budgetMicro}::bigint`);
  if (patch.perEndUser !== undefined) {
    const p = patch.perEndUser;
    set.push(sql`per_user_max_micro = ${p?.maxMicro ?? null}::bigint`, sql`per_user_max_txs = ${p?.maxTxs ?? null}::int`, sql`per_user_window_seconds = ${p?.windowSeconds ?? null}::int`);
  }
  if (patch.allow !== undefined) set.push(sql`allow_end_users = ${patch.allow}::varchar[]`);
  if (patch.deny !== undefined) set.push(sql`deny_end_users = ${patch.deny}::varchar[]`);
  if (patch.maxGasPriceWei !== undefined) set.push(sql`max_gas_price_wei = ${patch.maxGasPriceWei}::numeric`);
  return set;
}

/** Every statement on `sponsorship_policies` and `sponsorship_policy_end_users` (the usage of each end user). */
@Injectable()
export class PolicyStore extends SqlStore {
  constructor(@InjectDataSource() dataSource: DataSource) {
    super(dataSource);
  }

  /** The account's policies in their order of evaluation (oldest first). */
  async listOf(userId: string, enabledOnly = false): Promise<SponsorshipPolicy[]> {
    const rows = await this.rows<PolicyRow>(
      sql`SELECT * FROM sponsorship_policies WHERE user_id = ${userId}::uuid ${enabledOnly ? sql`AND enabled` : sql``} ORDER BY created_at, id`,
    );
    return rows.map(toPolicy);
  }

  /** The policy when it belongs to `userId`; another account's id reads as absent. */
  async find(userId: string, id: string): Promise<SponsorshipPolicy | null> {
    const row = await this.first<PolicyRow>(sql`SELECT * FROM sponsorship_policies WHERE id = ${id}::uuid AND user_id = ${userId}::uuid`);
    return row ? toPolicy(row) : null;
  }

  async countOf(userId: string): Promise<number> {
    const row = await this.first<{ n: number }>(sql`SELECT count(*)::int AS n FROM sponsorship_policies WHERE user_id = ${userId}::uuid`);
    return row?.n ?? 0;
  }

  async insert(userId: string, f: PolicyFields): Promise<SponsorshipPolicy> {
    const row = await this.first<PolicyRow>(
      sql`INSERT INTO sponsorship_policies (user_id, name, enabled, chain_ids, targets, starts_at, ends_at, budget_micro,
                                            per_user_max_micro, per_user_max_txs, per_user_window_seconds, allow_end_users, deny_end_users, max_gas_price_wei)
          VALUES (${userId}::uuid, ${f.name}, ${f.enabled}, ${f.chainIds}::int[], ${f.targets === null ? null : JSON.stringify(f.targets)}::jsonb,
                  ${f.startsAt}::timestamptz, ${f.endsAt}::timestamptz, ${f.budgetMicro}::bigint,
                  ${f.perEndUser?.maxMicro ?? null}::bigint, ${f.perEndUser?.maxTxs ?? null}::int, ${f.perEndUser?.windowSeconds ?? null}::int,
                  ${f.allow}::varchar[], ${f.deny}::varchar[], ${f.maxGasPriceWei}::numeric)
       RETURNING *`,
    );
    return toPolicy(row!);
  }

  /** The updated policy, or null when `userId` has no policy `id`. */
  async update(userId: string, id: string, patch: Partial<PolicyFields>): Promise<SponsorshipPolicy | null> {
    const set = assignments(patch);
    const row = await this.first<PolicyRow>(
      sql`UPDATE sponsorship_policies SET ${joinSql([...set, sql`updated_at = now()`])} WHERE id = ${id}::uuid AND user_id = ${userId}::uuid RETURNING *`,
    );
    return row ? toPolicy(row) : null;
  }

  async remove(userId: string, id: string): Promise<boolean> {
    return (await this.rows(sql`DELETE FROM sponsorship_policies WHERE id = ${id}::uuid AND user_id = ${userId}::uuid RETURNING id`)).length > 0;
  }

  endUsersOf(policyId: string, limit: number): Promise<EndUserUsageRow[]> {
    return this.rows<EndUserUsageRow>(
      sql`SELECT end_user, window_start, spent_micro::text, reserved_micro::text, tx_count FROM sponsorship_policy_end_users
           WHERE policy_id = ${policyId}::uuid ORDER BY end_user LIMIT ${limit}`,
    );
  }

  /**
   * The policy's budget counts `costMicro` more, only when it still covers it (spent +
   * reserved + cost ≤ budget). A conditional UPDATE: concurrent claims wait on the row's lock
   * and re-check the condition against the committed counters, so they never overshoot.
   */
  async claimBudget(runner: SqlRunner, policyId: string, costMicro: bigint): Promise<boolean> {
    const cost = sql`${costMicro}::bigint`;
    const rows = await this.rows(
      sql`UPDATE sponsorship_policies SET reserved_micro = reserved_micro + ${cost}, tx_count = tx_count + 1, updated_at = now()
           WHERE id = ${policyId}::uuid AND enabled AND (budget_micro IS NULL OR spent_micro + reserved_micro + ${cost} <= budget_micro)
       RETURNING id`,
      runner,
    );
    return rows.length > 0;
  }

  /**
   * The end user's usage counts `costMicro` and one transaction more, in its current window
   * (a new window starting `now` when the last one is over), only when the per-end-user caps
   * still hold. The window it was counted in, or null when refused. Concurrent claims for one
   * end user serialise on the row (ON CONFLICT locks it and re-checks the WHERE).
   */
  async claimEndUser(runner: SqlRunner, policy: SponsorshipPolicy, endUser: string, costMicro: bigint, now: Date): Promise<Date | null> {
    const cost = sql`${costMicro}::bigint`;
    const max = sql`${policy.perEndUser?.maxMicro ?? null}::bigint`;
    const maxTxs = sql`${policy.perEndUser?.maxTxs ?? null}::int`;
    const windowSeconds = policy.perEndUser?.windowSeconds ?? null;
    const over = windowSeconds === null ? sql`false` : sql`(e.window_start + ${windowSeconds}::int * interval '1 second' <= ${now}::timestamptz)`;
    const row = await this.first<{ window_start: Date }>(
      sql`INSERT INTO sponsorship_policy_end_users AS e (policy_id, end_user, window_start, reserved_micro, tx_count)
          SELECT ${policy.id}::uuid, ${endUser}, ${now}::timestamptz, ${cost}, 1
           WHERE (${max} IS NULL OR ${cost} <= ${max}) AND (${maxTxs} IS NULL OR ${maxTxs} >= 1)
          ON CONFLICT (policy_id, end_user) DO UPDATE SET
             window_start = CASE WHEN ${over} THEN EXCLUDED.window_start ELSE e.window_start END,
             spent_micro = CASE WHEN ${over} THEN 0 ELSE e.spent_micro END,
             reserved_micro = CASE WHEN ${over} THEN 0 ELSE e.reserved_micro END + EXCLUDED.reserved_micro,
             tx_count = CASE WHEN ${over} THEN 0 ELSE e.tx_count END + 1
           WHERE ${over} OR ((${max} IS NULL OR e.spent_micro + e.reserved_micro + ${cost} <= ${max}) AND (${maxTxs} IS NULL OR e.tx_count + 1 <= ${maxTxs}))
       RETURNING window_start`,
      runner,
    );
    return row?.window_start ?? null;
  }

  /** Settlement or release of one sponsored transaction in the caller's transaction (see policySettleCtes). */
  async settle(runner: SqlRunner, tx: SponsoredRow, chargedMicro: bigint): Promise<void> {
    if (!tx.policyId || tx.policyReservedMicro === null) return;
    await this.rows(
      sql`WITH sponsored AS (SELECT ${tx.policyId}::uuid AS policy_id, ${tx.endUser}::varchar AS end_user, ${tx.policyReservedMicro}::bigint AS policy_reserved_micro,
                                    ${tx.policyWindowStart}::timestamptz AS policy_window_start),
               ${policySettleCtes('sponsored', chargedMicro)}
          SELECT 1`,
      runner,
    );
  }

  /**
   * A reorg changed what a settled sponsored transaction cost by `deltaMicro` (what the ledger's
   * adjustment applied), in the caller's transaction: the policy's spend and the end user's window
   * it was counted in (left alone once that window has reset) move by as much, never below 0.
   * Its count stays: a transaction mined in another block or with another outcome was still sent.
   */
  async adjustSpent(runner: SqlRunner, tx: SponsoredRow, deltaMicro: bigint): Promise<void> {
    if (!tx.policyId || tx.policyReservedMicro === null || deltaMicro === 0n) return;
    await this.rows(
      sql`WITH policy AS (
            UPDATE sponsorship_policies SET spent_micro = GREATEST(spent_micro + ${deltaMicro}::bigint, 0), updated_at = now() WHERE id = ${tx.policyId}::uuid
          )
          UPDATE sponsorship_policy_end_users SET spent_micro = GREATEST(spent_micro + ${deltaMicro}::bigint, 0)
           WHERE policy_id = ${tx.policyId}::uuid AND end_user = ${tx.endUser} AND window_start = ${tx.policyWindowStart}::timestamptz`,
      runner,
    );
  }
}

/** What a relayed transaction holds of its sponsorship. */
export interface SponsoredRow {
  policyId: string | null;
  endUser: string | null;
  policyReservedMicro: bigint | null;
  policyWindowStart: Date | null;
}

/**
 * The CTEs `policy_settle` and `policy_user_settle`: for each row of the CTE `source` (policy_id,
 * end_user, policy_reserved_micro, policy_window_start), its counted reservation replaced by
 * `chargedMicro` on the policy and on the end user's window it was counted in (a window that
 * has since reset is left alone). A transaction that cost nothing (never sent) gives its count back.
 */
export function policySettleCtes(source: string, chargedMicro: bigint): Sql {
  const src = rawSql(source);
  const charged = sql`${chargedMicro}::bigint`;
  const giveBack = sql`(CASE WHEN ${charged} = 0 THEN 1 ELSE 0 END)`;
  return sql`policy_settle AS (
         UPDATE sponsorship_policies p
            SET reserved_micro = GREATEST(p.reserved_micro - s.policy_reserved_micro, 0), spent_micro = p.spent_micro + ${charged},
                tx_count = GREATEST(p.tx_count - ${giveBack}, 0), updated_at = now()
           FROM ${src} s WHERE s.policy_id IS NOT NULL AND p.id = s.policy_id
       ),
       policy_user_settle AS (
         UPDATE sponsorship_policy_end_users e
            SET reserved_micro = GREATEST(e.reserved_micro - s.policy_reserved_micro, 0), spent_micro = e.spent_micro + ${charged},
                tx_count = GREATEST(e.tx_count - ${giveBack}, 0)
           FROM ${src} s WHERE s.policy_id IS NOT NULL AND e.policy_id = s.policy_id AND e.end_user = s.end_user AND e.window_start = s.policy_window_start
       )`;
}

/**
 * `policySettleCtes` for a batch: each policy (and end user's window) of the `source` rows
 * (policy_id, end_user, policy_window_start, policy_reserved_micro, actual_micro) settled once with
 * the sums of its rows (an UPDATE ... FROM applies one source row per target row); the clamps at 0
 * come out as they would one settlement after another (every amount is subtracted).
 */
export function policySettleManyCtes(source: string): Sql {
  const src = rawSql(source);
  return sql`policy_source AS (
         SELECT policy_id, end_user, policy_window_start, sum(policy_reserved_micro) AS reserved_micro, sum(actual_micro) AS charged_micro,
                count(*) FILTER (WHERE actual_micro = 0) AS given_back
           FROM ${src} WHERE policy_id IS NOT NULL GROUP BY policy_id, end_user, policy_window_start
       ),
       policy_settle AS (
         UPDATE sponsorship_policies p
            SET reserved_micro = GREATEST(p.reserved_micro - s.reserved_micro, 0), spent_micro = p.spent_micro + s.charged_micro,
                tx_count = GREATEST(p.tx_count - s.given_back, 0), updated_at = now()
           FROM (SELECT policy_id, sum(reserved_micro) AS reserved_micro, sum(charged_micro) AS charged_micro, sum(given_back) AS given_back
                   FROM policy_source GROUP BY policy_id) s
          WHERE p.id = s.policy_id
       ),
       policy_user_settle AS (
         UPDATE sponsorship_policy_end_users e
            SET reserved_micro = GREATEST(e.reserved_micro - s.reserved_micro, 0), spent_micro = e.spent_micro + s.charged_micro,
                tx_count = GREATEST(e.tx_count - s.given_back, 0)
           FROM policy_source s WHERE e.policy_id = s.policy_id AND e.end_user = s.end_user AND e.window_start = s.policy_window_start
       )`;
}
