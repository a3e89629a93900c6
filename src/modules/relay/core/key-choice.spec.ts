import { capAfterRefusal, pickKey } from './key-choice';

describe('pickKey', () => {
  it('takes the least loaded key under its cap', () => {
    expect(pickKey([3, 1, 2], [16, 16, 16], 0)).toBe(1);
    expect(pickKey([3, 1, 0], [16, 16, 16], 0)).toBe(2);
  });

  it('skips keys at their cap even when they are the least loaded', () => {
    expect(pickKey([4, 16, 2], [16, 16, 2], 0)).toBe(0);
  });

  it('answers -1 when every key is at its bound', () => {
    expect(pickKey([16, 16], [16, 16], 0)).toBe(-1);
    expect(pickKey([], [], 0)).toBe(-1);
  });

  it('breaks ties from the rotating start, so an idle pool is used round-robin', () => {
    const loads = [0, 0, 0, 0];
    const caps = [16, 16, 16, 16];
    expect([0, 1, 2, 3, 4, 5].map((s) => pickKey(loads, caps, s))).toEqual([0, 1, 2, 3, 0, 1]);
  });

  it('spreads a burst evenly: taking N slots one by one fills every key to the same level', () => {
    const loads = [0, 0, 0];
    const caps = [4, 4, 4];
    const taken: number[] = [];
    for (let turn = 0; turn < 14; turn++) {
      const k = pickKey(loads, caps, turn);
      if (k === -1) break;
      loads[k]++;
      taken.push(k);
      expect(Math.max(...loads) - Math.min(...loads)).toBeLessThanOrEqual(1);
    }
    expect(taken).toHaveLength(12);
    expect(loads).toEqual([4, 4, 4]);
  });
});

describe('capAfterRefusal', () => {
  it('caps the key below what it held when the node refused, within [1, bound]', () => {
    expect(capAfterRefusal(10, 16)).toBe(9);
    expect(capAfterRefusal(40, 16)).toBe(16);
    expect(capAfterRefusal(1, 16)).toBe(1);
  });
});
