import type { RelayClient } from '@gas-relay/sdk';
import { useState } from 'preact/hooks';
import { errorText, unwrap } from '../api';
import { shortHex, time } from '../ui/format';
import { usePoll } from '../ui/use-poll';

export function WebhooksPanel({ client, refreshKey }: { client: RelayClient; refreshKey: number }) {
  const hooks = usePoll(() => unwrap(client.api.GET('/api/user/webhooks', { params: { query: { deliveries: 15 } } })), 15_000, [client, refreshKey]);
  const [note, setNote] = useState<string | null>(null);

  const replay = async (id: string) => {
    try {
      await unwrap(client.api.POST('/api/user/webhooks/dead-letters/{id}/replay', { params: { path: { id } } }));
      setNote(`Delivery ${id} queued again.`);
      hooks.reload();
    } catch (err) {
      setNote(`Replay failed: ${errorText(err)}`);
    }
  };

  const data = hooks.data;
  const dead = data?.deliveries.filter((d) => d.status === 'dead').length ?? 0;
  return (
    <section class="card">
      <header class="card-head">
        <h2>Webhooks</h2>
        {dead > 0 && <span class="badge status-failed">{dead} dead</span>}
      </header>
      {hooks.error && <div class="error">{hooks.error}</div>}
      {note && <div class="note">{note}</div>}
      <table class="table compact">
        <tbody>
          {data && data.webhooks.length === 0 && (
            <tr>
              <td class="empty">No webhooks registered (POST /api/user/register-webhooks).</td>
            </tr>
          )}
          {data?.webhooks.map((w) => (
            <tr data-testid="webhook-row" data-webhook-id={w.id}>
              <td class="mono ellipsis" title={w.url}>
                {w.url}
              </td>
              <td>{w.authType}</td>
              <td>{w.enabled ? <span class="badge status-executed">enabled</span> : <span class="badge">disabled</span>}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Recent deliveries</h3>
      <table class="table compact">
        <tbody>
          {data && data.deliveries.length === 0 && (
            <tr>
              <td class="empty">No deliveries yet.</td>
            </tr>
          )}
          {data?.deliveries.map((d) => (
            <tr data-testid="delivery-row" data-delivery-status={d.status}>
              <td>{time(d.createdAt)}</td>
              <td class="mono">{shortHex(d.txId, 4, 4)}</td>
              <td>{d.txStatus}</td>
              <td>
                <span class={`badge delivery-${d.status}`}>{d.status}</span>
              </td>
              <td class="muted small">{d.lastStatusCode ?? d.lastError ?? ''}</td>
              <td>
                {d.status === 'dead' && (
                  <button class="secondary small" onClick={() => replay(d.id)} data-testid="replay">
                    Replay
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
