import type { GaslessSwap, Order, Position, RelayClient } from '@gas-relay/sdk';
import { useEffect, useState } from 'preact/hooks';
import { errorText } from '../api';
import { amount, shortHex } from '../ui/format';

/**
 * Vault positions of a wallet (GET /v1/positions), and a lookup of one vault order or gasless
 * swap by its id: the API lists neither per account yet. Those endpoints take an API key only,
 * so a wallet-login session sees a note instead.
 */
export function VaultPanel({ client, defaultAddress, enabled }: { client: RelayClient; defaultAddress: string; enabled: boolean }) {
  const [address, setAddress] = useState(defaultAddress);
  const [positions, setPositions] = useState<Position[] | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [lookupId, setLookupId] = useState('');
  const [found, setFound] = useState<{ order?: Order; swap?: GaslessSwap; error?: string } | null>(null);

  const load = (who: string) => {
    setError(null);
    client.vault
      .positions(who)
      .then(setPositions)
      .catch((err: unknown) => setError(errorText(err)));
  };
  useEffect(() => {
    if (enabled) load(defaultAddress);
  }, [client, defaultAddress, enabled]);

  const lookup = async (event: Event) => {
    event.preventDefault();
    const id = lookupId.trim();
    if (!id) return;
    const [order, swap] = await Promise.allSettled([client.vault.order(id), client.gasless.status(id)]);
    if (order.status === 'fulfilled') setFound({ order: order.value });
    else if (swap.status === 'fulfilled') setFound({ swap: swap.value });
    else setFound({ error: `No vault order or gasless swap ${id}.` });
  };

  return (
    <section class="card">
      <header class="card-head">
        <h2>Vaults &amp; gasless swaps</h2>
      </header>
      {!enabled && <div class="muted small">Vault positions, orders and gasless swaps are read with an API key: sign in with one to see them.</div>}
      {enabled && (
        <>
          <form
            class="inline-form"
            onSubmit={(e) => {
              e.preventDefault();
              load(address.trim());
            }}
          >
            <input aria-label="wallet address" value={address} onInput={(e) => setAddress(e.currentTarget.value)} placeholder="wallet address" />
            <button class="secondary">Positions</button>
          </form>
          {error && <div class="error">{error}</div>}
          <table class="table compact">
            <thead>
              <tr>
                <th>Venue</th>
                <th>Chain</th>
                <th class="num">Shares</th>
                <th class="num">Assets</th>
                <th class="num">PnL</th>
              </tr>
            </thead>
            <tbody>
              {positions && positions.length === 0 && (
                <tr>
                  <td colSpan={5} class="empty">
                    No vault positions for {shortHex(address)}.
                  </td>
                </tr>
              )}
              {positions?.map((p) => (
                <tr data-testid="position-row">
                  <td>{p.venueId}</td>
                  <td>{p.chain}</td>
                  <td class="num">{amount(p.shares, 0)}</td>
                  <td class="num">{amount(p.assets, 0)}</td>
                  <td class={`num ${p.pnl.startsWith('-') ? 'bad' : 'good'}`}>{amount(p.pnl, 0)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <h3>Order or swap</h3>
          <form class="inline-form" onSubmit={lookup}>
            <input aria-label="order or swap id" value={lookupId} onInput={(e) => setLookupId(e.currentTarget.value)} placeholder="vault order id or gasless swap id" />
            <button class="secondary">Look up</button>
          </form>
          {found?.error && <div class="muted">{found.error}</div>}
          {found?.order && (
            <dl class="details">
              <dt>Vault order</dt>
              <dd>
                {found.order.kind} {amount(found.order.amount, 0)} on {found.order.venueId} — <b>{found.order.status}</b>
              </dd>
              <dt>Relay tx</dt>
              <dd class="mono">{found.order.relayTxId}</dd>
              <dt>Hash</dt>
              <dd class="mono">{found.order.executionTxHash ?? '—'}</dd>
            </dl>
          )}
          {found?.swap && (
            <dl class="details">
              <dt>Gasless swap</dt>
              <dd>
                {amount(found.swap.amountIn, 0)} {shortHex(found.swap.fromToken)} → {amount(found.swap.amountOut, 0)} {shortHex(found.swap.toToken)} — <b>{found.swap.status}</b>
              </dd>
              <dt>Fee</dt>
              <dd>{amount(found.swap.feeAmount, 0)}</dd>
              <dt>Hash</dt>
              <dd class="mono">{found.swap.executionTxHash ?? '—'}</dd>
            </dl>
          )}
        </>
      )}
    </section>
  );
}
