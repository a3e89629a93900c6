import { delta, parsePrometheus, quantile, sum } from './prometheus';

const scrape = (submitted: number, buckets: [string, number][]) => `# HELP relay_transactions_submitted_total Accepted submissions
# TYPE relay_transactions_submitted_total counter
relay_transactions_submitted_total{chain="31337",type="flash"} ${submitted}
relay_transactions_submitted_total{chain="84532",type="flash"} 1
http_requests{route="/a\\"b"} 3
${buckets.map(([le, n]) => `relay_transaction_latency_seconds_bucket{chain="31337",status="EXECUTED",le="${le}"} ${n}`).join('\n')}
relay_transaction_latency_seconds_count{chain="31337",status="EXECUTED"} ${buckets.at(-1)?.[1] ?? 0}
`;

describe('the page\'s Prometheus text reader', () => {
  it('reads names, labels (escaped quotes too) and values, skipping comments', () => {
    const samples = parsePrometheus(scrape(4, [['0.5', 1], ['+Inf', 2]]));
    expect(samples.filter((s) => s.name === 'relay_transactions_submitted_total')).toHaveLength(2);
    expect(samples.find((s) => s.name === 'http_requests')?.labels.route).toBe('/a"b');
    expect(sum(samples, 'relay_transactions_submitted_total')).toBe(5);
    expect(sum(samples, 'relay_transactions_submitted_total', (l) => l.chain === '31337')).toBe(4);
  });

  it('rates and percentiles come from the difference between two scrapes', () => {
    const before = parsePrometheus(scrape(4, [['0.1', 0], ['0.5', 10], ['1', 10], ['+Inf', 10]]));
    const now = parsePrometheus(scrape(10, [['0.1', 0], ['0.5', 10], ['1', 14], ['+Inf', 15]]));
    const d = delta(now, before);
    expect(sum(d, 'relay_transactions_submitted_total')).toBe(6);
    // Of the 5 new observations, 4 fell in (0.5, 1] and 1 above 1 s.
    expect(quantile(d, 'relay_transaction_latency_seconds', 0.5)).toBe(1);
    expect(quantile(d, 'relay_transaction_latency_seconds', 0.99)).toBe(1);
    expect(quantile(parsePrometheus(scrape(1, [['0.5', 0], ['+Inf', 0]])), 'relay_transaction_latency_seconds', 0.5)).toBeNull();
  });
});
