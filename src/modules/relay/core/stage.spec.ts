import { canMove, INITIAL_STAGES, isFinal, minedStage, move, STAGES, statusOf } from './stage';

describe('relay stages', () => {
  it('derives the public status from the stage', () => {
    expect(STAGES.map((s) => [s, statusOf(s)])).toEqual([
      ['accepted', 'PENDING'],
      ['signed', 'PENDING'],
      ['broadcast', 'PENDING'],
      ['executed', 'EXECUTED'],
      ['reverted', 'FAILED'],
      ['failed', 'FAILED'],
    ]);
  });

  it('never leaves a final stage', () => {
    for (const from of STAGES.filter(isFinal)) for (const to of STAGES) expect(canMove(from, to)).toBe(false);
  });

  it('goes forward on the main line and settles only what was signed', () => {
    expect(canMove('accepted', 'signed')).toBe(true);
    expect(canMove('signed', 'broadcast')).toBe(true);
    expect(canMove('broadcast', 'executed')).toBe(true);
    expect(canMove('signed', 'reverted')).toBe(true);
    // Nothing unsigned can be mined, and a broadcast is never "unbroadcast".
    expect(canMove('accepted', 'executed')).toBe(false);
    expect(canMove('accepted', 'broadcast')).toBe(false);
    expect(canMove('broadcast', 'signed')).toBe(false);
  });

  it('builds a move from every stage allowed to reach the target, with its time column', () => {
    expect(move('executed')).toEqual({ from: ['signed', 'broadcast'], to: 'executed', status: 'EXECUTED', stamp: 'settled_at' });
    expect(move('signed')).toEqual({ from: ['accepted'], to: 'signed', status: 'PENDING', stamp: 'signed_at' });
    expect(move('broadcast', ['signed'])).toEqual({ from: ['signed'], to: 'broadcast', status: 'PENDING', stamp: 'broadcast_at' });
    expect(move('accepted', ['signed', 'broadcast']).stamp).toBeNull();
    expect(move('failed').from).toEqual(['accepted', 'signed', 'broadcast']);
  });

  it('refuses a move the table does not allow', () => {
    expect(() => move('signed', ['broadcast'])).toThrow('broadcast → signed');
    expect(() => move('executed', ['accepted', 'signed'])).toThrow('not allowed');
    expect(() => move('accepted', [])).toThrow('not allowed');
  });

  it('settles a receipt by its status, and starts rows only in stages a submission can produce', () => {
    expect(minedStage(1)).toBe('executed');
    expect(minedStage(0)).toBe('reverted');
    expect(INITIAL_STAGES).not.toContain('broadcast');
    expect(INITIAL_STAGES).not.toContain('reverted');
  });
});
