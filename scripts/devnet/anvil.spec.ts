import { readdirSync } from 'fs';
import { tmpdir } from 'os';
import { startAnvil } from './anvil';

/** anvil keeps old states in a cache directory: ours, per instance, gone once it exits. */
describe('startAnvil: state cache', () => {
  const port = Number(process.env.TEST_ANVIL_CACHE_PORT ?? 18989);
  const caches = () => readdirSync(tmpdir()).filter((name) => name.startsWith(`anvil-${port}-`));

  it('gives anvil its own cache directory and removes it when anvil stops', async () => {
    const anvil = await startAnvil({ port, chainId: 31999 });
    try {
      expect(anvil.reused).toBe(false);
      expect(caches()).toHaveLength(1);
    } finally {
      await anvil.stop();
    }
    // Removed by anvil's exit listener, which runs before the one stop() waits on.
    expect(caches()).toEqual([]);
  });
});
