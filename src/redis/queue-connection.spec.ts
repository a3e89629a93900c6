import type { AppConfig } from '../config/app-config';
import { validateConfig } from '../config/app-config';
import { parseClusterNodes, QueueConnection } from './queue-connection';

describe('QueueConnection', () => {
  const base = { REDIS_URL: 'redis://h:6379', REDIS_PREFIX: 'relay' } as AppConfig;

  it('keeps the old prefix on one Redis and gives each queue its own hash tag on a cluster', () => {
    expect(new QueueConnection(base).prefix('relay-send')).toBe('relay:bull');
    const cluster = new QueueConnection({ ...base, QUEUE_REDIS_CLUSTER_NODES: '127.0.0.1:7000' } as AppConfig);
    expect(cluster.prefix('relay-send')).toBe('{relay:relay-send}');
    expect(cluster.prefix('webhooks')).toBe('{relay:webhooks}');
    expect(new QueueConnection(base).connection()).toEqual({ url: 'redis://h:6379', maxRetriesPerRequest: null });
    expect(new QueueConnection(base).clusterKey('liveness:sentinel')).toBeUndefined();
  });

  it('reads seed nodes as host:port or URLs, credentials and TLS from the first', () => {
    expect(parseClusterNodes('10.0.0.1:7000, 10.0.0.2:7001')).toEqual({ nodes: [{ host: '10.0.0.1', port: 7000 }, { host: '10.0.0.2', port: 7001 }], redisOptions: { maxRetriesPerRequest: null } });
    expect(parseClusterNodes('rediss://user:p%40ss@redis-0:6380,redis-1:6380')).toEqual({
      nodes: [{ host: 'redis-0', port: 6380 }, { host: 'redis-1', port: 6380 }],
      redisOptions: { maxRetriesPerRequest: null, username: 'user', password: 'p@ss', tls: {} },
    });
  });

  it('QUEUE_REDIS_CLUSTER_NODES is validated at startup', () => {
    const env = { DATABASE_URL: 'postgres://h/db', REDIS_URL: 'redis://h:6379', CHAINS_FILE: 'c.json', JWT_SECRET: 'x'.repeat(32), RELAYER_MNEMONIC: 'test test test test test test test test test test test junk', AUTH_MNEMONIC: 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about' };
    expect(() => validateConfig({ ...env, QUEUE_REDIS_CLUSTER_NODES: 'not a node list' })).toThrow(/QUEUE_REDIS_CLUSTER_NODES/);
    expect(validateConfig({ ...env, QUEUE_REDIS_CLUSTER_NODES: 'a:7000,redis://b:7001' }).QUEUE_REDIS_CLUSTER_NODES).toBe('a:7000,redis://b:7001');
  });
});
