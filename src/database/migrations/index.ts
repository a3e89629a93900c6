import { AccountsAndLedger1763700000000 } from './1763700000000-accounts-and-ledger';
import { Relay1763800000000 } from './1763800000000-relay';
import { FundingSigned1763900000000 } from './1763900000000-funding-signed';
import { Webhooks1764000000000 } from './1764000000000-webhooks';
import { Vaults1764200000000 } from './1764200000000-vaults';
import { GaslessSwaps1764300000000 } from './1764300000000-gasless-swaps';
import { RelayStages1764400000000 } from './1764400000000-relay-stages';
import { TxListIndex1764500000000 } from './1764500000000-tx-list-index';
import { AccountPolicy1764600000000 } from './1764600000000-account-policy';
import { IdempotencyKeys1764610000000 } from './1764610000000-idempotency-keys';
import { TxLifecycle1764610100000 } from './1764610100000-tx-lifecycle';
import { RelayerTopUps1764630000000 } from './1764630000000-relayer-top-ups';
import { SettledFinality1764700000000 } from './1764700000000-settled-finality';
import { FeeRaiseReservations1795742304139 } from './1795742304139-fee-raise-reservations';
import { NativePriceUsd1795742347423 } from './1795742347423-native-price-usd';
import { DerivedSendersPerAccount1795742371560 } from './1795742371560-derived-senders-per-account';
import { AdminAuditLog1795742554973 } from './1795742554973-admin-audit-log';
import { WebhookCircuit1795742554974 } from './1795742554974-webhook-circuit';
import { SwapDiscovery1795744363415 } from './1795744363415-swap-discovery';
import { Deposits1795750000000 } from './1795750000000-deposits';
import { SponsorshipPolicies1795745000000 } from './1795745000000-sponsorship-policies';
import { RelayerKeys1795751000000 } from './1795751000000-relayer-keys';
import { TimePartitions1795760000000 } from './1795760000000-time-partitions';
import { Bridge1795761000000 } from './1795761000000-bridge';
import { MinedStages1795764000000 } from './1795764000000-mined-stages';
import { BroadcastLookups1795765000000 } from './1795765000000-broadcast-lookups';
import { HotStageMoves1795766000000 } from './1795766000000-hot-stage-moves';

/** Every migration in order; listed explicitly so the build, the CLI and tests agree. */
export const MIGRATIONS = [
  AccountsAndLedger1763700000000,
  Relay1763800000000,
  FundingSigned1763900000000,
  Webhooks1764000000000,
  Vaults1764200000000,
  GaslessSwaps1764300000000,
  RelayStages1764400000000,
  TxListIndex1764500000000,
  AccountPolicy1764600000000,
  IdempotencyKeys1764610000000,
  TxLifecycle1764610100000,
  RelayerTopUps1764630000000,
  SettledFinality1764700000000,
  FeeRaiseReservations1795742304139,
  NativePriceUsd1795742347423,
  DerivedSendersPerAccount1795742371560,
  AdminAuditLog1795742554973,
  WebhookCircuit1795742554974,
  SwapDiscovery1795744363415,
  SponsorshipPolicies1795745000000,
  Deposits1795750000000,
  RelayerKeys1795751000000,
  TimePartitions1795760000000,
  Bridge1795761000000,
  MinedStages1795764000000,
  BroadcastLookups1795765000000,
  HotStageMoves1795766000000,
];
