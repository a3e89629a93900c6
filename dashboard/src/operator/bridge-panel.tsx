import type { RelayClient } from '@gas-relay/sdk';
import { unwrap } from '../api';
import { shortHex, time } from '../ui/format';
import { usePoll } from '../ui/use-poll';

/** The bridge filler (GET /admin/bridge): each chain's spoke inventory (low lines flagged) and the latest bridge orders. */
export function BridgePanel({ client, adminHeaders, chainName }: { client: RelayClient; adminHeaders: Record<string, string>; chainName: (id: number) => string }) {
  const bridge = usePoll(() => unwrap(client.api.GET('/admin/bridge', { headers: adminHeaders })), 10_000, [client]);
  const units = (value: string, decimals: number): string => {
    const whole = value.length > decimals ? value.slice(0, value.length - decimals) : '0';
    return Number(whole).toLocaleString();
  };
  const b = bridge.data;
  return (
    <section class="card wide" data-testid="bridge-panel">
      <header class="card-head">
        <h2>Bridge</h2>
        <span class="muted small">{b ? `filler ${shortHex(b.filler)}${b.account ? ` · charged to ${shortHex(b.account)}` : ' · no BRIDGE_ACCOUNT: fills are not sent'}` : ''}</span>
      </header>
      {bridge.error && <div class="error">{bridge.error}</div>}
      <h3>Inventory</h3>
      <table class="table compact">
        <tbody>
          {b?.inventory.map((line) => (
            <tr data-testid="bridge-inventory-row" data-chain-id={line.chainId} data-symbol={line.symbol} class={line.low ? 'warn' : ''}>
              <td>{chainName(line.chainId)}</td>
              <td>{line.symbol}</td>
              <td class="num">{units(line.available, line.decimals)}</td>
              <td>{line.low ? <span class="badge status-failed">low</span> : ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <h3>Orders</h3>
      {b && b.orders.length === 0 ? (
        <div class="muted small">No bridge deposits yet.</div>
      ) : (
        <table class="table">
          <thead>
            <tr>
              <th>Deposit</th>
              <th>Route</th>
              <th>State</th>
              <th class="num">In</th>
              <th class="num">Paid</th>
              <th>Created</th>
              <th>Filled</th>
            </tr>
          </thead>
          <tbody>
            {b?.orders.map((o) => (
              <tr data-testid="bridge-order-row" data-deposit-id={o.depositId} data-state={o.state}>
                <td class="mono">{shortHex(o.srcTxHash)}</td>
                <td>
                  {chainName(o.srcChainId)} → {chainName(o.destChainId)}
                </td>
                <td>
                  <span class={`badge ${o.state === 'refunded' ? 'status-failed' : ['filled', 'repaying', 'repaid'].includes(o.state) ? 'status-executed' : 'status-pending'}`}>{o.state}</span>
                </td>
                <td class="num">{o.inputAmount}</td>
                <td class="num">{o.fillAmount ?? '—'}</td>
                <td class="muted small">{time(o.createdAt)}</td>
                <td class="muted small">{o.filledAt ? time(o.filledAt) : '—'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
