import { Injectable, OnApplicationShutdown } from '@nestjs/common';
import type { ConnectionOptions } from 'bullmq';
import { Cluster, ClusterNode, RedisOptions } from 'ioredis';
import { AppConfig } from '../config/app-config';

/**
 * Where the BullMQ queues live: the app's Redis (REDIS_URL), or a Redis Cluster when
 * QUEUE_REDIS_CLUSTER_NODES is set. Every key of one queue must hash to one slot (BullMQ's Lua
 * scripts touch several of them at once), so on a cluster each queue gets a prefix with its own
 * hash tag: `{relay:relay-send}:relay-send:wait`. One tag per queue, not one for all, so the
 * queues spread over the masters instead of all landing on one.
 */
@Injectable()
export class QueueConnection implements OnApplicationShutdown {
  private cluster?: Cluster;

  constructor(private readonly config: AppConfig) {}

  get isCluster(): boolean {
    return !!this.config.QUEUE_REDIS_CLUSTER_NODES;
  }

  /**
   * BullMQ's `connection`. A cluster is one shared ioredis Cluster (BullMQ duplicates it for each
   * worker's blocking reads and leaves the shared one to us, closed at shutdown); a single Redis
   * stays as options, each queue and worker opening and closing its own connections.
   */
  connection(): ConnectionOptions {
    if (!this.config.QUEUE_REDIS_CLUSTER_NODES) return { url: this.config.REDIS_URL, maxRetriesPerRequest: null };
    this.cluster ??= createCluster(this.config.QUEUE_REDIS_CLUSTER_NODES);
    return this.cluster;
  }

  /**
   * Where a key that must vanish with the queues' data lives (the liveness sentinel): the cluster,
   * hash-tagged like a queue, or undefined for the app's Redis.
   */
  clusterKey(name: string): { client: Cluster; key: string } | undefined {
    if (!this.isCluster) return undefined;
    return { client: this.connection() as Cluster, key: `{${this.config.REDIS_PREFIX}:${name}}` };
  }

  /** The BullMQ prefix of `queue`; unchanged (`relay:bull`) on a single Redis, so upgrades keep their jobs. */
  prefix(queue: string): string {
    return this.isCluster ? `{${this.config.REDIS_PREFIX}:${queue}}` : `${this.config.REDIS_PREFIX}:bull`;
  }

  async onApplicationShutdown(): Promise<void> {
    // RedisModule is global, so this runs after the queues and workers have closed.
    await this.cluster?.quit().catch(() => this.cluster?.disconnect());
  }
}

/** `host:port` or `redis[s]://[user:password@]host:port` seeds; the first one's credentials and TLS apply to all nodes. */
export function parseClusterNodes(list: string): { nodes: ClusterNode[]; redisOptions: RedisOptions } {
  const entries = list.split(',').map((e) => e.trim()).filter(Boolean);
  const redisOptions: RedisOptions = { maxRetriesPerRequest: null };
  const nodes = entries.map((entry, i) => {
    const url = new URL(entry.includes('://') ? entry : `redis://${entry}`);
    if (i === 0) {
      if (url.username) redisOptions.username = decodeURIComponent(url.username);
      if (url.password) redisOptions.password = decodeURIComponent(url.password);
      if (url.protocol === 'rediss:') redisOptions.tls = {};
    }
    return { host: url.hostname, port: Number(url.port || 6379) };
  });
  return { nodes, redisOptions };
}

function createCluster(list: string): Cluster {
  const { nodes, redisOptions } = parseClusterNodes(list);
  // maxRetriesPerRequest null: BullMQ's blocking commands must wait, not fail after a few retries.
  const cluster = new Cluster(nodes, { redisOptions, enableOfflineQueue: true, slotsRefreshTimeout: 2_000 });
  cluster.on('error', () => undefined);
  return cluster;
}
