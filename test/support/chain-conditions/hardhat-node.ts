/**
 * A second node implementation for the test bed: hardhat's node (EDR), so the relay's classifier
 * and pipeline meet another client's answers than anvil's. Started from a generated config in
 * .local/test (inside the repo: hardhat refuses an installation outside its project), hardfork
 * prague, automine, the chain id of the scenario.
 */
import { ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AnvilHandle } from '../../../scripts/devnet/anvil';
import { TEST_STATE_DIR } from '../test-env';

const ROOT = join(__dirname, '..', '..', '..');

export async function startHardhatNode(opts: { port: number; chainId: number }): Promise<AnvilHandle> {
  const dir = join(TEST_STATE_DIR, `hardhat-${opts.chainId}`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'hardhat.config.js'),
    `module.exports = { networks: { hardhat: { chainId: ${opts.chainId}, hardfork: 'prague', mining: { auto: true, interval: 0 }, initialBaseFeePerGas: 1000000000 } } };\n`,
  );
  const child: ChildProcess = spawn(join(ROOT, 'node_modules/.bin/hardhat'), ['node', '--port', String(opts.port), '--hostname', '127.0.0.1'], {
    cwd: dir,
    stdio: ['ignore', 'ignore', 'pipe'],
    env: { ...process.env, HARDHAT_DISABLE_TELEMETRY_PROMPT: 'true' },
  });
  let stderr = '';
  child.stderr?.on('data', (c: Buffer) => (stderr += c.toString()));
  const rpcUrl = `http://127.0.0.1:${opts.port}`;
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    if (child.exitCode !== null) throw new Error(`hardhat node exited with ${child.exitCode}: ${stderr.slice(0, 500)}`);
    const id = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }) })
      .then((r) => r.json() as Promise<{ result?: string }>)
      .catch(() => null);
    if (id?.result && Number(id.result) === opts.chainId) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  if (Date.now() >= until) {
    child.kill('SIGKILL');
    throw new Error('hardhat node did not answer in 60 s');
  }
  return {
    rpcUrl,
    pid: child.pid,
    reused: false,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise<void>((r) => child.once('exit', () => r()));
      child.kill('SIGTERM');
      await Promise.race([exited, new Promise((r) => setTimeout(r, 3000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    },
  };
}
