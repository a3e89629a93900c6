import { Logo } from './ui/logo';
import { BrowserProvider, type Eip1193Provider } from 'ethers';
import { useState } from 'preact/hooks';
import { errorText, unwrap } from './api';
import { clientFor, type Session } from './session';

declare global {
  interface Window {
    ethereum?: Eip1193Provider;
  }
}

/**
 * One form: an API key opens the team view, an admin token the operator view; each is checked
 * against the API before the session starts. A wallet (EIP-1193) signs in through SIWE.
 */
export function Login({ onLogin }: { onLogin: (session: Session) => void }) {
  const [apiKey, setApiKey] = useState('');
  const [adminToken, setAdminToken] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      if (adminToken.trim()) {
        const session: Session = { kind: 'operator', adminToken: adminToken.trim() };
        await unwrap(clientFor(null).api.GET('/admin/accounts', { params: { query: { limit: 1 } }, headers: { authorization: `Bearer ${session.adminToken}` } }));
        onLogin(session);
      } else if (apiKey.trim()) {
        const session: Session = { kind: 'team', apiKey: apiKey.trim() };
        await unwrap(clientFor(session).api.GET('/api/account'));
        onLogin(session);
      } else {
        setError('Enter an API key, or an admin token for the operator view.');
      }
    } catch (err) {
      setError(`Sign-in refused: ${errorText(err)}`);
    } finally {
      setBusy(false);
    }
  };

  const wallet = async () => {
    setError(null);
    if (!window.ethereum) return setError('No browser wallet found.');
    setBusy(true);
    try {
      const signer = await new BrowserProvider(window.ethereum).getSigner();
      const { token } = await clientFor(null).auth.login(signer);
      onLogin({ kind: 'team', jwt: token });
    } catch (err) {
      setError(`Wallet sign-in failed: ${errorText(err)}`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div class="login">
      <form class="card login-card" onSubmit={submit}>
        <div class="brand">
          <Logo /> Gas relay
        </div>
        <p class="muted">Sign in to see your balance, transactions, spend and webhooks.</p>
        <label>
          API key
          <input data-testid="login-api-key" type="password" autocomplete="off" value={apiKey} onInput={(e) => setApiKey(e.currentTarget.value)} placeholder="your team's API key" />
        </label>
        <label>
          Admin token <span class="muted">(operators)</span>
          <input data-testid="login-admin-token" type="password" autocomplete="off" value={adminToken} onInput={(e) => setAdminToken(e.currentTarget.value)} placeholder="only for the operator view" />
        </label>
        {error && <div class="error" data-testid="login-error">{error}</div>}
        <button data-testid="login-submit" class="primary" type="submit" disabled={busy}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
        {window.ethereum && (
          <button type="button" class="secondary" onClick={wallet} disabled={busy} data-testid="login-wallet">
            Sign in with wallet
          </button>
        )}
        <p class="muted small">Only the session token is kept, in this tab's session storage.</p>
      </form>
    </div>
  );
}
