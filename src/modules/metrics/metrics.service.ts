import { Injectable, Optional } from '@nestjs/common';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { stageSpan } from '../../common/trace/tracing';
import { AppConfig } from '../../config/app-config';
import { FleetFigures } from './fleet-figures.service';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { buildCommit } from '../../config/process-env';

/** The process's Prometheus registry; modules add their own metrics through it. */
@Injectable()
export class MetricsService {
  readonly registry = new Registry();

  readonly httpDuration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request duration by route and status',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
    registers: [this.registry],
  });

  /** `code`: the catalog code of the error envelope (X-Error-Code), `none` when the answer carried none (a 404 of an unknown static path, a socket error). */
  readonly httpErrors = new Counter({
    name: 'http_errors_total',
    help: 'HTTP responses with status >= 400 by route, status and error code (the envelope\'s catalog code)',
    labelNames: ['method', 'route', 'status', 'code'],
    registers: [this.registry],
  });

  /** Always 1: the labels say what runs (version, commit, role, Node.js), so dashboards can join on them. */
  readonly buildInfo = new Gauge({
    name: 'build_info',
    help: 'Build and role of this process (value always 1)',
    labelNames: ['version', 'commit', 'role', 'node_version'],
    registers: [this.registry],
  });

  readonly relaySubmitted = new Counter({
    name: 'relay_transactions_submitted_total',
    help: 'Relayed transactions accepted, by chain and type',
    labelNames: ['chain', 'type'],
    registers: [this.registry],
  });

  readonly relayTerminal = new Counter({
    name: 'relay_transactions_terminal_total',
    help: 'Relayed transactions that reached EXECUTED or FAILED, by chain',
    labelNames: ['chain', 'status'],
    registers: [this.registry],
  });

  readonly relayLatency = new Histogram({
    name: 'relay_transaction_latency_seconds',
    help: 'Acceptance to terminal status of relayed transactions',
    labelNames: ['chain', 'status'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300],
    registers: [this.registry],
  });

  /** Calls to each provider (node_error: the node answered with an error about the call or transaction; failed / rate_limited: the provider failed). */
  readonly rpcRequests = new Counter({
    name: 'chain_rpc_requests_total',
    help: 'JSON-RPC calls to chain providers by chain, provider (redacted URL), method and outcome (ok, node_error, rate_limited, failed)',
    labelNames: ['chain', 'provider', 'method', 'outcome'],
    registers: [this.registry],
  });

  /** 1 while a provider takes calls (circuit closed), 0 while it is backed off or on trial. */
  readonly rpcProviderHealthy = new Gauge({
    name: 'chain_rpc_provider_healthy',
    help: 'Whether each RPC provider of a chain is healthy (1) or backed off (0); provider is the redacted URL',
    labelNames: ['chain', 'provider'],
    registers: [this.registry],
  });

  readonly rpcDuration = new Histogram({
    name: 'chain_rpc_duration_seconds',
    help: 'JSON-RPC call duration by chain and method',
    labelNames: ['chain', 'method'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 10],
    registers: [this.registry],
  });

  readonly webhookAttempts = new Counter({
    name: 'webhook_delivery_attempts_total',
    help: 'Webhook POST attempts by result (success: 2xx)',
    labelNames: ['result'],
    registers: [this.registry],
  });

  readonly webhookAttemptDuration = new Histogram({
    name: 'webhook_delivery_attempt_duration_seconds',
    help: 'Duration of one webhook POST attempt, by result',
    labelNames: ['result'],
    buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });

  readonly webhookDeliveries = new Counter({
    name: 'webhook_deliveries_total',
    help: 'Webhook deliveries that reached an outcome: delivered, dead (dead-lettered) or cancelled',
    labelNames: ['outcome'],
    registers: [this.registry],
  });

  readonly webhookDeliveryLag = new Histogram({
    name: 'webhook_delivery_lag_seconds',
    help: 'Status change to successful webhook delivery (includes retries)',
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30, 60, 300, 3600, 14400],
    registers: [this.registry],
  });

  /** A periodic job's schedule found missing from Redis and registered again, by job. */
  readonly schedulesRestored = new Counter({
    name: 'periodic_job_schedules_restored_total',
    help: 'Periodic job schedules found missing from Redis and registered again, by job',
    labelNames: ['job'],
    registers: [this.registry],
  });

  readonly redisLossRecoveries = new Counter({
    name: 'redis_data_loss_recoveries_total',
    help: 'Recovery hooks run after Redis was found to have lost its data, by hook',
    labelNames: ['hook'],
    registers: [this.registry],
  });

  /**
   * Time in each step of the relay pipeline: queue_dwell (accepted or enqueued → picked by the
   * sender), sign (nonce claim and signature), broadcast (the node's answer), inclusion (broadcast
   * → receipt seen), settlement (receipt seen → settled in PostgreSQL).
   */
  readonly relayStage = new Histogram({
    name: 'relay_stage_duration_seconds',
    help: 'Duration of each relay pipeline stage (queue_dwell, sign, broadcast, inclusion, settlement), by chain',
    labelNames: ['chain', 'stage'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300],
    registers: [this.registry],
  });

  /** A relayed transaction accepted: this process's counter and the deployment's figures (FleetFigures). */
  countSubmitted(chainId: number, type: string): void {
    this.relaySubmitted.inc({ chain: String(chainId), type });
    this.fleet?.submitted();
  }

  /** A relayed transaction reached EXECUTED or FAILED, `latencyMs` after acceptance. */
  countTerminal(chainId: number, status: string, latencyMs: number): void {
    const labels = { chain: String(chainId), status };
    this.relayTerminal.inc(labels);
    this.relayLatency.observe(labels, latencyMs / 1000);
    this.fleet?.finished(status, latencyMs / 1000);
  }

  /**
   * Seconds since `startedMs` into the stage's histogram and, with tracing on, the stage as a
   * span (relay.stage.<stage>) of the transaction's trace: every stage is measured here, so this
   * is the one place the pipeline's stages become spans.
   */
  observeStage(chainId: number | string, stage: 'queue_dwell' | 'sign' | 'broadcast' | 'inclusion' | 'settlement', startedMs: number, txId?: string): void {
    this.relayStage.observe({ chain: String(chainId), stage }, Math.max(0, Date.now() - startedMs) / 1000);
    stageSpan(stage, startedMs, { 'relay.chain_id': String(chainId) }, txId);
  }

  /**
   * Settled transactions followed to their chain's confirmation depth: finalized (the block held),
   * repriced or restaged (a reorg moved it and the row was corrected), missing (no receipt for any
   * of its transactions on the canonical chain: its bytes were sent again).
   */
  readonly relayFinality = new Counter({
    name: 'relay_settlement_finality_total',
    help: 'Settled transactions checked at confirmation depth, by chain and result (finalized, repriced, restaged, missing)',
    labelNames: ['chain', 'result'],
    registers: [this.registry],
  });

  /** Wei as a float: exact to ~15 significant digits, enough to see a key run down. */
  readonly relayerBalance = new Gauge({
    name: 'relayer_balance_wei',
    help: 'Native balance of each relayer key, by chain, region and address',
    labelNames: ['chain', 'region', 'address'],
    registers: [this.registry],
  });

  readonly relayerLowKeys = new Gauge({
    name: 'relayer_low_keys',
    help: 'Relayer keys under their balance floor, by chain',
    labelNames: ['chain'],
    registers: [this.registry],
  });

  readonly relayerTopUps = new Counter({
    name: 'relayer_top_ups_total',
    help: 'Treasury top-ups of relayer keys by chain and result (sent, mined, failed, treasury_short)',
    labelNames: ['chain', 'result'],
    registers: [this.registry],
  });

  constructor(
    @Optional() config?: AppConfig,
    @Optional() private readonly fleet?: FleetFigures,
  ) {
    collectDefaultMetrics({ register: this.registry });
    this.buildInfo.set(buildLabels(config?.APP_ROLE ?? 'all'), 1);
  }
}

/** version from package.json beside src/ or dist/, commit from BUILD_COMMIT (set by the image build). */
function buildLabels(role: string): { version: string; commit: string; role: string; node_version: string } {
  let version = 'unknown';
  try {
    version = (JSON.parse(readFileSync(join(__dirname, '../../../package.json'), 'utf8')) as { version?: string }).version ?? version;
  } catch {
    // dist/ without package.json beside it: the label says unknown.
  }
  return { version, commit: buildCommit() || 'unknown', role, node_version: process.version };
}
