import { RpcEndpoint } from './rpc-endpoint';

describe('RpcEndpoint health figures', () => {
  const endpoint = () => new RpcEndpoint({ url: 'http://127.0.0.1:1', weight: 1 }, 'http://127.0.0.1:1');

  it('latency p50 and error rate follow every outcome (kept between outcomes, not between calls)', () => {
    const e = endpoint();
    expect(e.latencyP50()).toBeNull();
    expect(e.errorRate()).toBe(0);
    e.succeeded(10);
    e.succeeded(30);
    e.succeeded(20);
    expect(e.latencyP50()).toBe(20);
    expect(e.errorRate()).toBe(0);
    e.failed('http 503');
    expect(e.errorRate()).toBe(0.25);
    e.succeeded(40);
    e.succeeded(50);
    expect(e.latencyP50()).toBe(30);
    expect(e.errorRate()).toBe(1 / 6);
  });
});
