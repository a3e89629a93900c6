import type { RelayClient, TxRecord } from '@gas-relay/sdk';
import { useCallback, useMemo, useRef, useState } from 'preact/hooks';
import { unwrap } from '../api';
import { usd } from '../ui/format';
import { usePoll } from '../ui/use-poll';
import { useLiveTxs, type TxFilter } from './live-txs';
import { FundingPanel } from './funding-panel';
import { PoliciesPanel } from './policies-panel';
import { SpendPanel } from './spend-panel';
import { TxDrawer } from './tx-drawer';
import { TxTable } from './tx-table';
import { VaultPanel } from './vault-panel';
import { WebhooksPanel } from './webhooks-panel';

export function TeamView({ client, hasApiKey }: { client: RelayClient; hasApiKey: boolean }) {
  const account = usePoll(() => unwrap(client.api.GET('/api/account')), 15_000, [client]);
  const chains = usePoll(() => client.chains(), 0, [client]);
  const [filter, setFilter] = useState<TxFilter>({ status: '', chainId: '', label: '' });
  const [open, setOpen] = useState<TxRecord | null>(null);
  const [refreshKey, setRefreshKey] = useState(0);
  const pending = useRef<ReturnType<typeof setTimeout> | null>(null);

  // A final status moves money: refresh the balance, spend and deliveries once the burst is over.
  const onChange = useCallback(
    (n: { status: string }) => {
      if (n.status === 'PENDING' || pending.current) return;
      pending.current = setTimeout(() => {
        pending.current = null;
        account.reload();
        setRefreshKey((k) => k + 1);
      }, 400);
    },
    [account.reload],
  );
  const onDeposit = useCallback(() => {
    account.reload();
    setRefreshKey((k) => k + 1);
  }, [account.reload]);
  const live = useLiveTxs(client, filter, onChange, onDeposit);

  const a = account.data;
  const cfg = a?.userConfig;
  const dailyShare = cfg && cfg.dailyLimit > 0 ? Math.min(1, cfg.dailyAmountConsumed / cfg.dailyLimit) : 0;
  const chainList = useMemo(() => chains.data ?? [], [chains.data]);

  return (
    <>
      {account.error && <div class="error">{account.error}</div>}
      <div class="cards">
        <div class="card stat">
          <div class="stat-label">Available balance</div>
          <div class="stat-value" data-testid="balance-available">
            {a ? usd(a.availableBalance) : '…'}
          </div>
          <div class="muted small">{a ? `${usd(a.pendingBalance)} reserved for transactions in flight` : ''}</div>
        </div>
        <div class="card stat">
          <div class="stat-label">Spent today (UTC)</div>
          <div class="stat-value" data-testid="spend-today">
            {cfg ? usd(cfg.dailyAmountConsumed) : '…'}
          </div>
          <div class="meter" title={`${Math.round(dailyShare * 100)}% of the daily limit`}>
            <div class={`meter-fill ${dailyShare > 0.9 ? 'hot' : ''}`} style={{ width: `${dailyShare * 100}%` }} />
          </div>
          <div class="muted small">{cfg ? `of ${usd(cfg.dailyLimit)} daily limit` : ''}</div>
        </div>
        <div class="card stat">
          <div class="stat-label">Limits</div>
          <div class="stat-lines">
            <div>
              Per transaction <b>{cfg ? usd(cfg.perTxLimit) : '…'}</b>
            </div>
            <div>
              Retries <b>{cfg?.maxRetries ?? '…'}</b>
            </div>
            <div>
              Circuit breaker <b>{cfg ? (cfg.circuitBreakerEnabled ? `${cfg.failureCountStreak}/${cfg.failureCountStreakLimit} failures` : 'off') : '…'}</b>
            </div>
          </div>
        </div>
        <div class="card stat">
          <div class="stat-label">Account</div>
          <div class="mono small break">{a?.address ?? '…'}</div>
          <div class="small">{a ? a.disabled ? <span class="badge status-failed">disabled</span> : <span class="badge status-executed">active</span> : ''}</div>
          <div class="muted small">{cfg && cfg.disabledChainIds.length ? `chains off: ${cfg.disabledChainIds.join(', ')}` : 'all chains on'}</div>
        </div>
      </div>
      <SpendPanel client={client} chains={chainList} refreshKey={refreshKey} />
      <TxTable live={live} filter={filter} onFilter={setFilter} chains={chainList} onOpen={setOpen} />
      <div class="grid-2">
        <FundingPanel client={client} chains={chainList} refreshKey={refreshKey} />
        <WebhooksPanel client={client} refreshKey={refreshKey} />
        {a && <VaultPanel client={client} defaultAddress={a.address} enabled={hasApiKey} />}
      </div>
      <PoliciesPanel client={client} refreshKey={refreshKey} />
      {open && <TxDrawer client={client} txId={open.id} onClose={() => setOpen(null)} />}
    </>
  );
}
