import type { RelayClient } from '@gas-relay/sdk';
import { unwrap } from '../api';
import { amount, ms, shortHex, time, usd } from '../ui/format';
import { usePoll } from '../ui/use-poll';
import { MetricsPanel } from './metrics-panel';

export function OperatorView({ client, adminHeaders }: { client: RelayClient; adminHeaders: Record<string, string> }) {
  const relayers = usePoll(() => unwrap(client.api.GET('/admin/relayers', { headers: adminHeaders })), 30_000, [client]);
  const accounts = usePoll(() => unwrap(client.api.GET('/admin/accounts', { params: { query: { limit: 50 } }, headers: adminHeaders })), 30_000, [client]);
  // The detail (latencies, probe errors) is the admin's: public /health says only up or down.
  const health = usePoll(() => unwrap(client.api.GET('/admin/health', { headers: adminHeaders })), 10_000, [client]);
  const chains = usePoll(() => client.chains(), 0, [client]);
  const chainName = (id: number) => chains.data?.find((c) => c.id === id)?.name ?? `chain ${id}`;

  const h = health.data;
  return (
    <>
      <div class="cards">
        <div class="card stat">
          <div class="stat-label">Service</div>
          <div class="stat-value">
            <span class={`badge big health-${h?.status ?? 'unknown'}`} data-testid="health-status">
              {h?.status ?? '…'}
            </span>
          </div>
          <div class="muted small">
            database {probe(h?.checks.database)} · redis {probe(h?.checks.redis)}
          </div>
        </div>
        {h?.checks.chains.map((c) => (
          <div class="card stat" data-testid="chain-health" data-chain-id={c.chainId}>
            <div class="stat-label">{chainName(c.chainId)}</div>
            <div class="stat-value">
              <span class={`badge big ${c.healthy ? 'status-executed' : 'status-failed'}`}>{c.healthy ? 'healthy' : 'down'}</span>
            </div>
            <div class="muted small">
              block {c.blockNumber ?? '—'} · rpc {ms(c.latencyMs)}
            </div>
            {c.error && <div class="bad small">{c.error}</div>}
          </div>
        ))}
      </div>
      <section class="card wide">
        <header class="card-head">
          <h2>RPC providers</h2>
          <span class="muted small">per chain, URLs redacted</span>
        </header>
        <table class="table">
          <thead>
            <tr>
              <th>Chain</th>
              <th>Provider</th>
              <th>State</th>
              <th class="num">Head</th>
              <th class="num">Lag</th>
              <th class="num">p50</th>
              <th class="num">Errors</th>
              <th>Backed off until</th>
            </tr>
          </thead>
          <tbody>
            {h?.checks.chains.flatMap((c) =>
              c.providers.map((p) => (
                <tr data-testid="provider-row" data-chain-id={c.chainId} data-url={p.url} class={p.healthy ? '' : 'warn'}>
                  <td>{chainName(c.chainId)}</td>
                  <td class="mono">{p.url}</td>
                  <td>{p.healthy ? <span class="badge status-executed">healthy</span> : <span class="badge status-failed">backed off</span>}</td>
                  <td class="num">{p.headBlock ?? '—'}</td>
                  <td class="num">{p.lagBlocks ?? '—'}</td>
                  <td class="num">{ms(p.latencyMsP50)}</td>
                  <td class="num">{`${Math.round(p.errorRate * 100)}%`}</td>
                  <td class="muted small">{p.backedOffUntil ? time(p.backedOffUntil) : '—'}</td>
                </tr>
              )),
            )}
          </tbody>
        </table>
      </section>
      <section class="card wide">
        <header class="card-head">
          <h2>Relayer wallets</h2>
          <span class="muted small">{relayers.data ? `${new Set(relayers.data.map((r) => r.address)).size} keys` : ''}</span>
        </header>
        {relayers.error && <div class="error">{relayers.error}</div>}
        <table class="table">
          <thead>
            <tr>
              <th>Region</th>
              <th>Chain</th>
              <th>Address</th>
              <th>Signer</th>
              <th>State</th>
              <th class="num">Balance</th>
              <th class="num">Floor</th>
            </tr>
          </thead>
          <tbody>
            {relayers.data?.map((r) => {
              const low = r.floorWei !== null && r.balanceWei !== null && BigInt(r.balanceWei) < BigInt(r.floorWei);
              return (
                <tr data-testid="relayer-row" data-address={r.address} data-chain-id={r.chainId} data-region={r.region} class={low ? 'warn' : ''}>
                  <td>{r.region}</td>
                  <td>{r.chainName}</td>
                  <td class="mono">{r.address}</td>
                  <td>{r.signer}</td>
                  <td data-testid="relayer-state" class={r.state === 'active' ? '' : 'muted'}>{r.state}</td>
                  <td class="num" data-testid="relayer-balance">
                    {r.balance === null ? <span class="bad" title={r.error ?? ''}>unavailable</span> : `${amount(r.balance)} ${r.symbol}`}
                  </td>
                  <td class="num">{r.floorWei === null ? <span class="muted">—</span> : r.floorWei}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </section>
      <div class="grid-2">
        <MetricsPanel client={client} adminHeaders={adminHeaders} />
      </div>
      <section class="card wide">
        <header class="card-head">
          <h2>Accounts</h2>
          <span class="muted small">newest 50</span>
        </header>
        {accounts.error && <div class="error">{accounts.error}</div>}
        <table class="table">
          <thead>
            <tr>
              <th>Address</th>
              <th class="num">Available</th>
              <th class="num">Reserved</th>
              <th class="num">Today / daily limit</th>
              <th>State</th>
              <th>Updated</th>
            </tr>
          </thead>
          <tbody>
            {accounts.data?.map((a) => (
              <tr data-testid="account-row" data-address={a.address}>
                <td class="mono" title={a.address}>
                  {shortHex(a.address, 8, 6)}
                </td>
                <td class="num">{usd(a.availableBalance)}</td>
                <td class="num">{usd(a.pendingBalance)}</td>
                <td class="num">
                  {usd(a.userConfig.dailyAmountConsumed)} / {usd(a.userConfig.dailyLimit)}
                </td>
                <td>{a.disabled ? <span class="badge status-failed">disabled</span> : <span class="badge status-executed">active</span>}</td>
                <td class="muted small">{time(a.userConfig.dailyAmountUpdatedAt)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}

function probe(p: { ok: boolean; latencyMs: number } | undefined): string {
  return p ? (p.ok ? `ok (${p.latencyMs} ms)` : 'down') : '…';
}
