import * as fs from 'fs';
import * as path from 'path';
import type { JsonRpcProvider } from 'ethers';
import type { Permit2Placement } from './permit2';
import type { DevnetChain } from './types';
import { addressesWithoutCode } from './verify';
import { writeJsonAtomic } from './paths';

/**
 * Written after a chain is fully deployed: `<stateDir>/devnet-chains/<chainId>.json`. It lets a
 * later run recognise a chain that is already set up (and skip sending anything).
 */
export interface DeploymentMarker {
  /** Hash of the plan + bytecode; a change to either forces a fresh deployment. */
  planHash: string;
  deployer: string;
  /** Deployer nonce after the last tx. A chain where it is lower was only partially deployed. */
  deployerNonce: number;
  permit2: Permit2Placement;
  routerInitCodeHashMatches: boolean;
  deployedAt: string;
  chain: DevnetChain;
}

export function markerPath(stateDir: string, chainId: number): string {
  return path.join(stateDir, 'devnet-chains', `${chainId}.json`);
}

export function readMarker(stateDir: string, chainId: number): DeploymentMarker | undefined {
  const file = markerPath(stateDir, chainId);
  if (!fs.existsSync(file)) return undefined;
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as DeploymentMarker;
  } catch {
    return undefined; // Unreadable marker: treat as absent and redeploy.
  }
}

export function writeMarker(stateDir: string, marker: DeploymentMarker): void {
  writeJsonAtomic(markerPath(stateDir, marker.chain.chainId), marker);
}

/**
 * Read-only check that the marker describes what is on this RPC right now. Addresses are
 * deterministic, so a marker from an earlier anvil run is still valid against a new anvil only if
 * that anvil was deployed to as well; anvil restarts (empty chain) fail the code check.
 */
export async function markerMatchesChain(provider: JsonRpcProvider, marker: DeploymentMarker, chainId: number, planHash: string): Promise<boolean> {
  if (marker.planHash !== planHash || marker.chain?.chainId !== chainId) return false;
  const [nonceHex, missing] = await Promise.all([
    provider.send('eth_getTransactionCount', [marker.deployer, 'latest']) as Promise<string>,
    addressesWithoutCode(provider, marker.chain),
  ]);
  return Number(BigInt(nonceHex)) >= marker.deployerNonce && missing.length === 0;
}
