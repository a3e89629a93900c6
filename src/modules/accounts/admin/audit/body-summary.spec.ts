import { bodySummary } from './body-summary';

describe('bodySummary', () => {
  it('keeps what was asked and drops every secret', () => {
    const body = {
      perTxLimit: 10,
      disabled: false,
      ipWhitelist: ['10.0.0.0/8'],
      approvalWebhook: { url: 'https://ops:hunter2@approve.example.com/hook?token=abc', secret: 'whsec_c2VjcmV0c2VjcmV0c2VjcmV0', enabled: true },
    };
    const summary = bodySummary(body);
    expect(summary).toEqual({
      perTxLimit: 10,
      disabled: false,
      ipWhitelist: ['10.0.0.0/8'],
      approvalWebhook: { url: 'https://approve.example.com/hook?[redacted]', secret: '[redacted]', enabled: true },
    });
    const text = JSON.stringify(summary);
    for (const secret of ['hunter2', 'whsec_', 'token=abc']) expect(text).not.toContain(secret);
  });

  it('keeps only the prefix of a plain API key, and redacts token-like fields at any depth', () => {
    expect(bodySummary({ key: 'rk_0123456789abcdefghijklmnop' })).toEqual({ key: 'rk_0123456…' });
    expect(bodySummary({ a: [{ authToken: 'x', password: 'y', n: 1 }] })).toEqual({ a: [{ authToken: '[redacted]', password: '[redacted]', n: 1 }] });
  });

  it('cuts long strings and lists, and bounds the depth', () => {
    const summary = bodySummary({ s: 'x'.repeat(500), list: Array.from({ length: 60 }, (_, i) => i) }) as { s: string; list: unknown[] };
    expect(summary.s).toHaveLength(201);
    expect(summary.list).toHaveLength(51);
    expect(summary.list[50]).toBe('[10 more]');
    let deep: unknown = 1;
    for (let i = 0; i < 10; i++) deep = { d: deep };
    expect(JSON.stringify(bodySummary(deep))).toContain('[nested]');
    expect(bodySummary(undefined)).toBeNull();
  });

  it('keeps only what PostgreSQL jsonb can store: no NUL, no lone surrogate, in values and keys', () => {
    expect(bodySummary({ a: 'x\u0000y', ['k\ud800']: '\udc00z', pair: '💥' })).toEqual({ a: 'x\ufffdy', ['k\ufffd']: '\ufffdz', pair: '💥' });
  });
});
