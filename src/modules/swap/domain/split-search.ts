import { FloatBook, type FloatPath, type FloatState } from './float-sim';
import type { Path } from './types';

export interface SplitOptions {
  /** Chunks of the greedy first allocation (each goes to the path paying most for it right then). */
  chunks: number;
  /** Most legs one route may have. */
  maxLegs: number;
  /** Bound on the refinement's improving moves (each costs one simulation per candidate path). */
  refineMoves: number;
}

export const DEFAULT_SPLIT: SplitOptions = { chunks: 48, maxLegs: 12, refineMoves: 48 };

/** An allocation: input per path, in the order the legs run. */
export interface Allocation {
  paths: FloatPath[];
  amounts: number[];
}

/**
 * Allocates an input across candidate paths that may share pools. Legs run one after another on
 * one set of pool states (as the executor runs them), so a leg through a pool an earlier leg used
 * meets the price that leg left; every evaluation here simulates exactly that, in floating point.
 *
 * 1. Greedy: the input in `chunks` equal parts, each to the path whose output for it is largest
 *    on the states the earlier chunks left (marginal-price water-filling at chunk resolution).
 * 2. Refinement, continuous: with a step starting at half a chunk, the best transfer of `step`
 *    from one leg to another path (a used or a new one) by the simulated total is applied while
 *    it pays; otherwise the step halves, down to a millionth of the input.
 */
export class SplitSearch {
  readonly book = new FloatBook();
  readonly paths: FloatPath[];
  private readonly legScratch: FloatPath[] = [];

  constructor(paths: Path[]) {
    this.paths = paths.map((p) => this.book.compile(p));
  }

  /** Simulated total output of an allocation, legs in order, on fresh states. */
  total(order: number[], amounts: number[]): number {
    for (let k = 0; k < order.length; k++) this.legScratch[k] = this.paths[order[k]];
    this.legScratch.length = order.length;
    const states = this.book.resetFor(this.legScratch);
    let sum = 0;
    for (const i of order) {
      if (amounts[i] <= 0) continue;
      const out = this.book.run(states, this.paths[i], amounts[i], true);
      if (!(out > 0)) return -Infinity;
      sum += out;
    }
    return sum;
  }

  optimize(amountIn: number, options: SplitOptions = DEFAULT_SPLIT, only?: number[]): { order: number[]; amounts: number[]; total: number } {
    const n = this.paths.length;
    const eligible = only ?? this.paths.map((_, i) => i);
    const amounts = new Array<number>(n).fill(0);
    const order: number[] = [];
    const chunk = amountIn / options.chunks;

    // 1. Greedy chunks on one evolving set of states.
    const states: FloatState[] = this.book.fresh();
    for (let c = 0; c < options.chunks; c++) {
      let best = -1;
      let bestOut = 0;
      for (const i of eligible) {
        if (amounts[i] === 0 && order.length >= options.maxLegs) continue;
        const out = this.book.run(states, this.paths[i], chunk, false);
        if (out > bestOut) {
          bestOut = out;
          best = i;
        }
      }
      if (best < 0) return { order: [], amounts, total: 0 };
      this.book.run(states, this.paths[best], chunk, true);
      if (amounts[best] === 0) order.push(best);
      amounts[best] += chunk;
    }

    // 2. Continuous refinement of the leg-by-leg simulation.
    let total = this.total(order, amounts);
    let step = chunk / 2;
    const minStep = amountIn * 1e-6;
    let moves = 0;
    while (step >= minStep && moves < options.refineMoves) {
      // What each leg loses by giving up `step`, and what each path gains by taking it.
      let bestFrom = -1;
      let bestLoss = Infinity;
      let bestFromAmount = 0;
      for (const i of order) {
        const give = Math.min(step, amounts[i]);
        if (give <= 0) continue;
        amounts[i] -= give;
        const loss = (total - this.total(order, amounts)) / give;
        amounts[i] += give;
        if (loss < bestLoss) {
          bestLoss = loss;
          bestFrom = i;
          bestFromAmount = give;
        }
      }
      let bestTo = -1;
      let bestGain = -Infinity;
      for (const j of eligible) {
        if (j === bestFrom) continue;
        const isNew = amounts[j] === 0;
        if (isNew && order.filter((i) => amounts[i] > 0).length >= options.maxLegs && amounts[bestFrom] > bestFromAmount) continue;
        amounts[j] += bestFromAmount;
        const gain = (this.total(isNew ? [...order, j] : order, amounts) - total) / bestFromAmount;
        amounts[j] -= bestFromAmount;
        if (gain > bestGain) {
          bestGain = gain;
          bestTo = j;
        }
      }
      if (bestFrom < 0 || bestTo < 0 || bestGain <= bestLoss) {
        step /= 2;
        continue;
      }
      amounts[bestFrom] -= bestFromAmount;
      amounts[bestTo] += bestFromAmount;
      const nextOrder = order.includes(bestTo) ? order : [...order, bestTo];
      const next = this.total(nextOrder, amounts);
      moves++;
      if (next > total) {
        total = next;
        if (nextOrder !== order) order.push(bestTo);
        if (amounts[bestFrom] <= 0) {
          amounts[bestFrom] = 0;
          order.splice(order.indexOf(bestFrom), 1);
        }
      } else {
        amounts[bestFrom] += bestFromAmount;
        amounts[bestTo] -= bestFromAmount;
        step /= 2;
      }
    }
    return { order: order.filter((i) => amounts[i] > 0), amounts, total };
  }
}

/**
 * Integer leg inputs summing exactly to amountIn, from float shares (the rounding remainder to
 * the largest leg).
 */
export function integerShares(amountIn: bigint, shares: number[]): bigint[] {
  const sum = shares.reduce((a, b) => a + b, 0);
  const SCALE = 1n << 48n;
  const out = shares.map((s) => (amountIn * BigInt(Math.floor((s / sum) * 2 ** 48))) / SCALE);
  const assigned = out.reduce((a, b) => a + b, 0n);
  let largest = 0;
  for (let i = 1; i < out.length; i++) if (out[i] > out[largest]) largest = i;
  if (out.length > 0) out[largest] += amountIn - assigned;
  return out;
}
