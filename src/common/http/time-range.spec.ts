import { AppError } from '../errors/app-error';
import { resolveRange } from './time-range';

describe('resolveRange', () => {
  const now = new Date('2026-11-28T00:00:00.000Z');
  it('defaults to the last 31 days', () => {
    expect(resolveRange({}, now)).toEqual({ from: new Date('2026-10-28T00:00:00.000Z'), to: now });
  });
  it('accepts exactly 31 days, refuses more and an empty or inverted range', () => {
    expect(resolveRange({ from: '2026-10-01T00:00:00Z', to: '2026-11-01T00:00:00Z' }).from.toISOString()).toBe('2026-10-01T00:00:00.000Z');
    for (const q of [{ from: '2026-10-01T00:00:00Z', to: '2026-11-01T00:00:01Z' }, { from: '2026-11-01T00:00:00Z', to: '2026-11-01T00:00:00Z' }, { from: '2026-11-02T00:00:00Z', to: '2026-11-01T00:00:00Z' }]) {
      expect(() => resolveRange(q)).toThrow(AppError);
    }
  });
});
