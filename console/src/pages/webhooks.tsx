import { useState } from 'preact/hooks';
import { type Api, type Endpoint, EVENT_TYPES } from '../api.js';
import { Alert, Confirm, Dialog, Empty, Listed, PageFrame, SecretReveal, useLoad, When } from '../ui.js';
import { EndpointPage } from './endpoint.js';

type Open =
  | { kind: 'add' }
  | { kind: 'secret'; endpoint: Endpoint & { secret: string } }
  | { kind: 'remove'; endpoint: Endpoint }
  | null;

/** The list, or one endpoint's page (`#webhooks/<endpoint_id>`; the console remounts the page when the hash changes). */
export const WebhooksPage = ({ api }: { api: Api }) => {
  const id = location.hash.startsWith('#webhooks/') ? decodeURIComponent(location.hash.slice('#webhooks/'.length)) : '';
  return id ? <EndpointPage api={api} endpointId={id} /> : <EndpointList api={api} />;
};

const EndpointList = ({ api }: { api: Api }) => {
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
              <th scope="col">Event types</th>
              <th scope="col">Description</th>
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
                <td data-label="Event types">
                  {endpoint.event_types ? endpoint.event_types.join(', ') : 'All'}
                  {endpoint.disabled ? ' (disabled)' : ''}
                </td>
                <td data-label="Description">{endpoint.description || '-'}</td>
                <td data-label="Added">
                  <When at={endpoint.created_at} />
                </td>
                <td class="row-actions">
                  <a
                    class="link"
                    href={`#webhooks/${encodeURIComponent(endpoint.endpoint_id)}`}
                    aria-label={`Attempts and settings of ${endpoint.url}`}
                  >
                    Attempts and settings
                  </a>{' '}
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
              const form = new FormData(event.currentTarget);
              const url = String(form.get('url') ?? '');
              const description = String(form.get('description') ?? '').trim();
              const types = form.getAll('event_types').map(String);
              setError(null);
              try {
                const endpoint = await api.addEndpoint({
                  url,
                  description: description === '' ? null : description,
                  // Every box ticked, or none: every type, including types added later.
                  event_types: types.length === 0 || types.length === EVENT_TYPES.length ? null : types,
                });
                setOpen({ kind: 'secret', endpoint });
                void list.reload();
              } catch (failure) {
                setError((failure as Error).message);
              }
            }}
          >
            <label for="endpoint-url">URL</label>
            <input id="endpoint-url" name="url" type="url" required placeholder="https://hooks.example.com/knap" autoFocus />
            <label for="endpoint-description">Description</label>
            <input id="endpoint-description" name="description" type="text" maxLength={1000} />
            <fieldset>
              <legend>Event types (none ticked: every type)</legend>
              {EVENT_TYPES.map((type) => (
                <label key={type} class="checkbox">
                  <input type="checkbox" name="event_types" value={type} /> {type}
                </label>
              ))}
            </fieldset>
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
