import * as fs from 'fs';
import * as path from 'path';
import { keccak256, type JsonFragment } from 'ethers';
import type { ContractArtifact } from './compile';
import { packageDir } from './paths';

/**
 * Pre-built third-party contracts taken from npm packages (byte-for-byte the audited builds), as
 * opposed to our own Solidity compiled by compile.ts.
 */
export interface NpmArtifacts {
  uniswapV2Factory: ContractArtifact;
  uniswapV2Pair: ContractArtifact;
  uniswapV2Router02: ContractArtifact;
  weth9: ContractArtifact;
  /** Uniswap V3 core (the factory deploys pools itself; the pool's creation code gives their CREATE2 addresses). */
  uniswapV3Factory: ContractArtifact;
  uniswapV3Pool: ContractArtifact;
  /** Uniswap V3 periphery's TickLens: a word of a pool's initialized ticks in one call. */
  tickLens: ContractArtifact;
  /** Canonical Permit2 creation code (no constructor args); CREATE2 with the canonical salt lands on 0x000000000022D4... */
  permit2: ContractArtifact;
}

let cached: NpmArtifacts | undefined;

export function loadNpmArtifacts(): NpmArtifacts {
  cached ??= {
    uniswapV2Factory: readTruffleArtifact('@uniswap/v2-core', 'build/UniswapV2Factory.json'),
    uniswapV2Pair: readTruffleArtifact('@uniswap/v2-core', 'build/UniswapV2Pair.json'),
    uniswapV2Router02: readTruffleArtifact('@uniswap/v2-periphery', 'build/UniswapV2Router02.json'),
    weth9: readTruffleArtifact('@uniswap/v2-periphery', 'build/WETH9.json'),
    uniswapV3Factory: readTruffleArtifact('@uniswap/v3-core', 'artifacts/contracts/UniswapV3Factory.sol/UniswapV3Factory.json'),
    uniswapV3Pool: readTruffleArtifact('@uniswap/v3-core', 'artifacts/contracts/UniswapV3Pool.sol/UniswapV3Pool.json'),
    tickLens: readTruffleArtifact('@uniswap/v3-periphery', 'artifacts/contracts/lens/TickLens.sol/TickLens.json'),
    permit2: readPermit2(),
  };
  return cached;
}

/** keccak256 of the pair creation code: what UniswapV2Library.pairFor must have hard-coded. */
export function pairInitCodeHash(artifacts: NpmArtifacts): string {
  return keccak256(artifacts.uniswapV2Pair.bytecode);
}

/** keccak256 of the V3 pool creation code: the factory deploys pools with CREATE2 from it. */
export function v3PoolInitCodeHash(artifacts: NpmArtifacts): string {
  return keccak256(artifacts.uniswapV3Pool.bytecode);
}

/**
 * Router02 computes pair addresses offline with a hard-coded init code hash. If it differs from the
 * hash of the v2-core pair we deploy, every router quote/swap would target non-existent pairs.
 */
export function routerMatchesPairInitCode(artifacts: NpmArtifacts): boolean {
  return artifacts.uniswapV2Router02.bytecode.toLowerCase().includes(pairInitCodeHash(artifacts).slice(2).toLowerCase());
}

function readTruffleArtifact(pkg: string, file: string): ContractArtifact {
  const full = path.join(packageDir(pkg), file);
  const parsed = JSON.parse(fs.readFileSync(full, 'utf8')) as { abi?: unknown; bytecode?: unknown };
  if (!Array.isArray(parsed.abi) || typeof parsed.bytecode !== 'string' || parsed.bytecode.length < 4) {
    throw new Error(`${full} does not look like a compiled artifact (abi + bytecode)`);
  }
  const bytecode = parsed.bytecode.startsWith('0x') ? parsed.bytecode : `0x${parsed.bytecode}`;
  return { abi: parsed.abi as JsonFragment[], bytecode };
}

/**
 * The uniswapx-sdk typechain factory embeds Permit2's bytecode, but the package's `exports` map
 * hides that file and requiring it would load the sdk's own ethers v5. Reading the literal out of
 * the source text avoids both.
 */
function readPermit2(): ContractArtifact {
  const file = path.join(packageDir('@uniswap/uniswapx-sdk'), 'dist/cjs/src/contracts/factories/Permit2__factory.js');
  const text = fs.readFileSync(file, 'utf8');
  const bytecode = /const _bytecode\s*=\s*"(0x[0-9a-fA-F]+)"/.exec(text)?.[1];
  if (!bytecode) throw new Error(`Permit2 bytecode not found in ${file}`);
  return { abi: PERMIT2_ABI, bytecode };
}

/** The slice of Permit2's ABI the devnet needs (verification); the app brings its own full ABI. */
const PERMIT2_ABI: JsonFragment[] = [
  { type: 'function', name: 'DOMAIN_SEPARATOR', stateMutability: 'view', inputs: [], outputs: [{ name: '', type: 'bytes32' }] },
];
