/**
 * What other modules may use of the relay: relaying on an account's behalf (SubmissionService),
 * reading a relayed transaction (TxQueryService), and the modules that wire them.
 */
export { TxQueryService } from './http/tx-query.service';
export { SubmissionService } from './intake/submission.service';
export type { Submitted } from './intake/submission.service';
export type { Stage, TxStatus } from './core/stage';
export type { RelayedTx } from './store/relayed-tx';
export type { FailureReason, RelayOrigin } from './store/relay-transaction.entity';
export { RelayCoreModule } from './relay-core.module';
export { RelayModule } from './relay.module';
export { RelayWorkerModule } from './relay-worker.module';
export { RegionResolver } from './intake/region-resolver';
export type { RegionHints, RelayCommand } from './intake/relay-command';
export { RelayOutcomes } from './outcomes/relay-outcomes';
export type { RelayOutcome } from './outcomes/relay-outcomes';
export { KeyEligibility } from './core/key-eligibility';
export type { WalletState } from './core/key-eligibility';
export { SignerPool } from './core/signer-pool.service';
export type { RelaySigner, SignerBackend } from './core/signer-pool.service';
export type { RelayerKeyState } from './store/relayer-key.store';
export { KeyRotation } from './core/key-rotation.service';
export type { RelayerKeyView as RelayerKeyStateView } from './core/key-rotation.service';
export { RelayAuditModule } from './audit/relay-audit.module';
export { ChainAuditService } from './audit/chain-audit.service';
export type { ChainAuditReport } from './audit/chain-audit.service';
export { confirmationsOf } from './core/confirmations';
