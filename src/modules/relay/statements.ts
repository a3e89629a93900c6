/**
 * The relay's SQL fragments another module's statement embeds: the chain of the transaction a
 * ledger reference names (the dashboard's spend chart). docs/decisions.md, "Module surfaces".
 */
export { chainIdOfTxReference } from './store/relay-transaction.sql';
