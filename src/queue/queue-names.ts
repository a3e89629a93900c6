/** Every BullMQ queue, named in one place. */
export const QUEUES = {
  relaySend: 'relay-send',
  relayConfirm: 'relay-confirm',
  reconciler: 'reconciler',
  webhooks: 'webhooks',
  orders: 'vault-orders',
  vaultSamples: 'vault-samples',
  deposits: 'deposits',
  bridge: 'bridge',
} as const;

export type QueueName = (typeof QUEUES)[keyof typeof QUEUES];
