import { parseArgs } from './parse-args';

describe('parseArgs', () => {
  it('separates words, valued flags, inline values and bare flags', () => {
    const { words, flags } = parseArgs(['accounts', 'create', '--address', '0xabc', '--credit-usd=5', '--json']);
    expect(words).toEqual(['accounts', 'create']);
    expect(flags.get('address')).toBe('0xabc');
    expect(flags.get('credit-usd')).toBe('5');
    expect(flags.get('json')).toBe(true);
  });
});
