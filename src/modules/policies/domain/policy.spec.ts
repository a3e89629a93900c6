import { candidatesFor, SponsoredCall, SponsorshipPolicy, staticRefusal } from './policy';

const USDC = '0x5fbdb2315678afecb367f032d93f642f64180aa3';
const MINT = '0x40c10f19';
const alice = '0x70997970c51812dc3a010c7d01b50e0d17dc79c8';
const bob = '0x3c44cdddb6a900fa2b585dd299e03d12fa4293bc';

function policy(over: Partial<SponsorshipPolicy> = {}): SponsorshipPolicy {
  return {
    id: 'p',
    userId: 'u',
    name: 'p',
    enabled: true,
    chainIds: null,
    targets: null,
    startsAt: null,
    endsAt: null,
    budgetMicro: null,
    perEndUser: null,
    allow: null,
    deny: null,
    maxGasPriceWei: null,
    spentMicro: 0n,
    reservedMicro: 0n,
    txCount: 0,
    createdAt: new Date(0),
    ...over,
  };
}

const call = (over: Partial<SponsoredCall> = {}): SponsoredCall => ({ chainId: 31337, to: USDC, callData: `${MINT}${'00'.repeat(64)}`, endUser: alice, now: new Date('2026-06-01T00:00:00Z'), ...over });

describe('sponsorship policy matching', () => {
  it('matches chain, target and selector; an empty list is no restriction', () => {
    expect(staticRefusal(policy(), call())).toBeNull();
    expect(staticRefusal(policy({ chainIds: [] }), call())).toBeNull();
    expect(staticRefusal(policy({ chainIds: [84532] }), call())).toBe('no_policy_matches');
    expect(staticRefusal(policy({ targets: [{ address: USDC }] }), call({ to: USDC.toUpperCase().replace('0X', '0x') }))).toBeNull();
    expect(staticRefusal(policy({ targets: [{ address: USDC, selectors: ['0xa9059cbb'] }] }), call())).toBe('no_policy_matches');
    expect(staticRefusal(policy({ targets: [{ address: USDC, selectors: [MINT] }] }), call({ callData: '0x' }))).toBe('no_policy_matches');
  });

  it('the window is [startsAt, endsAt)', () => {
    const now = new Date('2026-06-01T00:00:00Z');
    expect(staticRefusal(policy({ startsAt: now }), call({ now }))).toBeNull();
    expect(staticRefusal(policy({ endsAt: now }), call({ now }))).toBe('outside_window');
    expect(staticRefusal(policy({ startsAt: new Date(now.getTime() + 1) }), call({ now }))).toBe('outside_window');
  });

  it('deny wins over allow; a policy that limits end users refuses a submission without one', () => {
    expect(staticRefusal(policy({ deny: [alice] }), call())).toBe('end_user_denied');
    expect(staticRefusal(policy({ allow: [bob] }), call())).toBe('end_user_denied');
    expect(staticRefusal(policy({ allow: [alice], deny: [alice] }), call())).toBe('end_user_denied');
    expect(staticRefusal(policy({ allow: [alice] }), call())).toBeNull();
    expect(staticRefusal(policy({ deny: [bob] }), call({ endUser: null }))).toBeNull();
    expect(staticRefusal(policy({ allow: [alice] }), call({ endUser: null }))).toBe('end_user_denied');
    expect(staticRefusal(policy({ perEndUser: { maxMicro: null, maxTxs: 1, windowSeconds: 60 } }), call({ endUser: null }))).toBe('end_user_denied');
  });

  it('keeps the candidates in order and reports the reason of the policy that got furthest; disabled ones are ignored', () => {
    const a = policy({ id: 'a', chainIds: [84532] });
    const b = policy({ id: 'b', endsAt: new Date('2020-01-01T00:00:00Z') });
    const c = policy({ id: 'c', deny: [alice] });
    const d = policy({ id: 'd', enabled: false });
    expect(candidatesFor([a, b, d], call())).toEqual({ candidates: [], refusal: 'outside_window' });
    expect(candidatesFor([c, b, a], call())).toEqual({ candidates: [], refusal: 'end_user_denied' });
    expect(candidatesFor([d], call())).toEqual({ candidates: [], refusal: 'no_policy_matches' });
    const e = policy({ id: 'e' });
    const f = policy({ id: 'f', budgetMicro: 5n });
    expect(candidatesFor([a, e, c, f], call()).candidates.map((p) => p.id)).toEqual(['e', 'f']);
  });
});
