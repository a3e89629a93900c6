/** What other modules may use of webhooks: the SSRF-checked POST and Standard Webhooks signing (the approval webhook reuses both). */
export { postWebhook } from './delivery/http-post';
export type { OutboundPost, OutboundResult } from './delivery/http-post';
export { signedHeaders } from './signing/standard-webhooks';
