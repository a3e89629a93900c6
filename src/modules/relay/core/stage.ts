/**
 * Where a relayed transaction is in the pipeline: the whole of its state. The public `status`
 * follows from it; the moves between stages are written once, here, and every statement that
 * changes a row's stage builds its SET and WHERE from `move`, so a step only acts on the stage it
 * expects.
 *
 *   accepted         reserved, not signed (no nonce)
 *   signed           nonce claimed and signed bytes stored; no node has acknowledged them yet
 *   broadcast        a node accepted one of its signed transactions
 *   mined_executed   mined with status 1 and settled; not yet at the chain's confirmation depth
 *   mined_reverted   mined with status 0 and settled (gas charged); not yet at depth
 *   mined_cancelled  its cancellation was mined and settled (gas charged); not yet at depth
 *   executed         mined with status 1, settled and final
 *   reverted         mined with status 0, settled and final
 *   failed           final: never mined (refused, given up, rejected by an exchange; released),
 *                    or its cancellation mined at depth
 *
 * A chain taken as seen (0 confirmations) settles straight into the final stages. A reorg moves
 * a `mined_*` row to the `mined_*` stage of what the canonical chain now holds; at depth it moves
 * to its final stage. A final stage never changes.
 */
export const STAGES = ['accepted', 'signed', 'broadcast', 'mined_executed', 'mined_reverted', 'mined_cancelled', 'executed', 'reverted', 'failed'] as const;
export type Stage = (typeof STAGES)[number];

export const TX_STATUSES = ['PENDING', 'EXECUTED', 'FAILED'] as const;
export type TxStatus = (typeof TX_STATUSES)[number];

/** What a settled row's transaction came to: the final stage it ends in. */
export type Outcome = Extract<Stage, 'executed' | 'reverted' | 'failed'>;

/** Settled, mined, and not yet at its chain's confirmation depth: a reorg may still correct it. */
export const MINED: readonly Stage[] = ['mined_executed', 'mined_reverted', 'mined_cancelled'];

const MINED_OF: Record<Outcome, Stage> = { executed: 'mined_executed', reverted: 'mined_reverted', failed: 'mined_cancelled' };

/**
 * The allowed moves. `signed|broadcast → accepted` releases a nonce another transaction
 * consumed; `mined_* → mined_*` is a reorg correction; `mined_* → final` is finality at depth.
 */
const MOVES: Record<Stage, readonly Stage[]> = {
  accepted: ['signed', 'failed'],
  signed: ['broadcast', 'accepted', ...MINED, 'executed', 'reverted', 'failed'],
  broadcast: ['accepted', ...MINED, 'executed', 'reverted', 'failed'],
  mined_executed: ['mined_reverted', 'mined_cancelled', 'executed'],
  mined_reverted: ['mined_executed', 'mined_cancelled', 'reverted'],
  mined_cancelled: ['mined_executed', 'mined_reverted', 'failed'],
  executed: [],
  reverted: [],
  failed: [],
};

/**
 * Stages a row may be written with: accepted (every relayed submission), signed (a
 * funding-signed transaction arrives with its signed bytes), and the terminal stages of an
 * exchange action, which the exchange decides before the row is written.
 */
export const INITIAL_STAGES: readonly Stage[] = ['accepted', 'signed', 'executed', 'failed'];

/** Still in the pipeline: not yet mined or given up. */
export const IN_FLIGHT: readonly Stage[] = ['accepted', 'signed', 'broadcast'];

/** Signed bytes exist and may be in a node's pool: the stages a receipt or a replacement acts on. */
export const SENT: readonly Stage[] = ['signed', 'broadcast'];

export function statusOf(stage: Stage): TxStatus {
  if (IN_FLIGHT.includes(stage)) return 'PENDING';
  return outcomeOf(stage) === 'executed' ? 'EXECUTED' : 'FAILED';
}

/** What a settled stage's transaction came to (null while in flight). */
export function outcomeOf(stage: Stage): Outcome | null {
  if (IN_FLIGHT.includes(stage)) return null;
  if (stage === 'mined_executed') return 'executed';
  if (stage === 'mined_reverted') return 'reverted';
  if (stage === 'mined_cancelled') return 'failed';
  return stage as Outcome;
}

export function isFinal(stage: Stage): boolean {
  return MOVES[stage].length === 0;
}

export function canMove(from: Stage, to: Stage): boolean {
  return MOVES[from].includes(to);
}

/** The time column a stage sets when a row enters it. */
export type StageStamp = 'signed_at' | 'broadcast_at' | 'settled_at';

export interface Move {
  from: readonly Stage[];
  to: Stage;
  status: TxStatus;
  stamp: StageStamp | null;
}

/**
 * A move into `to` from any of `from` (default: every stage that may move there). Throws for a
 * move the table above does not allow: a programming error, caught by the unit spec and the
 * first test that takes the path, never by a client.
 */
export function move(to: Stage, from: readonly Stage[] = STAGES.filter((s) => canMove(s, to))): Move {
  const illegal = from.filter((s) => !canMove(s, to));
  if (illegal.length > 0 || from.length === 0) throw new Error(`stage move ${from.join('|') || '(none)'} → ${to} is not allowed`);
  return { from, to, status: statusOf(to), stamp: stampOf(to) };
}

/** Settled stages keep the first settlement's time (`COALESCE` in the move's SET); finality has its own column. */
function stampOf(stage: Stage): StageStamp | null {
  if (stage === 'signed') return 'signed_at';
  if (stage === 'broadcast') return 'broadcast_at';
  if (outcomeOf(stage)) return 'settled_at';
  return null;
}

/** The outcome of a mined receipt (`cancellation`: the relay's own cancel at the row's nonce). */
export function minedOutcome(receiptStatus: number, cancellation = false): Outcome {
  if (cancellation) return 'failed';
  return receiptStatus === 1 ? 'executed' : 'reverted';
}

/** The stage a settlement of `outcome` moves to: final at once on a chain taken as seen, else mined and followed to depth. */
export function settledStage(outcome: Outcome, final: boolean): Stage {
  return final ? outcome : MINED_OF[outcome];
}

/** The move that makes a mined row final: to the final stage of its outcome. */
export function finalityMove(from: Stage): Move {
  const outcome = outcomeOf(from);
  if (!outcome || !MINED.includes(from)) throw new Error(`stage ${from} has no finality move`);
  return move(outcome, [from]);
}
