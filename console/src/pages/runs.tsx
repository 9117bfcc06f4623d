import { useState } from 'preact/hooks';
import type { Api, Run } from '../api.js';
import { Alert, Badge, Empty, Loading, PageFrame, usePaged, When } from '../ui.js';

const OUTCOMES = [
  { status: 'delivered', label: 'Delivered', tone: 'ok' },
  { status: 'failed', label: 'Failed', tone: 'bad' },
  { status: 'pending', label: 'Pending', tone: 'wait' },
  { status: 'no_endpoint', label: 'No endpoint', tone: 'off' },
] as const;

const DAYS = 14;

/** Runs per day by outcome over the last two weeks, of the runs loaded (a stacked bar a day). */
const RunsChart = ({ runs }: { runs: Run[] }) => {
  const today = new Date();
  const days = Array.from({ length: DAYS }, (_, index) => {
    const day = new Date(Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() - (DAYS - 1 - index)));
    return day.toISOString().slice(0, 10);
  });
  const counts = new Map(days.map((day) => [day, new Map<string, number>()]));
  for (const run of runs) {
    const bucket = counts.get(run.created_at.slice(0, 10));
    if (bucket) bucket.set(run.status, (bucket.get(run.status) ?? 0) + 1);
  }
  const totals = days.map((day) => [...(counts.get(day)?.values() ?? [])].reduce((sum, n) => sum + n, 0));
  const max = Math.max(1, ...totals);
  const width = 100 / DAYS;
  const summary = days.flatMap((day, index) => ((totals[index] ?? 0) > 0 ? [`${day}: ${totals[index]}`] : [])).join(', ');
  return (
    <figure class="chart">
      <figcaption>
        Runs per day, last {DAYS} days (UTC)
        <span class="legend">
          {OUTCOMES.map((outcome) => (
            <span key={outcome.status} class={`key ${outcome.tone}`}>
              {outcome.label}
            </span>
          ))}
        </span>
      </figcaption>
      <svg
        viewBox="0 0 100 40"
        preserveAspectRatio="none"
        role="img"
        aria-label={summary ? `Runs per day: ${summary}` : 'No runs in the last two weeks'}
      >
        {days.map((day, index) => {
          let y = 40;
          return OUTCOMES.map((outcome) => {
            const count = counts.get(day)?.get(outcome.status) ?? 0;
            if (count === 0) return null;
            const height = (count / max) * 38;
            y -= height;
            return (
              <rect
                key={`${day}-${outcome.status}`}
                class={outcome.tone}
                x={index * width + width * 0.15}
                y={y}
                width={width * 0.7}
                height={height}
              >
                <title>{`${day}: ${count} ${outcome.label.toLowerCase()}`}</title>
              </rect>
            );
          });
        })}
      </svg>
      <div class="axis">
        <span>{days[0]?.slice(5)}</span>
        <span>{days[DAYS - 1]?.slice(5)}</span>
      </div>
    </figure>
  );
};

const tone = (status: Run['status']) => OUTCOMES.find((outcome) => outcome.status === status)?.tone ?? 'off';
const label = (status: Run['status']) => OUTCOMES.find((outcome) => outcome.status === status)?.label ?? status;

export const RunsPage = ({ api }: { api: Api }) => {
  const paged = usePaged(async (cursor?: string) => {
    const page = await api.runs(cursor);
    return { items: page.runs, next: page.next_cursor };
  });
  const runs: Run[] | null = paged.items;
  const [notice, setNotice] = useState<string | null>(null);
  return (
    <PageFrame
      title="Runs"
      description="Every run of your organization's Knaps, newest first, with each delivery attempt."
      action={
        <button type="button" class="secondary" onClick={() => void paged.reload()}>
          Refresh
        </button>
      }
    >
      {paged.error && <Alert>{paged.error}</Alert>}
      {notice && (
        <p class="notice" role="status">
          {notice}
        </p>
      )}
      {runs === null ? (
        <Loading what="runs" />
      ) : (
        <>
          <RunsChart runs={runs} />
          {runs.length === 0 ? (
            <Empty title="No runs yet">Runs appear here when a Knap runs: on its schedule, by hand, or after a meeting.</Empty>
          ) : (
            <ul class="runs">
              {runs.map((run) => (
                <li key={run.run_id} data-run={run.run_id}>
                  <div class="run-head">
                    <Badge tone={tone(run.status)}>{label(run.status)}</Badge>
                    <code>{run.run_id}</code>
                    <span class="muted small">
                      {run.trigger.replace(/_/g, ' ')} · <When at={run.created_at} /> · {run.attempts} attempt
                      {run.attempts === 1 ? '' : 's'}
                    </span>
                    <button
                      type="button"
                      class="link"
                      onClick={async () => {
                        setNotice(null);
                        try {
                          await api.redeliver(run.run_id);
                          setNotice(`Run ${run.run_id} is being delivered again.`);
                          await paged.reload();
                        } catch (failure) {
                          paged.setError((failure as Error).message);
                        }
                      }}
                    >
                      Redeliver
                    </button>
                  </div>
                  {run.delivery_attempts.length > 0 && (
                    <details>
                      <summary>Delivery attempts</summary>
                      <ol class="attempts">
                        {run.delivery_attempts.map((attempt, index) => (
                          <li key={`${attempt.at}-${attempt.endpoint_id}-${index}`}>
                            <When at={attempt.at} />{' '}
                            <Badge tone={attempt.status === 'delivered' ? 'ok' : attempt.status === 'failed' ? 'bad' : 'off'}>
                              {attempt.status.replace('_', ' ')}
                            </Badge>{' '}
                            {attempt.endpoint_id ? <code>{attempt.endpoint_id}</code> : null}{' '}
                            {attempt.error && <span class="muted">{attempt.error}</span>}
                          </li>
                        ))}
                      </ol>
                    </details>
                  )}
                </li>
              ))}
            </ul>
          )}
          {paged.next && (
            <button type="button" class="secondary" onClick={() => void paged.more()}>
              Load more
            </button>
          )}
        </>
      )}
    </PageFrame>
  );
};
