import type { RelayClient, TxRecord } from '@gas-relay/sdk';
import { useEffect, useState } from 'preact/hooks';
import { errorText } from '../api';
import { ms, time, usd } from '../ui/format';
import { StatusBadge } from './tx-table';

/** Fields other work adds to the record (stages, reasons); shown when the server sends them. */
type Extended = TxRecord & {
  failureReason?: string | null;
  revertReason?: string | null;
  stages?: Partial<Record<'acceptedAt' | 'signedAt' | 'broadcastAt' | 'minedAt' | 'settledAt', string | null>>;
};

const STAGES = [
  ['acceptedAt', 'Accepted'],
  ['signedAt', 'Signed'],
  ['broadcastAt', 'Broadcast'],
  ['minedAt', 'Mined'],
  ['settledAt', 'Settled'],
] as const;

export function TxDrawer({ client, txId, onClose }: { client: RelayClient; txId: string; onClose: () => void }) {
  const [tx, setTx] = useState<Extended | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    setTx(null);
    client.relay
      .get(txId, { includeReceipt: true, includeRevertInfo: true })
      .then((r) => setTx(r as Extended))
      .catch((err: unknown) => setError(errorText(err)));
  }, [client, txId]);

  const stages = tx ? timeline(tx) : [];
  const revert = tx?.revertReason ?? (tx?.revert ? JSON.stringify(tx.revert) : null);
  return (
    <div class="drawer-backdrop" onClick={onClose}>
      <aside class="drawer" data-testid="tx-drawer" onClick={(e) => e.stopPropagation()}>
        <header class="card-head">
          <h2>Transaction</h2>
          <button class="ghost" onClick={onClose} aria-label="close">
            ✕
          </button>
        </header>
        {error && <div class="error">{error}</div>}
        {!tx && !error && <div class="muted">Loading…</div>}
        {tx && (
          <>
            <div class="drawer-status">
              <StatusBadge status={tx.status} /> <span class="mono small">{tx.id}</span>
            </div>
            <h3>Stages</h3>
            <ol class="timeline">
              {stages.map(([label, at]) => (
                <li class={at ? 'done' : 'todo'}>
                  <span class="dot" />
                  <span class="stage">{label}</span>
                  <span class="muted small">{at ? time(at) : '—'}</span>
                </li>
              ))}
            </ol>
            <h3>Details</h3>
            <dl class="details">
              <dt>Chain</dt>
              <dd>{tx.chainId}</dd>
              <dt>To</dt>
              <dd class="mono">{tx.to ?? '—'}</dd>
              <dt>Execution hash</dt>
              <dd class="mono">{tx.executionTxHash ?? '—'}</dd>
              {tx.receipt && (
                <>
                  <dt>Block</dt>
                  <dd>{String((tx.receipt as { blockNumber?: number }).blockNumber ?? '—')}</dd>
                </>
              )}
              <dt>Cost</dt>
              <dd>
                {usd(tx.costUSD)} {tx.isAccountCharged ? '' : <span class="muted">(not charged)</span>}
              </dd>
              <dt>Latency</dt>
              <dd>{ms(tx.latency)}</dd>
              <dt>Retries</dt>
              <dd>{tx.retries}</dd>
              <dt>Type / region</dt>
              <dd>
                {tx.transactionType} / {tx.submitRegion}
              </dd>
              <dt>Label</dt>
              <dd>{tx.label || '—'}</dd>
              {tx.failureReason && (
                <>
                  <dt>Failure reason</dt>
                  <dd class="bad">{tx.failureReason}</dd>
                </>
              )}
              {revert && (
                <>
                  <dt>Revert reason</dt>
                  <dd class="bad mono">{revert}</dd>
                </>
              )}
            </dl>
          </>
        )}
      </aside>
    </div>
  );
}

/** The server's stages when it sends them; otherwise acceptance and the end read from timestamp and latency. */
function timeline(tx: Extended): Array<[string, string | null]> {
  if (tx.stages) return STAGES.map(([key, label]) => [label, tx.stages?.[key] ?? (key === 'acceptedAt' ? tx.timestamp : null)]);
  const end = tx.latency !== null ? new Date(new Date(tx.timestamp).getTime() + tx.latency).toISOString() : null;
  return [
    ['Accepted', tx.timestamp],
    [tx.status === 'FAILED' ? 'Failed' : 'Settled', tx.status === 'PENDING' ? null : end],
  ];
}
