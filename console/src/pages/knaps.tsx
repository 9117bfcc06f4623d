import { useState } from 'preact/hooks';
import type { AdminKnap, Api, Run } from '../api.js';
import { Alert, Badge, Confirm, Empty, Loading, PageFrame, usePaged, When } from '../ui.js';

const OUTCOMES = {
  running: { label: 'Running', tone: 'wait' },
  succeeded: { label: 'Succeeded', tone: 'ok' },
  failed: { label: 'Failed', tone: 'bad' },
} as const;

/** The last run in a word: its reported outcome, else what became of its delivery. */
const LastRun = ({ run }: { run: AdminKnap['last_run'] }) => {
  if (!run) return <span class="muted">Not run yet</span>;
  const badge = run.outcome ? (
    <Badge tone={OUTCOMES[run.outcome].tone}>{OUTCOMES[run.outcome].label}</Badge>
  ) : run.status === 'failed' ? (
    <Badge tone="bad">Not delivered</Badge>
  ) : (
    <Badge tone="off">No report</Badge>
  );
  return (
    <span class="last-run">
      {badge} <When at={run.created_at} />
    </span>
  );
};

const schedule = (knap: AdminKnap): string =>
  knap.schedule_summary ??
  (knap.schedule_type === 'post_meeting_transcription' ? 'After each meeting' : knap.schedule_type === 'manual' ? 'Manual' : '—');

/** A Knap's runs, newest first (the admin runs listing, filtered by the Knap). */
const KnapRuns = ({ api, knap }: { api: Api; knap: AdminKnap }) => {
  const paged = usePaged(async (cursor?: string) => {
    const page = await api.runs(cursor, { knap_uuid: knap.uuid });
    return { items: page.runs, next: page.next_cursor };
  });
  const runs: Run[] | null = paged.items;
  if (paged.error) return <Alert>{paged.error}</Alert>;
  if (runs === null) return <Loading what={`runs of ${knap.name}`} />;
  if (runs.length === 0) return <p class="muted">No runs yet.</p>;
  return (
    <ul class="knap-runs" aria-label={`Runs of ${knap.name}`}>
      {runs.map((run) => (
        <li key={run.run_id}>
          <When at={run.created_at} /> <span class="muted">{run.trigger}</span>{' '}
          {run.outcome ? (
            <Badge tone={OUTCOMES[run.outcome].tone}>{OUTCOMES[run.outcome].label}</Badge>
          ) : (
            <Badge tone={run.status === 'failed' ? 'bad' : 'off'}>{run.status.replace('_', ' ')}</Badge>
          )}
        </li>
      ))}
      {paged.next && (
        <li>
          <button type="button" class="link" onClick={() => void paged.more()}>
            Older runs
          </button>
        </li>
      )}
    </ul>
  );
};

export const KnapsPage = ({ api }: { api: Api }) => {
  const paged = usePaged(async (cursor?: string) => {
    const page = await api.knaps(cursor);
    return { items: page.knaps, next: page.next_cursor };
  });
  const [busy, setBusy] = useState<string | null>(null);
  const [open, setOpen] = useState<string | null>(null);
  const [doomed, setDoomed] = useState<AdminKnap | null>(null);
  const knaps = paged.items;
  const toggle = async (knap: AdminKnap) => {
    setBusy(knap.uuid);
    paged.setError(null);
    try {
      await api.switchKnap(knap.uuid, !knap.is_active);
      await paged.reload();
    } catch (failure) {
      paged.setError((failure as Error).message);
    } finally {
      setBusy(null);
    }
  };
  return (
    <PageFrame
      title="Knaps"
      description="Every automation of your organization, private ones too: when each runs, how its last run went, and a switch to pause it."
      action={
        <button type="button" class="secondary" onClick={() => void paged.reload()}>
          Refresh
        </button>
      }
    >
      {paged.error && <Alert>{paged.error}</Alert>}
      {knaps === null ? (
        <Loading what="Knaps" />
      ) : knaps.length === 0 ? (
        paged.error ? null : (
          <Empty title="No Knaps yet">Knaps your organization's API clients create appear here.</Empty>
        )
      ) : (
        <table class="list">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Schedule</th>
              <th scope="col">Next run</th>
              <th scope="col">Last run</th>
              <th scope="col">On</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {knaps.map((knap) => (
              <>
                <tr key={knap.uuid}>
                  <td data-label="Name" class="break">
                    <strong>{knap.name}</strong>
                    {knap.visibility === 'private' && <span class="muted"> · private</span>}
                  </td>
                  <td data-label="Schedule">{schedule(knap)}</td>
                  <td data-label="Next run">
                    {knap.next_run_at ? <When at={knap.next_run_at} /> : <span class="muted">None</span>}
                  </td>
                  <td data-label="Last run">
                    <LastRun run={knap.last_run} />
                  </td>
                  <td data-label="On">
                    <label class="switch">
                      <input
                        type="checkbox"
                        role="switch"
                        checked={knap.is_active}
                        aria-checked={knap.is_active}
                        disabled={busy === knap.uuid}
                        aria-label={`${knap.name} on`}
                        onChange={() => void toggle(knap)}
                      />
                      <span>{knap.is_active ? 'On' : 'Off'}</span>
                    </label>
                  </td>
                  <td class="row-actions">
                    <button
                      type="button"
                      class="link"
                      aria-expanded={open === knap.uuid}
                      onClick={() => setOpen(open === knap.uuid ? null : knap.uuid)}
                    >
                      Runs
                    </button>
                    <button type="button" class="link danger" onClick={() => setDoomed(knap)}>
                      Delete
                    </button>
                  </td>
                </tr>
                {open === knap.uuid && (
                  <tr key={`${knap.uuid}-runs`} class="detail">
                    <td colSpan={6}>
                      <KnapRuns api={api} knap={knap} />
                    </td>
                  </tr>
                )}
              </>
            ))}
          </tbody>
        </table>
      )}
      {paged.next && (
        <div class="more">
          <button type="button" class="secondary" onClick={() => void paged.more()}>
            Load more
          </button>
        </div>
      )}
      {doomed && (
        <Confirm
          title="Delete Knap"
          message={`Delete "${doomed.name}"? It never runs again; this cannot be undone.`}
          action="Delete"
          danger
          onConfirm={async () => {
            await api.deleteKnap(doomed.uuid);
            setDoomed(null);
            await paged.reload();
          }}
          onClose={() => setDoomed(null)}
        />
      )}
    </PageFrame>
  );
};
