import { exceedsJsonDepth } from './json-depth';

describe('exceedsJsonDepth', () => {
  const deep = (n: number) => Buffer.from('['.repeat(n) + ']'.repeat(n));

  it('counts arrays and objects, up to and past the limit', () => {
    expect(exceedsJsonDepth(deep(32), 32)).toBe(false);
    expect(exceedsJsonDepth(deep(33), 32)).toBe(true);
    expect(exceedsJsonDepth(Buffer.from('{"a":{"b":[1,{"c":2}]}}'), 4)).toBe(false);
    expect(exceedsJsonDepth(Buffer.from('{"a":{"b":[1,{"c":2}]}}'), 3)).toBe(true);
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    expect(exceedsJsonDepth(Buffer.from(JSON.stringify({ a: '[[[[{{{{', b: 'x\\"[[[[' })), 1)).toBe(false);
    expect(exceedsJsonDepth(Buffer.from(JSON.stringify(['"[[', ['\\'], [[1]]])), 3)).toBe(false);
    expect(exceedsJsonDepth(Buffer.from(JSON.stringify(['"[[', ['\\'], [[1]]])), 2)).toBe(true);
  });

  it('stops at the first level past the limit of a 10,000-level body', () => {
    expect(exceedsJsonDepth(deep(10_000), 32)).toBe(true);
  });
});
