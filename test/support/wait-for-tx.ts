import type { TestApp } from './test-app';

type TxRecord = Record<string, unknown> & { id: string; status: string };

/** Polls GET /api/tx until every transaction leaves PENDING (or reaches `status`), or the time runs out. */
export async function waitForTxs(t: TestApp, ids: string[], options: { status?: string; timeoutMs?: number; query?: Record<string, string> } = {}): Promise<TxRecord[]> {
  const deadline = Date.now() + (options.timeoutMs ?? 30_000);
  const done = (r: TxRecord) => (options.status ? r.status === options.status : r.status !== 'PENDING');
  for (;;) {
    const rows = await Promise.all(ids.map((id) => t.http().get('/api/tx').query({ id, ...options.query }).then((r) => r.body.data as TxRecord)));
    if (rows.every(done) || Date.now() > deadline) return rows;
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function waitForTx(t: TestApp, id: string, options: { status?: string; timeoutMs?: number; query?: Record<string, string> } = {}): Promise<TxRecord> {
  const [row] = await waitForTxs(t, [id], options);
  return row;
}
