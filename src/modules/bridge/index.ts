/** What other modules may use of the bridge: the modules, and the filler and status (tests and benches drive passes). */
export { BridgeModule } from './bridge.module';
export { BridgeWorkerModule } from './bridge-worker.module';
export { BridgeFiller } from './domain/bridge-filler.service';
export type { FillerPass } from './domain/bridge-filler.service';
export { BridgeInventory } from './domain/bridge-inventory.service';
export { BridgeStatus } from './domain/bridge-status.service';
export { bridgeFillerWallet } from './domain/filler-key';
export { SPOKE_ABI, fillKey } from './domain/spoke';
