import { createHash } from 'crypto';
import * as fs from 'fs';
import * as path from 'path';
import type { JsonFragment } from 'ethers';
import { CONTRACTS_DIR, DEFAULT_STATE_DIR, REPO_ROOT, packageDir, writeJsonAtomic } from './paths';

export interface ContractArtifact {
  abi: JsonFragment[];
  /** 0x-prefixed creation bytecode ('0x' for interfaces / abstract contracts). */
  bytecode: string;
}
export type ArtifactSet = Record<string, ContractArtifact>;

export interface CompileOptions {
  contractsDir?: string;
  /** Cache lives in <stateDir>/artifacts. */
  stateDir?: string;
}

interface SolcOutputError {
  severity: 'error' | 'warning' | 'info';
  formattedMessage?: string;
  message: string;
}
interface SolcOutput {
  errors?: SolcOutputError[];
  contracts?: Record<string, Record<string, { abi: JsonFragment[]; evm?: { bytecode?: { object?: string } } }>>;
}
type ImportResult = { contents: string } | { error: string };
interface SolcCompiler {
  version(): string;
  compile(input: string, callbacks: { import: (importPath: string) => ImportResult }): string;
}

interface CacheFile {
  solcVersion: string;
  evmVersion: string;
  contracts: ArtifactSet;
}

const OPTIMIZER_RUNS = 200;
const memo = new Map<string, Promise<ArtifactSet>>();

/**
 * Compiles every contracts/**\/*.sol with solc-js, or returns the cached result. The cache key covers
 * everything that changes the output (sources, compiler and OpenZeppelin versions, settings), and we
 * read the solc version from its package.json so a cache hit never pays for loading the wasm compiler.
 */
export async function loadArtifacts(opts: CompileOptions = {}): Promise<ArtifactSet> {
  const contractsDir = opts.contractsDir ?? CONTRACTS_DIR;
  const sources = readSources(contractsDir);
  const solcVersion = packageVersion('solc');
  const settings = compilerSettings(solcVersion, Object.keys(sources));
  const key = createHash('sha256')
    .update(JSON.stringify({ solcVersion, oz: packageVersion('@openzeppelin/contracts'), settings, sources }))
    .digest('hex');

  let pending = memo.get(key);
  if (!pending) {
    pending = loadOrCompile(key, sources, settings, path.join(opts.stateDir ?? DEFAULT_STATE_DIR, 'artifacts'));
    memo.set(key, pending);
    pending.catch(() => memo.delete(key));
  }
  return pending;
}

/** Forgets in-process results so the next loadArtifacts goes to the disk cache (used to time it). */
export function clearArtifactMemo(): void {
  memo.clear();
}

async function loadOrCompile(key: string, sources: Record<string, string>, settings: CompilerSettings, cacheDir: string): Promise<ArtifactSet> {
  const cacheFile = path.join(cacheDir, `${key}.json`);
  const cached = readCache(cacheFile);
  if (cached) return cached;

  const solc = (await import('solc')).default as SolcCompiler;
  const input = { language: 'Solidity', sources: mapValues(sources, (content) => ({ content })), settings };
  const output = JSON.parse(solc.compile(JSON.stringify(input), { import: resolveImport })) as SolcOutput;

  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) {
    throw new Error(`solc ${solc.version()} failed:\n${errors.map((e) => e.formattedMessage ?? e.message).join('\n')}`);
  }
  const contracts = collectContracts(output, Object.keys(sources));
  writeJsonAtomic(cacheFile, { solcVersion: solc.version(), evmVersion: settings.evmVersion, contracts } satisfies CacheFile);
  return contracts;
}

function readCache(file: string): ArtifactSet | undefined {
  if (!fs.existsSync(file)) return undefined;
  try {
    return (JSON.parse(fs.readFileSync(file, 'utf8')) as CacheFile).contracts;
  } catch {
    return undefined; // Corrupt cache: recompile and overwrite.
  }
}

/** Artifacts keyed by contract name; only contracts from our own sources (not their OpenZeppelin imports). */
function collectContracts(output: SolcOutput, ownSources: string[]): ArtifactSet {
  const result: ArtifactSet = {};
  const origin: Record<string, string> = {};
  for (const unit of ownSources) {
    for (const [name, compiled] of Object.entries(output.contracts?.[unit] ?? {})) {
      if (origin[name]) throw new Error(`contract name ${name} is defined in both ${origin[name]} and ${unit}; artifacts are keyed by name, rename one`);
      origin[name] = unit;
      result[name] = { abi: compiled.abi, bytecode: `0x${compiled.evm?.bytecode?.object ?? ''}` };
    }
  }
  return result;
}

/** Source unit name (repo-relative, '/'-separated, e.g. contracts/test/MintableERC20.sol) -> content. */
function readSources(contractsDir: string): Record<string, string> {
  const files = listSolFiles(contractsDir).sort();
  const sources: Record<string, string> = {};
  for (const file of files) {
    sources[path.relative(REPO_ROOT, file).split(path.sep).join('/')] = fs.readFileSync(file, 'utf8');
  }
  return sources;
}

function listSolFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return listSolFiles(full);
    return entry.isFile() && entry.name.endsWith('.sol') ? [full] : [];
  });
}

/**
 * Imports solc could not find among our sources: package imports (`@openzeppelin/contracts/...`)
 * come from node_modules. Relative imports between our own files are already resolved by solc.
 */
function resolveImport(importPath: string): ImportResult {
  const segments = importPath.split('/');
  const pkgLength = importPath.startsWith('@') ? 2 : 1;
  const pkg = segments.slice(0, pkgLength).join('/');
  try {
    const file = path.join(packageDir(pkg), ...segments.slice(pkgLength));
    return { contents: fs.readFileSync(file, 'utf8') };
  } catch (err) {
    return { error: `cannot resolve import ${importPath}: ${(err as Error).message}` };
  }
}

type CompilerSettings = ReturnType<typeof compilerSettings>;

function compilerSettings(solcVersion: string, ownSources: string[]) {
  return {
    optimizer: { enabled: true, runs: OPTIMIZER_RUNS },
    evmVersion: evmVersionFor(solcVersion),
    // Ask for output only for our files: skips ABI/bytecode generation for every imported library file.
    outputSelection: Object.fromEntries(ownSources.map((unit) => [unit, { '*': ['abi', 'evm.bytecode.object'] }])),
  };
}

/** Newest EVM the compiler and our anvil (--hardfork prague) both support. */
function evmVersionFor(solcVersion: string): string {
  const [major = 0, minor = 0, patch = 0] = solcVersion.split(/[.+-]/).map(Number);
  const at = (p: number) => major > 0 || minor > 8 || (minor === 8 && patch >= p);
  if (at(30)) return 'prague'; // prague is the default (and well supported) from 0.8.30
  if (at(24)) return 'cancun';
  return 'shanghai';
}

function packageVersion(name: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(packageDir(name), 'package.json'), 'utf8')) as { version?: unknown };
  if (typeof manifest.version !== 'string') throw new Error(`${name}/package.json has no version`);
  return manifest.version;
}

function mapValues<T, U>(obj: Record<string, T>, fn: (value: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, fn(v)]));
}
