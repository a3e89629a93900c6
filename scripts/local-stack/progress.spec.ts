import { progress } from './progress';

describe('npm start progress lines', () => {
  it('prints a line when a step starts, its notes, and one with its duration when it ends or fails', async () => {
    const lines: string[] = [];
    const p = progress((line) => lines.push(line));
    await p.step('chains', async (note) => note('anvil up'));
    await expect(p.step('API', async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(lines).toEqual([
      expect.stringMatching(/^\[ +\d+\.\ds\] chains \.\.\.$/),
      '           anvil up',
      expect.stringMatching(/^\[ +\d+\.\ds\] chains: done in \d+\.\ds$/),
      expect.stringMatching(/^\[ +\d+\.\ds\] API \.\.\.$/),
      expect.stringMatching(/^\[ +\d+\.\ds\] API: failed after \d+\.\ds$/),
    ]);
  });
});
