import { useState } from 'preact/hooks';
import type { Api, Endpoint } from '../api.js';
import { Alert, Confirm, Dialog, Empty, Listed, PageFrame, SecretReveal, useLoad, When } from '../ui.js';

type Open =
  | { kind: 'add' }
  | { kind: 'secret'; endpoint: Endpoint & { secret: string } }
  | { kind: 'remove'; endpoint: Endpoint }
  | null;

export const WebhooksPage = ({ api }: { api: Api }) => {
  const list = useLoad(api.endpoints);
  const [open, setOpen] = useState<Open>(null);
  const [error, setError] = useState<string | null>(null);
  const close = () => setOpen(null);
  const endpoints = list.data?.endpoints ?? [];
  return (
    <PageFrame
      title="Webhook endpoints"
      description="Every run of your organization's Knaps is delivered to each endpoint, signed with its secret."
      action={
        <button type="button" class="primary" onClick={() => setOpen({ kind: 'add' })}>
          Add endpoint
        </button>
      }
    >
      <Listed
        state={list}
        what="endpoints"
        count={endpoints.length}
        empty={<Empty title="No webhook endpoints yet">Runs are recorded but delivered nowhere until you add one.</Empty>}
      >
        <table class="list">
          <thead>
            <tr>
              <th scope="col">URL</th>
              <th scope="col">Endpoint id</th>
              <th scope="col">Added</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {endpoints.map((endpoint) => (
              <tr key={endpoint.endpoint_id}>
                <td data-label="URL" class="break">
                  {endpoint.url}
                </td>
                <td data-label="Endpoint id">
                  <code>{endpoint.endpoint_id}</code>
                </td>
                <td data-label="Added">
                  <When at={endpoint.created_at} />
                </td>
                <td class="row-actions">
                  <button type="button" class="link danger" onClick={() => setOpen({ kind: 'remove', endpoint })}>
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </Listed>
      {open?.kind === 'add' && (
        <Dialog title="Add endpoint" onClose={close}>
          <form
            onSubmit={async (event) => {
              event.preventDefault();
              const url = String(new FormData(event.currentTarget).get('url') ?? '');
              setError(null);
              try {
                const endpoint = await api.addEndpoint(url);
                setOpen({ kind: 'secret', endpoint });
                void list.reload();
              } catch (failure) {
                setError((failure as Error).message);
              }
            }}
          >
            <label for="endpoint-url">URL</label>
            <input id="endpoint-url" name="url" type="url" required placeholder="https://hooks.example.com/knap" autoFocus />
            {error && <Alert>{error}</Alert>}
            <div class="actions">
              <button type="button" class="secondary" onClick={close}>
                Cancel
              </button>
              <button type="submit" class="primary">
                Add
              </button>
            </div>
          </form>
        </Dialog>
      )}
      {open?.kind === 'secret' && (
        <SecretReveal
          title="Endpoint added"
          fields={[
            ['URL', open.endpoint.url],
            ['Endpoint id', open.endpoint.endpoint_id],
          ]}
          secretLabel="Signing secret"
          secret={open.endpoint.secret}
          onClose={close}
        />
      )}
      {open?.kind === 'remove' && (
        <Confirm
          title="Remove endpoint"
          message={`Stop delivering runs to ${open.endpoint.url}?`}
          action="Remove endpoint"
          danger
          onClose={close}
          onConfirm={async () => {
            await api.removeEndpoint(open.endpoint.endpoint_id);
            close();
            await list.reload();
          }}
        />
      )}
    </PageFrame>
  );
};
