/** What other modules may use of chains. */
export type { ChainHealth } from './domain/chain-health.service';
export type { VenueDef } from './domain/chain-definition';
export { ChainDefinition } from './domain/chain-definition';
export { ChainHealthService } from './domain/chain-health.service';
export { ChainRegistry } from './domain/chain-registry.service';
export { ChainsModule } from './chains.module';
