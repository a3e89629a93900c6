/**
 * The sponsorship policies' SQL fragments the relay's settlement composes into its one
 * statement. Only stores import this file (docs/decisions.md, "Module surfaces").
 */
export { policySettleCtes, policySettleManyCtes } from './store/policy.store';
