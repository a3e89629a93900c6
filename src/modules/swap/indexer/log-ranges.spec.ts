import { isRangeRefusal, readInRanges } from './log-ranges';

describe('readInRanges', () => {
  it('splits a span into ranges of at most maxRange, in order, reporting each', async () => {
    const seen: Array<[number, number]> = [];
    const done: number[] = [];
    await readInRanges(10, 34, 10, async (a, b) => { seen.push([a, b]); return [a]; }, async (_items, to) => { done.push(to); });
    expect(seen).toEqual([[10, 19], [20, 29], [30, 34]]);
    expect(done).toEqual([19, 29, 34]);
  });

  it('halves a range the provider refuses as too large and goes on at the smaller size', async () => {
    const seen: Array<[number, number]> = [];
    const read = async (a: number, b: number): Promise<number[]> => {
      if (b - a + 1 > 3) throw new Error('query exceeds max block range 3');
      seen.push([a, b]);
      return [];
    };
    await readInRanges(0, 9, 10, read, async () => undefined);
    // 10 refused, 5 refused, 2 passes: the rest goes at 2.
    expect(seen).toEqual([[0, 1], [2, 3], [4, 5], [6, 7], [8, 9]]);
  });

  it('other errors are not retried', async () => {
    await expect(readInRanges(0, 9, 10, async () => { throw new Error('connection refused'); }, async () => undefined)).rejects.toThrow('connection refused');
  });

  it('knows the usual wordings', () => {
    for (const m of ['Log response size exceeded', 'query returned more than 10000 results', 'block range is too wide', 'eth_getLogs is limited to a 10,000 range', 'too many results', 'range too large']) {
      expect({ m, refusal: isRangeRefusal(new Error(m)) }).toEqual({ m, refusal: true });
    }
    expect(isRangeRefusal(new Error('connection refused'))).toBe(false);
    expect(isRangeRefusal(new Error('execution reverted'))).toBe(false);
  });
});
