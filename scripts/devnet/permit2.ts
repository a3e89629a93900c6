import { JsonRpcProvider, concat, getAddress, getCreate2Address, keccak256 } from 'ethers';
import { GAS, TxSender } from './tx-sender';

export const CANONICAL_PERMIT2 = '0x000000000022D473030F116dDEE9F6B43aC78BA3';
/** Arachnid's deterministic deployment proxy; anvil pre-deploys it at genesis. */
export const DETERMINISTIC_DEPLOYER = '0x4e59b44847b379578588920ca78fbf26c0b4956c';
/** The salt Uniswap used for the canonical deployment on every public chain. */
export const PERMIT2_SALT = '0x0000000000000000000000000000000000000000d3af2663da51c10215000000';

export interface Permit2Placement {
  address: string;
  method: 'existing' | 'create2' | 'create';
  canonical: boolean;
}

/**
 * Lands Permit2 where it lives on real chains when possible, so signatures and app config match
 * mainnet. CREATE2 through the proxy gives the canonical address only if the bytecode is exactly the
 * canonical build; otherwise the address actually used is reported instead.
 */
export async function deployPermit2(provider: JsonRpcProvider, sender: TxSender, initCode: string): Promise<Permit2Placement> {
  const create2Address = getCreate2Address(DETERMINISTIC_DEPLOYER, PERMIT2_SALT, keccak256(initCode));
  const canonical = getAddress(create2Address) === getAddress(CANONICAL_PERMIT2);
  const [existingCode, proxyCode] = await Promise.all([provider.getCode(create2Address), provider.getCode(DETERMINISTIC_DEPLOYER)]);

  // A previous (partial) deployment, or a forked chain, already has it: CREATE2 would revert.
  if (existingCode !== '0x') return { address: create2Address, method: 'existing', canonical };

  if (proxyCode !== '0x') {
    // The proxy's calldata is salt ++ initCode; it returns the new address and reverts on failure.
    await sender.send({ label: 'deploy Permit2 (CREATE2)', to: DETERMINISTIC_DEPLOYER, data: concat([PERMIT2_SALT, initCode]), gasLimit: GAS.deploy });
    return { address: create2Address, method: 'create2', canonical };
  }

  const address = await sender.deploy('deploy Permit2 (CREATE)', initCode);
  return { address, method: 'create', canonical: false };
}
