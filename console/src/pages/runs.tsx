import { useEffect, useRef, useState } from 'preact/hooks';
import { type Api, type Attempt, RUN_OUTCOMES, RUN_STATUSES, type Run, type RunEvent, type RunFilter } from '../api.js';
import { Alert, Badge, Empty, Loading, PageFrame, usePaged, When, WhenExact } from '../ui.js';

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

/** What the executor reported: its badge (no report yet: "No report"). */
const REPORTED = {
  running: { label: 'Running', tone: 'wait' },
  succeeded: { label: 'Succeeded', tone: 'ok' },
  failed: { label: 'Failed', tone: 'bad' },
} as const;

const OutcomeBadge = ({ outcome }: { outcome: Run['outcome'] }) =>
  outcome ? <Badge tone={REPORTED[outcome].tone}>{REPORTED[outcome].label}</Badge> : <Badge tone="off">No report</Badge>;

const knapLabel = (run: Pick<Run, 'knap_name' | 'knap_uuid'>) => run.knap_name ?? `Knap ${run.knap_uuid.slice(0, 8)}`;

/** One delivery attempt: when (to the second), the endpoint's HTTP status, and what became of it. */
const AttemptLine = ({ attempt }: { attempt: Attempt }) => (
  <>
    <WhenExact at={attempt.at} />{' '}
    <Badge tone={attempt.status === 'delivered' ? 'ok' : attempt.status === 'failed' ? 'bad' : 'off'}>
      {attempt.status.replace('_', ' ')}
    </Badge>{' '}
    <span class="http-status">{attempt.http_status === null ? 'no HTTP answer' : `HTTP ${attempt.http_status}`}</span>{' '}
    {attempt.endpoint_id ? <code>{attempt.endpoint_id}</code> : null}{' '}
    {attempt.error && <span class="muted">{attempt.error}</span>}
  </>
);

const Json = ({ value }: { value: unknown }) => <pre class="json">{JSON.stringify(value, null, 2)}</pre>;

/** What an event says beyond its type. */
const eventDetail = (event: RunEvent) =>
  event.type === 'progress'
    ? event.message
    : event.type === 'failed' || event.type === 'delivery_failed'
      ? event.error
      : event.type === 'delivered'
        ? event.endpoint_id
        : (event.message ?? null);

/**
 * One run: what it was started with, what it produced, each attempt, every event. A run that
 * has not ended is followed live: the event stream is read again after each answer (the API
 * answers as soon as there is something new, or after waiting up to 10 s), until it ends.
 */
const RunDetail = ({ api, runId, onBack }: { api: Api; runId: string; onBack: () => void }) => {
  const [run, setRun] = useState<(Run & { events: RunEvent[] }) | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [live, setLive] = useState(false);
  useEffect(() => {
    const stop = new AbortController();
    const follow = async () => {
      try {
        const first = await api.run(runId);
        if (stop.signal.aborted) return;
        setRun(first);
        let lastId = first.events.at(-1)?.id ?? 0;
        setLive(true);
        for (;;) {
          const answer = await api.runEvents(runId, lastId, stop.signal);
          if (stop.signal.aborted) return;
          if (answer.ended) break;
          if (answer.events.length === 0) continue;
          lastId = answer.events.at(-1)?.id ?? lastId;
          // The run's outcome, output and attempts change with its events: read it again.
          setRun(await api.run(runId));
        }
        setLive(false);
      } catch (failure) {
        if (stop.signal.aborted) return;
        setLive(false);
        setError((failure as Error).message);
      }
    };
    void follow();
    return () => stop.abort();
  }, [runId]);
  return (
    <PageFrame
      title="Run"
      description="What the run was started with, what each delivery attempt did, and what its executor reported."
      action={
        <button type="button" class="secondary" onClick={onBack}>
          Back to runs
        </button>
      }
    >
      {error && <Alert>{error}</Alert>}
      {run === null ? (
        !error && <Loading what="the run" />
      ) : (
        <article class="run-detail" data-run-detail={run.run_id}>
          <h2>{knapLabel(run)}</h2>
          <dl class="facts grid">
            <div>
              <dt>Run</dt>
              <dd>
                <code>{run.run_id}</code>
              </dd>
            </div>
            <div>
              <dt>Delivery</dt>
              <dd>
                <Badge tone={tone(run.status)}>{label(run.status)}</Badge>
              </dd>
            </div>
            <div>
              <dt>Outcome</dt>
              <dd data-testid="run-outcome">
                <OutcomeBadge outcome={run.outcome} />
                {live && <span class="muted small"> · following live</span>}
              </dd>
            </div>
            <div>
              <dt>Started</dt>
              <dd>
                {run.trigger.replace(/_/g, ' ')} · <WhenExact at={run.created_at} />
              </dd>
            </div>
            <div>
              <dt>Finished</dt>
              <dd>{run.finished_at ? <WhenExact at={run.finished_at} /> : <span class="muted">Not yet</span>}</dd>
            </div>
          </dl>
          <h3>Input</h3>
          {run.input === null ? <p class="muted">None</p> : <Json value={run.input} />}
          <h3>Output</h3>
          <div data-testid="run-output">
            {run.output === null || run.output === undefined ? <p class="muted">None yet</p> : <Json value={run.output} />}
            {run.error && <Alert>{run.error}</Alert>}
          </div>
          <h3>Delivery attempts</h3>
          {run.delivery_attempts.length === 0 ? (
            <p class="muted">None yet</p>
          ) : (
            <ol class="attempts">
              {run.delivery_attempts.map((attempt, index) => (
                <li key={`${attempt.at}-${attempt.endpoint_id}-${index}`}>
                  <AttemptLine attempt={attempt} />
                </li>
              ))}
            </ol>
          )}
          <h3>Events</h3>
          <ol class="events" aria-label="Events">
            {run.events.map((event) => {
              const detail = eventDetail(event);
              return (
                <li key={event.id} data-event={event.type}>
                  <span class="muted small">#{event.id}</span> <strong>{event.type.replace('_', ' ')}</strong>{' '}
                  <WhenExact at={event.at} />
                  {detail ? <span class="muted"> · {detail}</span> : null}
                  {event.type === 'succeeded' && event.output !== null && event.output !== undefined && (
                    <Json value={event.output} />
                  )}
                </li>
              );
            })}
          </ol>
        </article>
      )}
    </PageFrame>
  );
};

/** The filters of the listing: a Knap (of those seen so far), a delivery status, an outcome. */
const Filters = ({
  filter,
  knaps,
  onChange,
}: {
  filter: RunFilter;
  knaps: Map<string, string>;
  onChange: (filter: RunFilter) => void;
}) => (
  <fieldset class="filters">
    <legend class="visually-hidden">Filter runs</legend>
    <label class="filter">
      Knap
      <select value={filter.knap_uuid ?? ''} onChange={(event) => onChange({ ...filter, knap_uuid: event.currentTarget.value })}>
        <option value="">All Knaps</option>
        {[...knaps].map(([uuid, name]) => (
          <option key={uuid} value={uuid}>
            {name}
          </option>
        ))}
      </select>
    </label>
    <label class="filter">
      Delivery
      <select value={filter.status ?? ''} onChange={(event) => onChange({ ...filter, status: event.currentTarget.value })}>
        <option value="">Any delivery</option>
        {RUN_STATUSES.map((status) => (
          <option key={status} value={status}>
            {label(status)}
          </option>
        ))}
      </select>
    </label>
    <label class="filter">
      Outcome
      <select value={filter.outcome ?? ''} onChange={(event) => onChange({ ...filter, outcome: event.currentTarget.value })}>
        <option value="">Any outcome</option>
        {RUN_OUTCOMES.map((outcome) => (
          <option key={outcome} value={outcome}>
            {REPORTED[outcome].label}
          </option>
        ))}
      </select>
    </label>
  </fieldset>
);

export const RunsPage = ({ api }: { api: Api }) => {
  const [filter, setFilter] = useState<RunFilter>({});
  const [selected, setSelected] = useState<string | null>(null);
  // Every Knap seen in a listing, for the Knap filter (the admin API lists runs, not Knaps).
  const knaps = useRef(new Map<string, string>());
  const paged = usePaged(async (cursor?: string) => {
    const page = await api.runs(cursor, filter);
    for (const run of page.runs) knaps.current.set(run.knap_uuid, knapLabel(run));
    return { items: page.runs, next: page.next_cursor };
  });
  const filterKey = JSON.stringify(filter);
  const firstFilter = useRef(filterKey);
  useEffect(() => {
    if (filterKey !== firstFilter.current) void paged.reload();
    firstFilter.current = filterKey;
  }, [filterKey]);
  const runs: Run[] | null = paged.items;
  const [notice, setNotice] = useState<string | null>(null);
  const filtered = Boolean(filter.knap_uuid || filter.status || filter.outcome);
  if (selected) {
    return (
      <RunDetail
        api={api}
        runId={selected}
        onBack={() => {
          setSelected(null);
          void paged.reload();
        }}
      />
    );
  }
  return (
    <PageFrame
      title="Runs"
      description="Every run of your organization's Knaps, newest first, with each delivery attempt and what the run reported."
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
          {!filtered && <RunsChart runs={runs} />}
          <Filters filter={filter} knaps={knaps.current} onChange={setFilter} />
          {runs.length === 0 ? (
            filtered ? (
              <Empty title="No runs match these filters">
                {paged.next ? 'None among the runs read so far: load more to look further back.' : 'Change or clear the filters.'}
              </Empty>
            ) : (
              <Empty title="No runs yet">Runs appear here when a Knap runs: on its schedule, by hand, or after a meeting.</Empty>
            )
          ) : (
            <ul class="runs">
              {runs.map((run) => (
                <li key={run.run_id} data-run={run.run_id}>
                  <div class="run-head">
                    <strong class="knap-name">{knapLabel(run)}</strong>
                    <Badge tone={tone(run.status)}>{label(run.status)}</Badge>
                    <OutcomeBadge outcome={run.outcome} />
                    <code>{run.run_id}</code>
                    <span class="muted small">
                      {run.trigger.replace(/_/g, ' ')} · <When at={run.created_at} /> · {run.attempts} attempt
                      {run.attempts === 1 ? '' : 's'}
                    </span>
                    <span class="run-actions">
                      <button type="button" class="link" onClick={() => setSelected(run.run_id)}>
                        Details
                      </button>
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
                    </span>
                  </div>
                  {run.delivery_attempts.length > 0 && (
                    <details>
                      <summary>Delivery attempts</summary>
                      <ol class="attempts">
                        {run.delivery_attempts.map((attempt, index) => (
                          <li key={`${attempt.at}-${attempt.endpoint_id}-${index}`}>
                            <AttemptLine attempt={attempt} />
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
