import type { TestApp } from './test-app';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** GET /build-best-path for a cross-chain pair: the source `Tx` and its route. */
export async function request(t: TestApp, apiKey: string, query: Record<string, string | number>): Promise<Json> {
  const res = await t.http().get('/build-best-path').set('api-key', apiKey).query(query);
  if (res.status !== 200) throw new Error(`build-best-path answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data as Json;
}
