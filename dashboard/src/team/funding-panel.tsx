import type { Chain, RelayClient } from '@gas-relay/sdk';
import QRCode from 'qrcode';
import { useMemo } from 'preact/hooks';
import { shortHex, time, usd } from '../ui/format';
import { usePoll } from '../ui/use-poll';

/** The deposit address as a QR code, drawn as SVG rects from the code's module matrix (no inline markup, no data: URL: the page's CSP stays as it is). */
function AddressQr({ address }: { address: string }) {
  const cells = useMemo(() => {
    const qr = QRCode.create(address, { errorCorrectionLevel: 'M' });
    const size = qr.modules.size;
    const dark: Array<[number, number]> = [];
    for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) if (qr.modules.get(x, y)) dark.push([x, y]);
    return { size, dark };
  }, [address]);
  const quiet = 4;
  const side = cells.size + 2 * quiet;
  return (
    <svg class="qr" data-testid="deposit-qr" data-modules={cells.size} viewBox={`0 0 ${side} ${side}`} width="148" height="148" role="img" aria-label={`QR code of ${address}`} shape-rendering="crispEdges">
      <rect width={side} height={side} fill="#fff" />
      {cells.dark.map(([x, y]) => (
        <rect x={x + quiet} y={y + quiet} width="1" height="1" fill="#111" />
      ))}
    </svg>
  );
}

/** Self-serve funding: where to send USDC/DAI or the native currency, and what arrived. */
export function FundingPanel({ client, chains, refreshKey }: { client: RelayClient; chains: Chain[]; refreshKey: number }) {
  const funding = usePoll(() => client.funding.funding(), 0, [client]);
  const deposits = usePoll(() => client.funding.deposits({ limit: 20 }), 15_000, [client, refreshKey]);
  const chainName = (id: number) => chains.find((c) => c.id === id)?.name ?? String(id);
  const f = funding.data;
  const symbolOf = (chainId: number, token: string) => f?.chains.find((c) => c.chainId === chainId)?.tokens.find((t) => t.address.toLowerCase() === token.toLowerCase())?.symbol ?? shortHex(token);
  const decimalsOf = (chainId: number, token: string) => f?.chains.find((c) => c.chainId === chainId)?.tokens.find((t) => t.address.toLowerCase() === token.toLowerCase())?.decimals ?? 0;
  const units = (amount: string, decimals: number) => (decimals === 0 ? amount : (Number(amount) / 10 ** decimals).toLocaleString('en-US', { maximumFractionDigits: 6 }));

  return (
    <section class="card" data-testid="funding-panel">
      <header class="card-head">
        <h2>Add funds</h2>
      </header>
      {funding.error && <div class="error">{funding.error}</div>}
      {f && (
        <div class="funding">
          <AddressQr address={f.depositAddress} />
          <div>
            <div class="muted small">Deposit address (every chain)</div>
            <div class="mono break" data-testid="deposit-address">
              {f.depositAddress}
            </div>
            <ul class="small">
              {f.chains.map((c) => (
                <li>
                  {chainName(c.chainId)}: {c.tokens.map((t) => t.symbol).join(', ')} — credited after {c.confirmations} confirmations
                </li>
              ))}
            </ul>
          </div>
        </div>
      )}
      <h3>Deposits</h3>
      {deposits.error && <div class="error">{deposits.error}</div>}
      <table class="table compact">
        <tbody>
          {deposits.data && deposits.data.items.length === 0 && (
            <tr>
              <td class="empty">No deposits yet.</td>
            </tr>
          )}
          {deposits.data?.items.map((d) => (
            <tr data-testid="deposit-row" data-deposit-status={d.status}>
              <td>{chainName(d.chainId)}</td>
              <td class="mono" title={d.txHash}>
                {shortHex(d.txHash, 4, 4)}
              </td>
              <td class="num">
                {units(d.amount, decimalsOf(d.chainId, d.token))} {symbolOf(d.chainId, d.token)}
              </td>
              <td class="num">{d.creditedUsd === null ? '—' : usd(d.creditedUsd)}</td>
              <td>
                <span class={`badge ${d.status === 'credited' ? 'status-executed' : 'status-pending'}`}>{d.status === 'credited' ? 'credited' : `${d.confirmations} conf.`}</span>
              </td>
              <td class="muted small">{time(d.creditedAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
