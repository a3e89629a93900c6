import type { WebhookAuthType } from '../entities/webhook.entity';

/**
 * The registration's outbound auth as a header: bearer sends the secret as a Bearer token,
 * basic sends `user:password` base64-encoded, api-key sends the secret in the header named
 * apiKeyVar (the only placement interface.md shows).
 */
export function authHeaders(authType: WebhookAuthType, secret: string | null, apiKeyVar: string | null): Record<string, string> {
  if (authType === 'none' || secret === null) return {};
  if (authType === 'bearer') return { authorization: `Bearer ${secret}` };
  if (authType === 'basic') return { authorization: `Basic ${Buffer.from(secret, 'utf8').toString('base64')}` };
  return { [apiKeyVar!.toLowerCase()]: secret };
}
