import type { Api, AuditEvent } from '../api.js';
import { Alert, Empty, Loading, PageFrame, usePaged, When } from '../ui.js';

const ACTIONS: Record<string, string> = {
  'client.create': 'Created client',
  'client.update': 'Changed client',
  'client.regenerate_secret': 'Regenerated secret',
  'client.revoke': 'Revoked client',
  'client.add_secret': 'Added secret',
  'client.remove_secret': 'Retired secret',
  'client.set_jwks': 'Set public keys',
  'webhook.create': 'Added endpoint',
  'webhook.delete': 'Removed endpoint',
  'webhook.update': 'Changed endpoint',
  'run.redeliver': 'Redelivered run',
  'knap.update': 'Changed Knap',
  'knap.delete': 'Deleted Knap',
  'admin.create': 'Made admin',
  'admin.sign_in': 'Signed in',
  'admin.sign_in_failed': 'Failed sign-in',
};

export const AuditPage = ({ api }: { api: Api }) => {
  const paged = usePaged(async (cursor?: string) => {
    const page = await api.audit(cursor);
    return { items: page.events, next: page.next_cursor };
  });
  const events: AuditEvent[] | null = paged.items;
  return (
    <PageFrame
      title="Audit log"
      description="Every change to clients and endpoints, from this console or the operators' CLI, and every sign-in. Kept 400 days."
    >
      {paged.error && <Alert>{paged.error}</Alert>}
      {events === null ? (
        <Loading what="the audit log" />
      ) : events.length === 0 ? (
        <Empty title="Nothing recorded yet" />
      ) : (
        <table class="list">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Who</th>
              <th scope="col">What</th>
              <th scope="col">Target</th>
              <th scope="col">From</th>
            </tr>
          </thead>
          <tbody>
            {events.map((event, index) => (
              <tr key={`${event.at}-${index}`}>
                <td data-label="When">
                  <When at={event.at} />
                </td>
                <td data-label="Who">{event.actor}</td>
                <td data-label="What">{ACTIONS[event.action] ?? event.action}</td>
                <td data-label="Target">
                  <code>{event.target.id}</code>
                </td>
                <td data-label="From">{event.source_ip ?? <span class="muted">CLI</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {paged.next && (
        <button type="button" class="secondary" onClick={() => void paged.more()}>
          Load more
        </button>
      )}
    </PageFrame>
  );
};
