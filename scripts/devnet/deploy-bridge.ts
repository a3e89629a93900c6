import { Interface, concat } from 'ethers';
import { bridgeFillerWallet } from '../../src/modules/bridge/domain/filler-key';
import { DEV_AUTH_MNEMONIC } from '../local-stack/dev-keys';
import { DEPLOYER_ADDRESS } from './accounts';
import type { ArtifactSet } from './compile';
import { GAS, TxSender } from './tx-sender';

/** What the local spokes hold as the filler's inventory (minted, like the test accounts' grants). */
export const BRIDGE_INVENTORY: Readonly<Record<string, string>> = { USDC: '500000', DAI: '500000' };
/** After this long past a deposit's fill deadline anyone may refund it (the service gone). */
export const BRIDGE_REFUND_GRACE_SECONDS = 86_400;

/**
 * BridgeSpoke(owner = deployer, filler = the filler key the service derives from the dev
 * AUTH_MNEMONIC), wired to the swap executor, holding BRIDGE_INVENTORY. Adds `bridgeSpoke`.
 */
export async function deployBridgeSpoke(
  sender: TxSender,
  artifacts: ArtifactSet,
  contracts: Record<string, string>,
  give: (to: string, symbol: string, amount: string) => Promise<void>,
): Promise<void> {
  const artifact = artifacts.BridgeSpoke;
  if (!artifact || artifact.bytecode === '0x') throw new Error('compiled artifact BridgeSpoke missing');
  if (!contracts.swapExecutor) throw new Error('deploy the swap executor before the bridge spoke');
  const iface = new Interface(artifact.abi);
  const filler = bridgeFillerWallet(DEV_AUTH_MNEMONIC).address;
  const spoke = await sender.deploy('deploy BridgeSpoke', concat([artifact.bytecode, iface.encodeDeploy([DEPLOYER_ADDRESS, filler, BRIDGE_REFUND_GRACE_SECONDS])]));
  contracts.bridgeSpoke = spoke;
  await sender.send({ label: 'bridge: executor', to: spoke, data: iface.encodeFunctionData('setExecutor', [contracts.swapExecutor]), gasLimit: GAS.call });
  for (const [symbol, amount] of Object.entries(BRIDGE_INVENTORY)) await give(spoke, symbol, amount);
}
