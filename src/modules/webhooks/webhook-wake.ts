import type { AppConfig } from '../../config/app-config';

/** Redis channel on which an operator's replay wakes the workers' dispatchers at once. */
export function webhookWakeChannel(config: AppConfig): string {
  return `${config.REDIS_PREFIX}:webhooks:wake`;
}
