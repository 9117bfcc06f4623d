import { useState } from 'preact/hooks';
import type { Api, Client } from '../api.js';
import { Alert, Badge, Confirm, Dialog, Empty, Listed, PageFrame, SecretReveal, useLoad, When } from '../ui.js';

type Open =
  | { kind: 'create' }
  | { kind: 'secret'; title: string; clientId: string; secret: string }
  | { kind: 'regenerate' | 'revoke' | 'limit'; client: Client }
  | null;

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
          setBusy(true);
          setError(null);
          try {
            onCreated(
              await api.createClient({
                name: String(form.get('name') ?? ''),
                ...(description ? { description } : {}),
                ...(limit ? { rate_limit: Number(limit) } : {}),
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
                <td data-label="Rate limit">{client.rate_limit.toLocaleString()}/min</td>
                <td data-label="Last used">
                  <When at={client.last_used_at} />
                </td>
                <td class="row-actions">
                  {client.status === 'active' && (
                    <>
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
