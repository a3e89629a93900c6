/**
 * The accounts' SQL fragments another module's store composes into ONE statement with its own
 * (a relay row and its reservation, settlement and raise: docs/decisions.md, "Module surfaces").
 * Only stores import this file; everything else goes through index.ts.
 */
export { batchReservationCtes, maxRetriesOf, raiseReservationCte, reservationCte, settleCoveredManyCtes, settleCoveredUpdate } from './store/account.store';
export { raiseEntryCte, reserveEntriesCte, reserveEntryCte, settleEntriesCte, settleEntryCte } from './store/ledger-entry.store';
