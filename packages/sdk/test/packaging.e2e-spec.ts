import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { newSigningSecret, signedHeaders } from '../../../src/modules/webhooks/signing/standard-webhooks';
import { ensureSdkBuilt, REPO_DIR, SDK_DIR } from './support/build-sdk';

const run = promisify(execFile);

/**
 * The package as a consumer installs it: `npm pack` of the built workspace, unpacked into the
 * node_modules of a temporary project (inside the repository, so the SDK's own dependencies
 * resolve from the root node_modules as they would from the consumer's), then required from
 * CommonJS, imported from ESM and typechecked with Node16 resolution.
 */
describe('SDK package: dual ESM/CJS with an exports map', () => {
  let consumer: string;
  const secret = newSigningSecret();
  const body = JSON.stringify({ event: 'webhook.test', userId: 'u1', timestamp: '2026-01-01T00:00:00.000Z' });
  const headers = signedHeaders(secret, 'evt_pack', body);

  beforeAll(async () => {
    await ensureSdkBuilt();
    mkdirSync(join(REPO_DIR, '.local'), { recursive: true });
    consumer = mkdtempSync(join(REPO_DIR, '.local', 'sdk-consumer-'));
    const packed = join(consumer, 'packed');
    mkdirSync(packed);
    await run('npm', ['pack', '--silent', '--pack-destination', packed], { cwd: SDK_DIR });
    const [tarball] = readdirSync(packed);
    const target = join(consumer, 'node_modules', '@gas-relay', 'sdk');
    mkdirSync(target, { recursive: true });
    await run('tar', ['-xzf', join(packed, tarball), '-C', target, '--strip-components=1']);
    writeFileSync(join(consumer, 'package.json'), JSON.stringify({ name: 'consumer', private: true }));
    writeFileSync(join(consumer, 'fixture.json'), JSON.stringify({ secret, body, headers }));
  }, 180_000);

  afterAll(() => consumer && rmSync(consumer, { recursive: true, force: true }));

  const node = async (file: string, source: string): Promise<Record<string, unknown>> => {
    writeFileSync(join(consumer, file), source);
    const { stdout } = await run(process.execPath, [file], { cwd: consumer });
    return JSON.parse(stdout);
  };

  it('require() loads the CommonJS build of both entries', async () => {
    const out = await node(
      'consumer.cjs',
      `const sdk = require('@gas-relay/sdk');
       const server = require('@gas-relay/sdk/server');
       const f = require('./fixture.json');
       const client = new sdk.RelayClient({ baseUrl: 'http://relay.test' });
       console.log(JSON.stringify({
         main: require.resolve('@gas-relay/sdk'), server: require.resolve('@gas-relay/sdk/server'),
         client: client instanceof sdk.RelayClient && typeof client.vault.sign === 'function',
         exports: Object.keys(sdk).sort(), event: server.verifyWebhook(f.secret, f.body, f.headers).event,
         legacy: sdk.verifyWebhookSignature({ secret: f.secret, headers: f.headers, rawBody: f.body }),
       }));`,
    );
    expect(out.main).toMatch(/node_modules\/@gas-relay\/sdk\/dist\/cjs\/index\.cjs$/);
    expect(out.server).toMatch(/dist\/cjs\/server\.cjs$/);
    expect(out).toMatchObject({ client: true, event: 'webhook.test', legacy: true });
    expect(out.exports).toEqual(expect.arrayContaining(['RelayClient', 'RelayApiError', 'RelayTimeoutError', 'fromEthers', 'fromViem', 'subscribe', 'isFinal', 'verifyWebhookSignature']));
  });

  it('import() loads the ESM build of both entries', async () => {
    const out = await node(
      'consumer.mjs',
      `import { RelayClient, RelayApiError } from '@gas-relay/sdk';
       import { verifyWebhook, WebhookVerificationError } from '@gas-relay/sdk/server';
       import { readFileSync } from 'node:fs';
       const f = JSON.parse(readFileSync('./fixture.json', 'utf8'));
       const dynamic = await import('@gas-relay/sdk');
       let refused = false;
       try { verifyWebhook(f.secret, f.body + ' ', f.headers); } catch (e) { refused = e instanceof WebhookVerificationError; }
       const err = await new RelayClient({ baseUrl: 'http://127.0.0.1:9', retry: false }).chains().catch((e) => e);
       console.log(JSON.stringify({
         main: import.meta.resolve('@gas-relay/sdk'), server: import.meta.resolve('@gas-relay/sdk/server'),
         same: dynamic.RelayClient === RelayClient, event: verifyWebhook(f.secret, f.body, f.headers).event, refused,
         networkError: err instanceof RelayApiError && err.status === 0,
       }));`,
    );
    expect(out.main).toMatch(/dist\/esm\/index\.mjs$/);
    expect(out.server).toMatch(/dist\/esm\/server\.mjs$/);
    expect(out).toMatchObject({ same: true, event: 'webhook.test', refused: true, networkError: true });
  });

  it('its types resolve for ESM and CommonJS consumers (tsc, module node16), deep imports are closed', async () => {
    const use = `import { RelayClient, fromViem, type WalletSigner, type TxRecord } from '@gas-relay/sdk';
      import { verifyWebhook, type WebhookEvent } from '@gas-relay/sdk/server';
      const client: RelayClient = new RelayClient({ baseUrl: 'http://relay.test', retry: { attempts: 2 } });
      export const use = (w: WalletSigner, r: TxRecord, e: WebhookEvent) => [client.auth.login(w), r.status, e.event, fromViem, verifyWebhook];\n`;
    writeFileSync(join(consumer, 'typed.mts'), use);
    writeFileSync(join(consumer, 'typed.cts'), use);
    writeFileSync(join(consumer, 'bad.mts'), `import { x } from '@gas-relay/sdk/dist/esm/webhook-verify.mjs';\nexport default x;\n`);
    const tsc = join(REPO_DIR, 'node_modules', 'typescript', 'bin', 'tsc');
    const flags = ['--noEmit', '--module', 'node16', '--moduleResolution', 'node16', '--target', 'es2022', '--strict', '--skipLibCheck', '--types', 'node', '--typeRoots', join(REPO_DIR, 'node_modules', '@types')];
    await expect(run(process.execPath, [tsc, ...flags, 'typed.mts', 'typed.cts'], { cwd: consumer })).resolves.toBeDefined();
    const bad = await run(process.execPath, [tsc, ...flags, 'bad.mts'], { cwd: consumer }).catch((e: { stdout: string }) => e.stdout);
    expect(bad).toMatch(/TS2307|not exported|Cannot find module/);
  }, 120_000);
});
