/**
 * The outbox's SQL fragments other stores compose into one statement: a relay row's change
 * with its status event, a webhook delivery behind the earlier undispatched event. Only stores
 * import this file (docs/decisions.md, "Module surfaces").
 */
export { earlierEventUndispatched, outboxInsert } from './tx-status-event.store';
