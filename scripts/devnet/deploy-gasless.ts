import { Interface, concat, id } from 'ethers';
import { DEPLOYER_ADDRESS } from './accounts';
import type { ArtifactSet } from './compile';
import { GAS, TxSender } from './tx-sender';

/**
 * Where the local settler pays gasless fees: an address nobody holds a key for (keccak of a
 * label), so a test can assert its balance rises by exactly the fees it was charged.
 */
export const GASLESS_FEE_RECIPIENT = `0x${id('gas-relay devnet gasless fee recipient').slice(26)}`;

/**
 * GaslessSettler(Permit2, owner = deployer), wired to the swap executor and the fee recipient. No
 * caller allow-list: a permit's nonce commits it to one settlement, so anyone may send it.
 * Needs `permit2` and `swapExecutor` in `contracts`; adds `gaslessSettler`.
 */
export async function deployGaslessSettler(sender: TxSender, artifacts: ArtifactSet, contracts: Record<string, string>): Promise<void> {
  const artifact = artifacts.GaslessSettler;
  if (!artifact || artifact.bytecode === '0x') throw new Error('compiled artifact GaslessSettler missing');
  if (!contracts.permit2 || !contracts.swapExecutor) throw new Error('deploy Permit2 and the swap executor before the gasless settler');
  const iface = new Interface(artifact.abi);
  const settler = await sender.deploy('deploy GaslessSettler', concat([artifact.bytecode, iface.encodeDeploy([contracts.permit2, DEPLOYER_ADDRESS])]));
  contracts.gaslessSettler = settler;
  await sender.send({ label: 'settler: executor', to: settler, data: iface.encodeFunctionData('setExecutor', [contracts.swapExecutor]), gasLimit: GAS.call });
  await sender.send({ label: 'settler: fee recipient', to: settler, data: iface.encodeFunctionData('setFeeRecipient', [GASLESS_FEE_RECIPIENT]), gasLimit: GAS.call });
}
