import { canMove, finalityMove, INITIAL_STAGES, isFinal, MINED, minedOutcome, move, settledStage, STAGES, statusOf } from './stage';

describe('relay stages', () => {
  it('derives the public status from the stage', () => {
    expect(STAGES.map((s) => [s, statusOf(s)])).toEqual([
      ['accepted', 'PENDING'],
      ['signed', 'PENDING'],
      ['broadcast', 'PENDING'],
      ['mined_executed', 'EXECUTED'],
      ['mined_reverted', 'FAILED'],
      ['mined_cancelled', 'FAILED'],
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
    expect(move('executed')).toEqual({ from: ['signed', 'broadcast', 'mined_executed'], to: 'executed', status: 'EXECUTED', stamp: 'settled_at' });
    expect(move('mined_executed', ['signed', 'broadcast'])).toEqual({ from: ['signed', 'broadcast'], to: 'mined_executed', status: 'EXECUTED', stamp: 'settled_at' });
    expect(move('signed')).toEqual({ from: ['accepted'], to: 'signed', status: 'PENDING', stamp: 'signed_at' });
    expect(move('broadcast', ['signed'])).toEqual({ from: ['signed'], to: 'broadcast', status: 'PENDING', stamp: 'broadcast_at' });
    expect(move('accepted', ['signed', 'broadcast']).stamp).toBeNull();
    expect(move('failed').from).toEqual(['accepted', 'signed', 'broadcast', 'mined_cancelled']);
  });

  it('refuses a move the table does not allow', () => {
    expect(() => move('signed', ['broadcast'])).toThrow('broadcast → signed');
    expect(() => move('executed', ['accepted', 'signed'])).toThrow('not allowed');
    expect(() => move('accepted', [])).toThrow('not allowed');
  });

  it('settles a receipt by its status, and starts rows only in stages a submission can produce', () => {
    expect(minedOutcome(1)).toBe('executed');
    expect(minedOutcome(0)).toBe('reverted');
    expect(minedOutcome(1, true)).toBe('failed');
    expect(settledStage('executed', true)).toBe('executed');
    expect(settledStage('reverted', false)).toBe('mined_reverted');
    expect(settledStage('failed', false)).toBe('mined_cancelled');
    expect(INITIAL_STAGES).not.toContain('broadcast');
    expect(INITIAL_STAGES).not.toContain('reverted');
  });

  it('corrects a mined row after a reorg only among the mined stages, and never with a change of public status it could not have', () => {
    for (const from of MINED) for (const to of MINED) expect(canMove(from, to)).toBe(from !== to);
    // A final row is never corrected, and nothing unsettled jumps to finality through a mined stage.
    for (const from of STAGES.filter(isFinal)) for (const to of MINED) expect(canMove(from, to)).toBe(false);
    expect(canMove('accepted', 'mined_executed')).toBe(false);
  });

  it('makes a mined row final by a move to its outcome, and only a mined row', () => {
    expect(finalityMove('mined_executed')).toEqual({ from: ['mined_executed'], to: 'executed', status: 'EXECUTED', stamp: 'settled_at' });
    expect(finalityMove('mined_reverted').to).toBe('reverted');
    expect(finalityMove('mined_cancelled')).toMatchObject({ to: 'failed', status: 'FAILED' });
    expect(() => finalityMove('broadcast')).toThrow('no finality move');
    expect(() => finalityMove('executed')).toThrow('no finality move');
    // Finality never changes the public status.
    for (const from of MINED) expect(statusOf(finalityMove(from).to)).toBe(statusOf(from));
  });
});
