import type { Policy, PolicyInput, PolicyUsage, RelayClient } from '@gas-relay/sdk';
import { useEffect, useState } from 'preact/hooks';
import { errorText } from '../api';
import { shortHex, time, usd } from '../ui/format';
import { usePoll } from '../ui/use-poll';

/** The form's fields as typed; empty means "not set" (cleared on edit). */
interface Draft {
  name: string;
  chainIds: string;
  targets: string;
  budgetUsd: string;
  perUserMaxTxs: string;
  perUserMaxUsd: string;
  windowSeconds: string;
  deny: string;
  maxGasPriceGwei: string;
}

const EMPTY: Draft = { name: '', chainIds: '', targets: '', budgetUsd: '', perUserMaxTxs: '', perUserMaxUsd: '', windowSeconds: '86400', deny: '', maxGasPriceGwei: '' };

const list = (text: string): string[] => text.split(/[\s,]+/).filter(Boolean);
const num = (text: string): number | null => (text.trim() === '' ? null : Number(text));

function draftOf(p: Policy): Draft {
  return {
    name: p.name,
    chainIds: (p.chainIds ?? []).join(', '),
    targets: (p.targets ?? []).map((t) => t.address).join(', '),
    budgetUsd: p.budgetUsd === undefined ? '' : String(p.budgetUsd),
    perUserMaxTxs: p.perEndUser?.maxTxs === undefined ? '' : String(p.perEndUser.maxTxs),
    perUserMaxUsd: p.perEndUser?.maxUsd === undefined ? '' : String(p.perEndUser.maxUsd),
    windowSeconds: p.perEndUser ? String(p.perEndUser.windowSeconds) : '86400',
    deny: (p.endUsers?.deny ?? []).join(', '),
    maxGasPriceGwei: p.maxGasPriceGwei === undefined ? '' : String(p.maxGasPriceGwei),
  };
}

/** The whole policy as the form says it: every field named, null where the form is empty (PATCH clears it). */
function inputOf(d: Draft): PolicyInput & { name: string } {
  const perUser = d.perUserMaxTxs.trim() !== '' || d.perUserMaxUsd.trim() !== '';
  return {
    name: d.name.trim(),
    chainIds: list(d.chainIds).length ? list(d.chainIds).map(Number) : null,
    targets: list(d.targets).length ? list(d.targets).map((address) => ({ address })) : null,
    budgetUsd: num(d.budgetUsd),
    perEndUser: perUser ? { maxTxs: num(d.perUserMaxTxs) ?? undefined, maxUsd: num(d.perUserMaxUsd) ?? undefined, windowSeconds: Number(d.windowSeconds) } : null,
    endUsers: list(d.deny).length ? { deny: list(d.deny) } : null,
    maxGasPriceGwei: num(d.maxGasPriceGwei),
  };
}

/**
 * Sponsorship policies (/api/policies): the account's policies in evaluation order, a form to
 * create or edit one, and the usage of the selected one per end user.
 */
export function PoliciesPanel({ client, refreshKey }: { client: RelayClient; refreshKey: number }) {
  const policies = usePoll(() => client.policies.list(), 30_000, [client, refreshKey]);
  const [editing, setEditing] = useState<string | 'new' | null>(null);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [selected, setSelected] = useState<string | null>(null);
  const [usage, setUsage] = useState<PolicyUsage | null>(null);
  const [note, setNote] = useState<string | null>(null);

  useEffect(() => {
    if (!selected) return setUsage(null);
    client.policies
      .usage(selected)
      .then(setUsage)
      .catch((err: unknown) => setNote(errorText(err)));
  }, [client, selected, refreshKey]);

  const field = (key: keyof Draft, label: string, placeholder = '') => (
    <label class="small">
      {label}
      <input data-testid={`policy-${key}`} value={draft[key]} placeholder={placeholder} onInput={(e) => setDraft({ ...draft, [key]: e.currentTarget.value })} />
    </label>
  );

  const save = async (event: Event) => {
    event.preventDefault();
    try {
      const input = inputOf(draft);
      const saved = editing === 'new' ? await client.policies.create(input) : await client.policies.update(editing!, input);
      setNote(`Policy ${saved.name} saved.`);
      setEditing(null);
      setSelected(saved.id);
      policies.reload();
    } catch (err) {
      setNote(`Not saved: ${errorText(err)}`);
    }
  };

  const toggle = async (p: Policy) => {
    try {
      await client.policies.update(p.id, { enabled: !p.enabled });
      policies.reload();
    } catch (err) {
      setNote(errorText(err));
    }
  };

  return (
    <section class="card" data-testid="policies-panel">
      <header class="card-head">
        <h2>Sponsorship policies</h2>
        <button
          class="secondary small"
          data-testid="policy-new"
          onClick={() => {
            setDraft(EMPTY);
            setEditing('new');
          }}
        >
          New policy
        </button>
      </header>
      {policies.error && <div class="error">{policies.error}</div>}
      {note && <div class="note">{note}</div>}
      {editing && (
        <form class="policy-form" onSubmit={save} data-testid="policy-form">
          {field('name', 'Name', 'Launch campaign')}
          {field('budgetUsd', 'Budget (USD)', 'no budget')}
          {field('chainIds', 'Chains', 'every chain')}
          {field('targets', 'Targets', 'any contract')}
          {field('perUserMaxTxs', 'Per end user: transactions', 'no cap')}
          {field('perUserMaxUsd', 'Per end user: USD', 'no cap')}
          {field('windowSeconds', 'Per end user: window (s)')}
          {field('deny', 'Denied end users')}
          {field('maxGasPriceGwei', 'Max gas price (gwei)', 'no cap')}
          <div class="inline-form">
            <button data-testid="policy-save">{editing === 'new' ? 'Create' : 'Save'}</button>
            <button type="button" class="secondary" onClick={() => setEditing(null)}>
              Cancel
            </button>
          </div>
        </form>
      )}
      <table class="table compact">
        <tbody>
          {policies.data && policies.data.length === 0 && (
            <tr>
              <td class="empty">No policies: the account sponsors every submission within its limits.</td>
            </tr>
          )}
          {policies.data?.map((p) => (
            <tr data-testid="policy-row" data-policy-id={p.id} class={selected === p.id ? 'selected' : ''} onClick={() => setSelected(p.id)}>
              <td>{p.name}</td>
              <td class="muted small">
                {p.budgetUsd !== undefined ? `budget ${usd(p.budgetUsd)}` : 'no budget'}
                {p.perEndUser ? ` · per user ${p.perEndUser.maxTxs ?? '∞'} tx / ${p.perEndUser.maxUsd !== undefined ? usd(p.perEndUser.maxUsd) : '∞'} per ${p.perEndUser.windowSeconds}s` : ''}
                {p.maxGasPriceGwei !== undefined ? ` · ≤ ${p.maxGasPriceGwei} gwei` : ''}
              </td>
              <td>
                <button class="secondary small" data-testid="policy-toggle" onClick={(e) => (e.stopPropagation(), void toggle(p))}>
                  {p.enabled ? 'enabled' : 'disabled'}
                </button>
              </td>
              <td>
                <button
                  class="secondary small"
                  data-testid="policy-edit"
                  onClick={(e) => {
                    e.stopPropagation();
                    setDraft(draftOf(p));
                    setEditing(p.id);
                  }}
                >
                  Edit
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {usage && (
        <>
          <h3 data-testid="policy-usage">
            Usage: {usd(usage.spentUsd)} spent, {usd(usage.reservedUsd)} reserved, {usage.txCount} transactions
          </h3>
          <table class="table compact">
            <tbody>
              {usage.endUsers.length === 0 && (
                <tr>
                  <td class="empty">No end user yet.</td>
                </tr>
              )}
              {usage.endUsers.map((u) => (
                <tr data-testid="policy-usage-row" data-end-user={u.address}>
                  <td class="mono" title={u.address}>
                    {shortHex(u.address)}
                  </td>
                  <td class="num">{usd(u.spentUsd)}</td>
                  <td class="num">{u.txCount} tx</td>
                  <td class="muted small">{u.windowResetsAt ? `resets ${time(u.windowResetsAt)}` : ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
