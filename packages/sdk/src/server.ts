/**
 * `@gas-relay/sdk/server`: helpers for code that holds the account's secrets, such as a webhook
 * receiver with its `whsec_` signing secret. A signing secret or an API key never belongs in a
 * browser bundle; the main entry `@gas-relay/sdk` is the one for browsers.
 */
export { verifyWebhook, verifyWebhookSignature, WebhookVerificationError } from './webhook-verify';
export type { DepositEvent, LowBalanceEvent, WebhookEvent, WebhookHeaders, WebhookTestEvent, WebhookVerification } from './webhook-verify';
