import type { Chain, TxRecord } from '@gas-relay/sdk';
import { shortHex, time, usd } from '../ui/format';
import type { LiveTxs, TxFilter } from './live-txs';

export function StatusBadge({ status }: { status: string }) {
  return (
    <span data-testid="tx-status" class={`badge status-${status.toLowerCase()}`}>
      {status}
    </span>
  );
}

interface Props {
  live: LiveTxs;
  filter: TxFilter;
  onFilter: (f: TxFilter) => void;
  chains: Chain[];
  onOpen: (tx: TxRecord) => void;
}

export function TxTable({ live, filter, onFilter, chains, onOpen }: Props) {
  const chainName = (id: number) => chains.find((c) => c.id === id)?.name ?? String(id);
  return (
    <section class="card wide">
      <header class="card-head">
        <h2>Transactions</h2>
        <span class={`live ${live.connected ? 'on' : 'off'}`} data-testid="live-indicator" title="Socket.IO /tx">
          {live.connected ? 'live' : 'connecting…'}
        </span>
        <div class="filters">
          <select aria-label="status" data-testid="filter-status" value={filter.status} onChange={(e) => onFilter({ ...filter, status: e.currentTarget.value as TxFilter['status'] })}>
            <option value="">all statuses</option>
            <option value="PENDING">PENDING</option>
            <option value="EXECUTED">EXECUTED</option>
            <option value="FAILED">FAILED</option>
          </select>
          <select aria-label="chain" data-testid="filter-chain" value={filter.chainId} onChange={(e) => onFilter({ ...filter, chainId: e.currentTarget.value })}>
            <option value="">all chains</option>
            {chains.map((c) => (
              <option value={String(c.id)}>{c.name}</option>
            ))}
          </select>
          <input aria-label="label" data-testid="filter-label" placeholder="label" value={filter.label} onChange={(e) => onFilter({ ...filter, label: e.currentTarget.value.trim() })} />
        </div>
      </header>
      {live.error && <div class="error">{live.error}</div>}
      <table class="table">
        <thead>
          <tr>
            <th>Time</th>
            <th>Status</th>
            <th>Chain</th>
            <th>Label</th>
            <th>To</th>
            <th>Tx hash</th>
            <th class="num">Cost</th>
            <th class="num">Latency</th>
          </tr>
        </thead>
        <tbody>
          {live.items.length === 0 && (
            <tr>
              <td colSpan={8} class="empty">
                No transactions{filter.status || filter.chainId || filter.label ? ' match the filter' : ' yet'}.
              </td>
            </tr>
          )}
          {live.items.map((tx) => (
            <tr key={tx.id} data-testid="tx-row" data-tx-id={tx.id} class="clickable" onClick={() => onOpen(tx)}>
              <td>{time(tx.timestamp)}</td>
              <td>
                <StatusBadge status={tx.status} />
              </td>
              <td>{chainName(tx.chainId)}</td>
              <td>{tx.label || <span class="muted">—</span>}</td>
              <td class="mono">{shortHex(tx.to)}</td>
              <td class="mono">{shortHex(tx.executionTxHash)}</td>
              <td class="num">{usd(tx.costUSD)}</td>
              <td class="num">{tx.latency === null ? '—' : `${tx.latency} ms`}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {live.nextCursor && (
        <button class="secondary" onClick={live.loadMore}>
          Load more
        </button>
      )}
    </section>
  );
}
