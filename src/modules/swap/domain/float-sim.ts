import type { Path, PoolState } from './types';
import { lastTickAtOrBelow } from './v3-ticks';

/**
 * Floating-point models of the pools, for the search only: choosing among paths and allocating
 * an input across them takes thousands of evaluations, which exact integer math cannot afford
 * inside a quote. Every amount a route states is recomputed exactly (pool-sim.ts) afterwards.
 */

interface V2Static {
  kind: 'v2';
  /** 1 - fee. */
  g: number;
  r0: number;
  r1: number;
}

interface V3Static {
  kind: 'v3';
  g: number;
  /** Real sqrt price (token1 per token0, raw units) and active liquidity now. */
  s: number;
  L: number;
  /** Initialized ticks: sqrt price and liquidityNet, ascending. */
  sq: Float64Array;
  net: Float64Array;
  /** Index of the last initialized tick at or below the current tick. */
  below: number;
}

type Static = V2Static | V3Static;

const statics = new WeakMap<PoolState, Static>();

/** The pool's float model; computed once per pool state (pool objects are replaced, never mutated). */
export function floatStatic(pool: PoolState): Static {
  let st = statics.get(pool);
  if (st) return st;
  if (pool.kind === 'v2') {
    st = { kind: 'v2', g: 1 - pool.provider.feeBps / 10_000, r0: Number(pool.reserve0), r1: Number(pool.reserve1) };
  } else {
    const sq = new Float64Array(pool.ticks.length);
    const net = new Float64Array(pool.ticks.length);
    pool.ticks.forEach((t, i) => {
      sq[i] = Math.pow(1.0001, t.index / 2);
      net[i] = Number(t.liquidityNet);
    });
    st = { kind: 'v3', g: 1 - pool.fee / 1_000_000, s: Number(pool.sqrtPriceX96) / 2 ** 96, L: Number(pool.liquidity), sq, net, below: lastTickAtOrBelow(pool.ticks, pool.tick) };
  }
  statics.set(pool, st);
  return st;
}

/** Mutable state of one pool during a search: [a, b, c] = V2 (r0, r1, -) or V3 (s, L, below). */
export type FloatState = Float64Array;

export function freshState(st: Static): FloatState {
  return freshStateInto(st, new Float64Array(3));
}

/** Writes the pool's initial state into `into` (no allocation). */
export function freshStateInto(st: Static, into: FloatState): FloatState {
  if (st.kind === 'v2') {
    into[0] = st.r0;
    into[1] = st.r1;
    into[2] = 0;
  } else {
    into[0] = st.s;
    into[1] = st.L;
    into[2] = st.below;
  }
  return into;
}

/**
 * Output of swapping x on a pool in state `state`; with apply, the state moves. -Infinity when
 * the pool cannot take all of x (a V3 pool running out of ticks).
 */
export function floatSwap(st: Static, state: FloatState, zeroForOne: boolean, x: number, apply: boolean): number {
  if (x <= 0) return 0;
  if (st.kind === 'v2') {
    const rIn = zeroForOne ? state[0] : state[1];
    const rOut = zeroForOne ? state[1] : state[0];
    const gx = st.g * x;
    const out = (gx * rOut) / (rIn + gx);
    if (apply) {
      state[zeroForOne ? 0 : 1] = rIn + x;
      state[zeroForOne ? 1 : 0] = rOut - out;
    }
    return out;
  }
  let rest = x * st.g;
  let s = state[0];
  let L = state[1];
  let below = state[2];
  let out = 0;
  const n = st.sq.length;
  if (zeroForOne) {
    for (;;) {
      if (below < 0) return -Infinity;
      const sB = st.sq[below];
      if (L > 0) {
        const dx = L * (1 / sB - 1 / s);
        if (rest < dx) {
          // L·(s - s') with s' = L·s / (L + x·s), written without the cancelling difference.
          const d = L + rest * s;
          out += (L * rest * s * s) / d;
          s = (L * s) / d;
          break;
        }
        out += L * (s - sB);
        rest -= dx;
      }
      s = sB;
      L -= st.net[below];
      below--;
    }
  } else {
    for (;;) {
      if (below + 1 >= n) return -Infinity;
      const sA = st.sq[below + 1];
      if (L > 0) {
        const dy = L * (sA - s);
        if (rest < dy) {
          // L·(1/s - 1/s') with s' = s + y/L, written without the cancelling difference.
          const s2 = s + rest / L;
          out += rest / (s * s2);
          s = s2;
          break;
        }
        out += L * (1 / s - 1 / sA);
        rest -= dy;
      }
      s = sA;
      L += st.net[below + 1];
      below++;
    }
  }
  if (apply) {
    state[0] = s;
    state[1] = L;
    state[2] = below;
  }
  return out;
}

/** A path compiled against a search's pool table. */
export interface FloatPath {
  path: Path;
  pools: number[];
  zeroForOne: boolean[];
}

/** The pools of a set of paths as a table of float models and states, so a search can copy all states at once. */
export class FloatBook {
  readonly statics: Static[] = [];
  readonly base: FloatState[] = [];
  private readonly index = new Map<string, number>();

  compile(path: Path): FloatPath {
    const pools: number[] = [];
    const zeroForOne: boolean[] = [];
    for (const hop of path.hops) {
      let i = this.index.get(hop.pool.address);
      if (i === undefined) {
        i = this.statics.length;
        this.index.set(hop.pool.address, i);
        const st = floatStatic(hop.pool);
        this.statics.push(st);
        this.base.push(freshState(st));
      }
      pools.push(i);
      zeroForOne.push(hop.tokenIn === hop.pool.token0);
    }
    return { path, pools, zeroForOne };
  }

  fresh(): FloatState[] {
    return this.base.map((s) => s.slice());
  }

  private scratch: FloatState[] | null = null;

  /** Working states with the given paths' pools reset to their initial state (reused between calls; no allocation). */
  resetFor(paths: FloatPath[]): FloatState[] {
    const scratch = (this.scratch ??= this.fresh());
    for (const p of paths) for (const i of p.pools) scratch[i].set(this.base[i]);
    return scratch;
  }

  /** Output of a path for x on the given states; with apply the states move. */
  run(states: FloatState[], p: FloatPath, x: number, apply: boolean): number {
    let amount = x;
    for (let h = 0; h < p.pools.length; h++) {
      const i = p.pools[h];
      amount = floatSwap(this.statics[i], states[i], p.zeroForOne[h], amount, apply);
      if (!(amount > 0)) return amount === 0 ? 0 : -Infinity;
    }
    return amount;
  }
}
