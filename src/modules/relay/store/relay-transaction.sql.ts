import { joinSql, rawSql, Sql, sql } from '../../../database/sql';
import { IN_FLIGHT, MINED, Move, statusOf } from '../core/stage';

/**
 * A stage move as SQL: the SET part (stage, the status derived from it, the stage's time
 * column) and the WHERE part (the row is in one of the stages the move starts from). Every
 * statement that changes a row's stage uses these two, so no step can skip the table of moves.
 */
export function moveSet(m: Move): Sql {
  const parts = [sql`stage = ${m.to}`, sql`status = ${m.status}`, sql`updated_at = now()`];
  if (m.stamp) parts.push(sql`${rawSql(m.stamp)} = COALESCE(${rawSql(m.stamp)}, now())`);
  return joinSql(parts);
}

/**
 * `moveSet` for a statement that moves many rows at once, each to its own stage: the stage and
 * status from the statement's columns `stageColumn`/`statusColumn`, which must hold the `to` and
 * `status` of `moves` (one per row, in the statement's order). Every move starts from the same
 * stages and sets the same time column (`moveWhere` of any of them is the WHERE).
 */
export function movesSet(moves: readonly Move[], stageColumn: Sql, statusColumn: Sql): Sql {
  const [first] = moves;
  if (!first) throw new Error('movesSet needs at least one move');
  for (const m of moves) {
    if (m.stamp !== first.stamp || m.from.length !== first.from.length || m.from.some((s, i) => s !== first.from[i])) {
      throw new Error(`moves ${first.from.join('|')} → ${first.to} and ${m.from.join('|')} → ${m.to} cannot share one statement`);
    }
  }
  const parts = [sql`stage = ${stageColumn}`, sql`status = ${statusColumn}`, sql`updated_at = now()`];
  if (first.stamp) parts.push(sql`${rawSql(first.stamp)} = COALESCE(${rawSql(first.stamp)}, now())`);
  return joinSql(parts);
}

export function moveWhere(m: Move): Sql {
  return sql`stage = ANY(${[...m.from]}::varchar[])`;
}

/** Ids of the transactions still in the pipeline (PENDING is exactly the in-flight stages, and it is indexed). */
export function inFlightTxIds(): Sql {
  return sql`SELECT id FROM relay_transactions WHERE status = ${statusOf(IN_FLIGHT[0])}`;
}

/** Ids of `sender`'s settled transactions on `chainId` not yet final at the chain's depth (a mined stage). */
export function unfinalizedTxIds(chainId: number, sender: string): Sql {
  return sql`SELECT id FROM relay_transactions WHERE chain_id = ${chainId} AND stage = ANY(${[...MINED]}::varchar[]) AND sender = ${sender}`;
}

/**
 * The chain of the relayed transaction a ledger reference (`tx:<id>`) names, or NULL for any
 * other reference; the CASE keeps a malformed reference from failing the uuid cast.
 */
export function chainIdOfTxReference(reference: Sql): Sql {
  return sql`(SELECT rt.chain_id FROM relay_transactions rt
               WHERE rt.id = CASE WHEN ${reference} ~ '^tx:[0-9a-f-]{36}$' THEN substring(${reference} FROM 4)::uuid END)`;
}

const isoOf = (column: string): Sql => rawSql(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/** The columns behind a record's `stages`, for a RETURNING list. */
export const STAGE_COLUMNS = rawSql('created_at, signed_at, broadcast_at, mined_at, settled_at');

/**
 * A status event's payload with `stages` as the statement wrote them (the row's own clock), so
 * the outbox (webhooks) and the record agree to the millisecond; `payload` is the JSON built
 * before the statement.
 */
export function payloadWithStages(payload: string | Sql): Sql {
  return sql`(${payload}::jsonb || jsonb_build_object('stages', jsonb_build_object('acceptedAt', ${isoOf('created_at')}, 'signedAt', ${isoOf('signed_at')},
            'broadcastAt', ${isoOf('broadcast_at')}, 'minedAt', ${isoOf('mined_at')}, 'settledAt', ${isoOf('settled_at')})))`;
}
