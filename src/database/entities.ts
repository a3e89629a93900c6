import { AccountEntity } from '../modules/accounts/store/account.entity';
import { ApiKeyEntity } from '../modules/accounts/store/api-key.entity';
import { LedgerEntryEntity } from '../modules/accounts/store/ledger-entry.entity';
import { RelayBroadcastEntity } from '../modules/relay/store/relay-broadcast.entity';
import { RelayTransactionEntity } from '../modules/relay/store/relay-transaction.entity';
import { SignerNonceEntity } from '../modules/relay/store/signer-nonce.entity';
import { TxStatusEventEntity } from '../modules/tx-events/tx-status-event.entity';
import { WebhookDeliveryEntity } from '../modules/webhooks/entities/webhook-delivery.entity';
import { WebhookSigningKeyEntity } from '../modules/webhooks/entities/webhook-signing-key.entity';
import { WebhookEntity } from '../modules/webhooks/entities/webhook.entity';
import { VaultBidEntity } from '../modules/vault/entities/vault-bid.entity';
import { VaultOrderEntity } from '../modules/vault/entities/vault-order.entity';
import { VaultPositionEntity } from '../modules/vault/entities/vault-position.entity';
import { VaultQuoteEntity } from '../modules/vault/entities/vault-quote.entity';
import { VaultShareSampleEntity } from '../modules/vault/entities/vault-share-sample.entity';

import { GaslessSwapEntity } from '../modules/gasless/entities/gasless-swap.entity';

/** Every entity, listed once for the app, the migration CLI and tests. */
export const ENTITIES = [
  AccountEntity,
  ApiKeyEntity,
  LedgerEntryEntity,
  RelayTransactionEntity,
  RelayBroadcastEntity,
  SignerNonceEntity,
  TxStatusEventEntity,
  WebhookEntity,
  WebhookSigningKeyEntity,
  WebhookDeliveryEntity,
  VaultShareSampleEntity,
  VaultQuoteEntity,
  VaultBidEntity,
  VaultOrderEntity,
  VaultPositionEntity,
  GaslessSwapEntity,
];
