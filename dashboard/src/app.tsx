import { useMemo, useState } from 'preact/hooks';
import { Login } from './login';
import { Logo } from './ui/logo';
import { OperatorView } from './operator/operator-view';
import { adminHeaders, clientFor, loadSession, saveSession, type Session } from './session';
import { TeamView } from './team/team-view';

export function App() {
  const [session, setSession] = useState<Session | null>(loadSession);
  const client = useMemo(() => clientFor(session), [session]);

  const login = (s: Session) => {
    saveSession(s);
    setSession(s);
  };
  const logout = () => {
    saveSession(null);
    setSession(null);
  };

  if (!session) return <Login onLogin={login} />;
  return (
    <div class="shell">
      <header class="topbar">
        <div class="brand">
          <Logo /> Gas relay <span class="view-name">{session.kind === 'operator' ? 'Operator' : 'Team'}</span>
        </div>
        <nav>
          <a href="/docs" target="_blank" rel="noopener noreferrer">
            API docs
          </a>
          <button class="ghost" onClick={logout} data-testid="logout">
            Sign out
          </button>
        </nav>
      </header>
      <main class="content" data-testid={session.kind === 'operator' ? 'operator-view' : 'team-view'}>
        {session.kind === 'operator' ? <OperatorView client={client} adminHeaders={adminHeaders(session)} /> : <TeamView client={client} hasApiKey={'apiKey' in session} />}
      </main>
    </div>
  );
}
