/**
 * Where a relayed transaction is in the pipeline. The public `status` follows from it; the
 * moves between stages are written once, here, and every statement that changes a row's stage
 * builds its SET and WHERE from `move`, so a step only acts on the stage it expects.
 *
 *   accepted  reserved, not signed (no nonce)
 *   signed    nonce claimed and signed bytes stored; no node has acknowledged them yet
 *   broadcast a node accepted one of its signed transactions
 *   executed  mined with status 1 and settled
 *   reverted  mined with status 0 and settled (gas charged)
 *   failed    never mined: refused, given up, or rejected by an exchange; released
 */
export const STAGES = ['accepted', 'signed', 'broadcast', 'executed', 'reverted', 'failed'] as const;
export type Stage = (typeof STAGES)[number];

export const TX_STATUSES = ['PENDING', 'EXECUTED', 'FAILED'] as const;
export type TxStatus = (typeof TX_STATUSES)[number];

/** The allowed moves. `signed|broadcast → accepted` releases a nonce another transaction consumed. */
const MOVES: Record<Stage, readonly Stage[]> = {
  accepted: ['signed', 'failed'],
  signed: ['broadcast', 'accepted', 'executed', 'reverted', 'failed'],
  broadcast: ['accepted', 'executed', 'reverted', 'failed'],
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
  if (stage === 'executed') return 'EXECUTED';
  if (stage === 'reverted' || stage === 'failed') return 'FAILED';
  return 'PENDING';
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

function stampOf(stage: Stage): StageStamp | null {
  if (stage === 'signed') return 'signed_at';
  if (stage === 'broadcast') return 'broadcast_at';
  if (isFinal(stage)) return 'settled_at';
  return null;
}

/** The settled stage of a mined receipt. */
export function minedStage(receiptStatus: number): Stage {
  return receiptStatus === 1 ? 'executed' : 'reverted';
}
