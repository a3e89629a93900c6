import type { Caller } from '../../../common/http/authenticated-request';
import type { UnitOfWork } from '../../../database/unit-of-work';
import type { SubmitTxDto } from '../http/dto/submit-tx.dto';
import type { RelayOrigin } from '../store/relay-transaction.entity';
import type { RelayedTx } from '../store/relayed-tx';

/** What the HTTP edge tells about the caller's region (RegionResolver.hintsOf): the X-Relay-Region header and the CDN's country. */
export interface RegionHints {
  header?: string;
  country?: string;
}

/** A request to relay one transaction for an account: from the relay's own endpoints, or from a feature on the account's behalf. */
export interface RelayCommand {
  caller: Caller;
  tx: SubmitTxDto;
  region: RegionHints;
  /** The feature relaying on the account's behalf; its outcomes reach it through RelayOutcomes. */
  origin?: RelayOrigin;
  /** Whom a feature relays for (the permit signer, the vault user): the end user its sponsorship policies count. */
  endUser?: string;
  /**
   * A feature's own record, written in the same database transaction as the relay row (EVM
   * chains), so the two exist together or not at all; what it throws aborts the submission.
   * `work` is that transaction, for the feature's own store.
   */
  within?: (work: UnitOfWork, tx: RelayedTx) => Promise<void>;
}
