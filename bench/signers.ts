/**
 * `npm run bench:signers`: signing latency per relayer-key backend, measured in one run so the
 * ratio compares like with like: `local` (the key in memory, libsecp256k1 when its prebuilt
 * binding loads) and `pkcs11` (a secp256k1 key generated inside a SoftHSM2 token made for the run
 * in a temporary directory; CKM_ECDSA, then low-s and the recovery id in the service).
 * Each backend signs the same EIP-1559 transactions (fresh nonce each time), after a warm-up.
 * Prints a table and, last, one JSON line.
 *
 * Settings: BENCH_SIGN_N [2000], SOFTHSM2_MODULE [/usr/lib/softhsm/libsofthsm2.so].
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Wallet } from 'ethers';
import { measureSigning } from './sign-speed';

const N = Number(process.env.BENCH_SIGN_N ?? 2000);
const MODULE = process.env.SOFTHSM2_MODULE ?? '/usr/lib/softhsm/libsofthsm2.so';
const LABEL = 'relay-bench';
const PIN = '246810';

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'relay-bench-softhsm-'));
  try {
    mkdirTokens(dir);
    // Before the library loads: SoftHSM reads its conf once, at C_Initialize.
    process.env.SOFTHSM2_CONF = join(dir, 'softhsm2.conf');
    execFileSync('softhsm2-util', ['--init-token', '--free', '--label', LABEL, '--pin', PIN, '--so-pin', '13579111'], { stdio: 'pipe' });
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const pkcs11js = require('pkcs11js') as typeof import('pkcs11js');
    const { SECP256K1_EC_PARAMS, Pkcs11Token } = await import('../src/modules/relay/core/signers/pkcs11-token');
    const { LocalKeySigner, nativeSigning } = await import('../src/modules/relay/core/local-key-signer');

    const token = new Pkcs11Token({ module: MODULE, tokenLabel: LABEL, pin: PIN });
    generate(pkcs11js, MODULE, LABEL, PIN, SECP256K1_EC_PARAMS);
    const [key] = token.keys();
    const wallet = Wallet.createRandom();
    const local = await measureSigning(nativeSigning ? 'local (libsecp256k1)' : 'local (ethers)', new LocalKeySigner(wallet.privateKey, wallet.address), N);
    const hsm = await measureSigning('pkcs11 (SoftHSM2)', key, N);
    token.close();

    const rows = [local, hsm].map((f) => ({ ...f, ratio: f.meanUs / local.meanUs, medianRatio: f.medianUs / local.medianUs }));
    console.log(`signing latency, ${N} EIP-1559 transactions per backend (ratios against local in this run; the median one is steadier on a loaded machine)`);
    console.log('backend                 median µs   p99 µs   mean µs   signs/s   ratio(mean)  ratio(median)');
    for (const r of rows) {
      console.log(`${r.backend.padEnd(22)} ${r.medianUs.toFixed(1).padStart(9)} ${r.p99Us.toFixed(1).padStart(8)} ${r.meanUs.toFixed(1).padStart(9)} ${String(r.perSecond).padStart(9)} ${r.ratio.toFixed(2).padStart(12)} ${r.medianRatio.toFixed(2).padStart(14)}`);
    }
    console.log(JSON.stringify({ n: N, backends: rows.map((r) => ({ ...r, medianUs: +r.medianUs.toFixed(1), p99Us: +r.p99Us.toFixed(1), meanUs: +r.meanUs.toFixed(1), ratio: +r.ratio.toFixed(2), medianRatio: +r.medianRatio.toFixed(2) })) }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

function mkdirTokens(dir: string): void {
  mkdirSync(join(dir, 'tokens'), { recursive: true });
  writeFileSync(join(dir, 'softhsm2.conf'), `directories.tokendir = ${join(dir, 'tokens')}\nobjectstore.backend = file\nlog.level = ERROR\n`);
}

/** One secp256k1 key pair generated inside the token (sensitive, never extractable), as an operator would. */
function generate(p: typeof import('pkcs11js'), module: string, label: string, pin: string, params: Buffer): void {
  const lib = new p.PKCS11();
  lib.load(module);
  try {
    lib.C_Initialize();
  } catch (err) {
    if (!String((err as Error).message).includes('CKR_CRYPTOKI_ALREADY_INITIALIZED')) throw err;
  }
  const slot = lib.C_GetSlotList(true).find((s) => lib.C_GetTokenInfo(s).label.trim() === label)!;
  const session = lib.C_OpenSession(slot, p.CKF_SERIAL_SESSION | p.CKF_RW_SESSION);
  try {
    lib.C_Login(session, p.CKU_USER, pin);
  } catch (err) {
    if (!String((err as Error).message).includes('CKR_USER_ALREADY_LOGGED_IN')) throw err;
  }
  const name = 'relayer-bench-0';
  lib.C_GenerateKeyPair(
    session,
    { mechanism: p.CKM_EC_KEY_PAIR_GEN },
    [
      { type: p.CKA_TOKEN, value: true },
      { type: p.CKA_VERIFY, value: true },
      { type: p.CKA_LABEL, value: name },
      { type: p.CKA_EC_PARAMS, value: params },
    ],
    [
      { type: p.CKA_TOKEN, value: true },
      { type: p.CKA_PRIVATE, value: true },
      { type: p.CKA_SIGN, value: true },
      { type: p.CKA_SENSITIVE, value: true },
      { type: p.CKA_EXTRACTABLE, value: false },
      { type: p.CKA_LABEL, value: name },
    ],
  );
  lib.C_CloseSession(session);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
