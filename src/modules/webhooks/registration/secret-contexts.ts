/** Associated data binding each sealed secret to the row it belongs to. */
export const authSecretContext = (webhookId: string): string => `webhook-auth:${webhookId}`;
export const signingSecretContext = (userId: string): string => `webhook-signing:${userId}`;
