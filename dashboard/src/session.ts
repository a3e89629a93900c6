import { RelayClient } from '@gas-relay/sdk';

/**
 * Who is looking: a team (API key or wallet-login JWT) or an operator (admin token). The one
 * credential lives in sessionStorage, so it is gone with the tab and never shared across tabs;
 * nothing else is stored.
 */
export type Session = { kind: 'team'; apiKey: string } | { kind: 'team'; jwt: string } | { kind: 'operator'; adminToken: string };

const KEY = 'gas-relay-dashboard-session';

export function loadSession(): Session | null {
  try {
    const raw = sessionStorage.getItem(KEY);
    return raw ? (JSON.parse(raw) as Session) : null;
  } catch {
    return null;
  }
}

export function saveSession(session: Session | null): void {
  if (session) sessionStorage.setItem(KEY, JSON.stringify(session));
  else sessionStorage.removeItem(KEY);
}

/** The SDK client with the session's team credential (none for an operator: admin calls add the header). */
export function clientFor(session: Session | null): RelayClient {
  const baseUrl = window.location.origin;
  if (session?.kind === 'team') return new RelayClient({ baseUrl, ...('apiKey' in session ? { apiKey: session.apiKey } : { jwt: session.jwt }) });
  return new RelayClient({ baseUrl });
}

export function adminHeaders(session: Session): Record<string, string> {
  return session.kind === 'operator' ? { authorization: `Bearer ${session.adminToken}` } : {};
}
