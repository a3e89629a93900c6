import { AccountEntity } from '../modules/accounts/entities/account.entity';
import { ApiKeyEntity } from '../modules/accounts/entities/api-key.entity';
import { LedgerEntryEntity } from '../modules/accounts/entities/ledger-entry.entity';

/** Every entity, listed once for the app, the migration CLI and tests. */
export const ENTITIES = [AccountEntity, ApiKeyEntity, LedgerEntryEntity];
