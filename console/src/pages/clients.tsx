import { useState } from 'preact/hooks';
import { type Api, type Client, SCOPES, type Scope } from '../api.js';
import { Alert, Badge, Confirm, CopyValue, Dialog, Empty, Listed, PageFrame, SecretReveal, useLoad, When } from '../ui.js';

type Open =
  | { kind: 'create' }
  | { kind: 'secret'; title: string; clientId: string; secret: string }
  | { kind: 'regenerate' | 'revoke' | 'limit' | 'manage'; client: Client }
  | null;

const SCOPE_LABELS: Record<Scope, string> = {
  'read:knaps': 'Read Knaps, their runs and schedule previews',
  'write:knaps': 'Create, change, delete and run Knaps',
};

/** One checkbox per scope; what the client's tokens may do. */
const ScopeChoice = ({ chosen, idPrefix }: { chosen: readonly Scope[]; idPrefix: string }) => (
  <fieldset class="scopes">
    <legend>Scopes</legend>
    {SCOPES.map((scope) => (
      <label class="check" key={scope} for={`${idPrefix}-${scope}`}>
        <input id={`${idPrefix}-${scope}`} type="checkbox" name="scopes" value={scope} defaultChecked={chosen.includes(scope)} />{' '}
        <code>{scope}</code> <span class="muted small">{SCOPE_LABELS[scope]}</span>
      </label>
    ))}
  </fieldset>
);

const chosenScopes = (form: FormData): Scope[] => form.getAll('scopes').map(String) as Scope[];

const CreateForm = ({
  api,
  onCreated,
  onClose,
}: {
  api: Api;
  onCreated: (c: Client & { client_secret: string }) => void;
  onClose: () => void;
}) => {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return (
    <Dialog title="Create client" onClose={onClose}>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          const limit = String(form.get('rate_limit') ?? '').trim();
          const description = String(form.get('description') ?? '').trim();
          const scopes = chosenScopes(form);
          if (scopes.length === 0) {
            setError('Choose at least one scope.');
            return;
          }
          setBusy(true);
          setError(null);
          try {
            onCreated(
              await api.createClient({
                name: String(form.get('name') ?? ''),
                ...(description ? { description } : {}),
                ...(limit ? { rate_limit: Number(limit) } : {}),
                scopes,
              }),
            );
          } catch (failure) {
            setError((failure as Error).message);
            setBusy(false);
          }
        }}
      >
        <label for="client-name">Name</label>
        <input id="client-name" name="name" required maxLength={100} autoFocus autoComplete="off" />
        <label for="client-description">Description (optional)</label>
        <input id="client-description" name="description" maxLength={1000} autoComplete="off" />
        <label for="client-limit">Rate limit, requests per minute (optional)</label>
        <input id="client-limit" name="rate_limit" type="number" min={1} max={1000000} step={1} inputMode="numeric" />
        <ScopeChoice chosen={SCOPES} idPrefix="create-scope" />
        {error && <Alert>{error}</Alert>}
        <div class="actions">
          <button type="button" class="secondary" onClick={onClose} disabled={busy}>
            Cancel
          </button>
          <button type="submit" class="primary" disabled={busy}>
            {busy ? 'Creating…' : 'Create'}
          </button>
        </div>
      </form>
    </Dialog>
  );
};

const LimitForm = ({ api, client, onDone, onClose }: { api: Api; client: Client; onDone: () => void; onClose: () => void }) => {
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog title={`Rate limit of ${client.name}`} onClose={onClose}>
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          const form = new FormData(event.currentTarget);
          const useDefault = form.get('default') === 'on';
          try {
            await api.updateClient(client.client_id, { rate_limit: useDefault ? null : Number(form.get('rate_limit')) });
            onDone();
          } catch (failure) {
            setError((failure as Error).message);
          }
        }}
      >
        <label for="limit">Requests per minute</label>
        <input id="limit" name="rate_limit" type="number" min={1} max={1000000} step={1} value={client.rate_limit} autoFocus />
        <label class="check">
          <input type="checkbox" name="default" /> Use the deployment's default
        </label>
        {error && <Alert>{error}</Alert>}
        <div class="actions">
          <button type="button" class="secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" class="primary">
            Save
          </button>
        </div>
      </form>
    </Dialog>
  );
};

/** The client's page: its scopes (and, below, its secrets and keys). */
const ClientPanel = ({
  api,
  client,
  onChanged,
  onClose,
}: {
  api: Api;
  client: Client;
  onChanged: () => void;
  onClose: () => void;
}) => {
  const [error, setError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  return (
    <Dialog title={client.name} onClose={onClose}>
      <CopyValue value={client.client_id} label="Copy id" testId="client-id" />
      <form
        onSubmit={async (event) => {
          event.preventDefault();
          const scopes = chosenScopes(new FormData(event.currentTarget));
          setSaved(false);
          if (scopes.length === 0) {
            setError('Choose at least one scope.');
            return;
          }
          try {
            await api.updateClient(client.client_id, { scopes });
            setError(null);
            setSaved(true);
            onChanged();
          } catch (failure) {
            setError((failure as Error).message);
          }
        }}
      >
        <ScopeChoice chosen={client.scopes} idPrefix="client-scope" />
        <p class="muted small">A scope taken away is gone from the client's live tokens at once.</p>
        {error && <Alert>{error}</Alert>}
        {saved && <p role="status">Scopes saved.</p>}
        <div class="actions">
          <button type="submit" class="primary">
            Save scopes
          </button>
        </div>
      </form>
      <Secrets api={api} clientId={client.client_id} />
      <div class="actions">
        <button type="button" class="secondary" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
};

/** Rotate secret: add a second one (shown once), see both with their last use, retire the old. */
const Secrets = ({ api, clientId }: { api: Api; clientId: string }) => {
  const detail = useLoad(() => api.client(clientId));
  const [shown, setShown] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const act = async (work: () => Promise<unknown>) => {
    setError(null);
    try {
      await work();
      await detail.reload();
    } catch (failure) {
      setError((failure as Error).message);
    }
  };
  const secrets = detail.data?.secrets ?? [];
  const keys = detail.data?.jwks.keys ?? [];
  return (
    <section aria-labelledby="secrets-title">
      <h3 id="secrets-title">Secrets</h3>
      <table class="list">
        <thead>
          <tr>
            <th scope="col">Secret id</th>
            <th scope="col">Created</th>
            <th scope="col">Last used</th>
            <th scope="col">Expires</th>
            <th scope="col">
              <span class="visually-hidden">Actions</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {secrets.map((secret) => (
            <tr key={secret.secret_id} data-secret={secret.secret_id}>
              <td data-label="Secret id">
                <code>{secret.secret_id}</code>
              </td>
              <td data-label="Created">
                <When at={secret.created_at} />
              </td>
              <td data-label="Last used">
                <When at={secret.last_used_at} />
              </td>
              <td data-label="Expires">{secret.expires_at ? <When at={secret.expires_at} /> : 'when retired'}</td>
              <td class="row-actions">
                {secrets.length > 1 && (
                  <button
                    type="button"
                    class="link danger"
                    onClick={() => act(() => api.removeSecret(clientId, secret.secret_id))}
                  >
                    Retire
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {shown && (
        <div role="status">
          <p>New secret, shown only this once: store it now. Both secrets work until you retire one.</p>
          <code class="secret">{shown}</code>
        </div>
      )}
      {error && <Alert>{error}</Alert>}
      <div class="actions">
        <button
          type="button"
          class="primary"
          disabled={secrets.length >= 2}
          onClick={() =>
            act(async () => {
              setShown((await api.addSecret(clientId)).client_secret);
            })
          }
        >
          Rotate secret
        </button>
      </div>
      <h3>Public keys (private_key_jwt)</h3>
      {keys.length === 0 ? (
        <p class="muted small">None registered (PUT /api/admin/clients/{'{client_id}'}/jwks, or the CLI's set-jwks).</p>
      ) : (
        <ul>
          {keys.map((key, index) => (
            <li key={key.kid ?? index}>
              <code>{[key.kty, key.crv, key.alg, key.kid].filter(Boolean).join(' · ')}</code>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
};

export const ClientsPage = ({ api }: { api: Api }) => {
  const list = useLoad(api.clients);
  const [open, setOpen] = useState<Open>(null);
  const close = () => setOpen(null);
  const clients = list.data?.clients ?? [];
  return (
    <PageFrame
      title="API clients"
      description="Credentials your integrations use to get tokens. Each has its own rate limit."
      action={
        <button type="button" class="primary" onClick={() => setOpen({ kind: 'create' })}>
          Create client
        </button>
      }
    >
      <Listed
        state={list}
        what="clients"
        count={clients.length}
        empty={<Empty title="No API clients yet">Create one to give an integration its client id and secret.</Empty>}
      >
        <table class="list">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Client id</th>
              <th scope="col">Status</th>
              <th scope="col">Scopes</th>
              <th scope="col">Rate limit</th>
              <th scope="col">Last used</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {clients.map((client) => (
              <tr key={client.client_id} data-client={client.client_id}>
                <td data-label="Name">
                  <strong>{client.name}</strong>
                  {client.description && <div class="muted small">{client.description}</div>}
                </td>
                <td data-label="Client id">
                  <code>{client.client_id}</code>
                </td>
                <td data-label="Status">
                  <Badge tone={client.status === 'active' ? 'ok' : 'off'}>
                    {client.status === 'active' ? 'Active' : 'Revoked'}
                  </Badge>
                </td>
                <td data-label="Scopes">{client.scopes.join(' ')}</td>
                <td data-label="Rate limit">{client.rate_limit.toLocaleString()}/min</td>
                <td data-label="Last used">
                  <When at={client.last_used_at} />
                </td>
                <td class="row-actions">
                  {client.status === 'active' && (
                    <>
                      <button type="button" class="link" onClick={() => setOpen({ kind: 'manage', client })}>
                        Manage
                      </button>
                      <button type="button" class="link" onClick={() => setOpen({ kind: 'limit', client })}>
                        Set rate limit
                      </button>
                      <button type="button" class="link" onClick={() => setOpen({ kind: 'regenerate', client })}>
                        Regenerate secret
                      </button>
                      <button type="button" class="link danger" onClick={() => setOpen({ kind: 'revoke', client })}>
                        Revoke
                      </button>
                    </>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Listed>
      {open?.kind === 'create' && (
        <CreateForm
          api={api}
          onClose={close}
          onCreated={(created) => {
            setOpen({
              kind: 'secret',
              title: `Client ${created.name} created`,
              clientId: created.client_id,
              secret: created.client_secret,
            });
            void list.reload();
          }}
        />
      )}
      {open?.kind === 'secret' && (
        <SecretReveal
          title={open.title}
          fields={[['Client id', open.clientId]]}
          secretLabel="Client secret"
          secret={open.secret}
          onClose={close}
        />
      )}
      {open?.kind === 'regenerate' && (
        <Confirm
          title="Regenerate secret"
          message={`Give ${open.client.name} a new secret? The current secret and every token issued with it stop working at once.`}
          action="Regenerate secret"
          danger
          onClose={close}
          onConfirm={async () => {
            const { client_secret } = await api.regenerate(open.client.client_id);
            setOpen({
              kind: 'secret',
              title: `New secret for ${open.client.name}`,
              clientId: open.client.client_id,
              secret: client_secret,
            });
          }}
        />
      )}
      {open?.kind === 'revoke' && (
        <Confirm
          title="Revoke client"
          message={`Revoke ${open.client.name}? Its tokens stop working at once, and a revoked client cannot be restored.`}
          action="Revoke client"
          danger
          onClose={close}
          onConfirm={async () => {
            await api.revoke(open.client.client_id);
            close();
            await list.reload();
          }}
        />
      )}
      {open?.kind === 'manage' && (
        <ClientPanel api={api} client={open.client} onClose={close} onChanged={() => void list.reload()} />
      )}
      {open?.kind === 'limit' && (
        <LimitForm
          api={api}
          client={open.client}
          onClose={close}
          onDone={() => {
            close();
            void list.reload();
          }}
        />
      )}
    </PageFrame>
  );
};
