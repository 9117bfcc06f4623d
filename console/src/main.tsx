/** The admin console: sign-in, then the organization's clients, Knaps, webhook endpoints, runs and audit log. */
import './styles.css';
import { render } from 'preact';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { Api } from './api.js';
import { Auth, type Session } from './auth.js';
import { readConfig } from './config.js';
import { AuditPage } from './pages/audit.js';
import { ClientsPage } from './pages/clients.js';
import { KnapsPage } from './pages/knaps.js';
import { RunsPage } from './pages/runs.js';
import { WebhooksPage } from './pages/webhooks.js';
import { Alert } from './ui.js';

const PAGES = [
  { hash: '#clients', label: 'Clients', Page: ClientsPage },
  { hash: '#knaps', label: 'Knaps', Page: KnapsPage },
  { hash: '#webhooks', label: 'Webhooks', Page: WebhooksPage },
  { hash: '#runs', label: 'Runs', Page: RunsPage },
  { hash: '#audit', label: 'Audit log', Page: AuditPage },
] as const;

const auth = new Auth(readConfig());

/** `#webhooks/<id>` is the webhooks page's endpoint page: a page is named by the hash's first part. */
const pageOf = (hash: string) => PAGES.find((page) => page.hash === hash.split('/')[0]) ?? PAGES[0];

const SignedOut = ({ error }: { error: string | null }) => (
  <main class="signed-out">
    <div class="card">
      <p class="brand">Knap</p>
      <h1>Admin console</h1>
      <p class="muted">Manage your organization's API clients, webhook endpoints and runs.</p>
      {error && <Alert>{error}</Alert>}
      <button type="button" class="primary wide" onClick={() => void auth.signIn()}>
        Sign in
      </button>
    </div>
  </main>
);

const Console = ({ session }: { session: Session }) => {
  const [hash, setHash] = useState(location.hash);
  useEffect(() => {
    const changed = () => setHash(location.hash);
    addEventListener('hashchange', changed);
    return () => removeEventListener('hashchange', changed);
  }, []);
  // An expired session signs in again silently (the provider's session usually still lasts).
  const api = useMemo(
    () =>
      new Api(
        () => auth.accessToken(),
        () => void auth.signIn(true),
      ),
    [],
  );
  const current = pageOf(hash);
  return (
    <>
      <header class="top">
        <a class="brand" href="#clients">
          Knap <span>console</span>
        </a>
        <nav aria-label="Console">
          {PAGES.map((page) => (
            <a key={page.hash} href={page.hash} aria-current={page === current ? 'page' : undefined}>
              {page.label}
            </a>
          ))}
        </nav>
        <div class="who">
          <span title={session.email}>
            {session.email}
            {session.orgName && <span class="muted"> · {session.orgName}</span>}
          </span>
          <button type="button" class="secondary" onClick={() => void auth.signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <main>
        <current.Page key={hash.split('/')[0] === current.hash ? hash : current.hash} api={api} />
      </main>
    </>
  );
};

const App = () => {
  const [state, setState] = useState<{ session: Session | null; ready: boolean; error: string | null }>({
    session: null,
    ready: false,
    error: null,
  });
  useEffect(() => {
    auth
      .start()
      .then((started) => {
        if (started !== 'redirecting') setState({ session: started, ready: true, error: null });
      })
      .catch((failure: unknown) =>
        setState({ session: null, ready: true, error: `Sign-in is not available: ${(failure as Error).message}` }),
      );
  }, []);
  if (!state.ready) return <p class="muted center">Loading…</p>;
  return state.session ? <Console session={state.session} /> : <SignedOut error={state.error} />;
};

const root = document.getElementById('app');
if (root) {
  root.textContent = '';
  render(<App />, root);
}
