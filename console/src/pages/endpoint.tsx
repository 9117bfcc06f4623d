/**
 * One webhook endpoint's page (`#webhooks/<endpoint_id>`): the endpoint as stored, its recent
 * attempts with what each got back, and what an admin does to it: enable or disable, choose
 * its event types, rotate its secret, send a test, recover what failed since a time.
 */
import { useState } from 'preact/hooks';
import { type Api, type EndpointAttempt, type EndpointDetail, EVENT_TYPES } from '../api.js';
import { Alert, Badge, Confirm, Empty, Loading, PageFrame, SecretReveal, usePaged, When, WhenExact } from '../ui.js';

/** The API keeps the first 1 KB of an answer; the page never shows more, and only as text. */
const BODY_SHOWN = 1024;

const message = (failure: unknown) => (failure as Error).message;

const AttemptRow = ({ attempt }: { attempt: EndpointAttempt }) => (
  <tr data-attempt={`${attempt.message_id}/${attempt.attempt}`}>
    <td data-label="Time">
      <WhenExact at={attempt.at} />
    </td>
    <td data-label="Message" class="break">
      {attempt.type ?? 'message'}
      <div>
        <code class="small">{attempt.message_id}</code>
      </div>
      {attempt.attempt > 1 && <span class="muted small"> · attempt {attempt.attempt}</span>}
    </td>
    <td data-label="Result">
      <Badge tone={attempt.status === 'delivered' ? 'ok' : 'bad'}>
        {attempt.status === 'delivered' ? 'Delivered' : 'Failed'}
      </Badge>
      {attempt.error && <span class="muted small break"> {attempt.error}</span>}
    </td>
    <td data-label="HTTP status">
      {attempt.response_status === null ? <span class="muted">No answer</span> : attempt.response_status}
    </td>
    <td data-label="Duration">{attempt.duration_ms === null ? <span class="muted">-</span> : `${attempt.duration_ms} ms`}</td>
    <td data-label="Answer" class="answer-cell">
      {attempt.response_body ? (
        // Text, never markup: Preact sets it as a text node.
        <pre class="answer">{attempt.response_body.slice(0, BODY_SHOWN)}</pre>
      ) : (
        <span class="muted">Empty</span>
      )}
    </td>
  </tr>
);

/** The five types as boxes; "every type" (null) is a box of its own, so types added later come too. */
const EventTypesForm = ({
  endpoint,
  onSave,
}: {
  endpoint: EndpointDetail;
  onSave: (types: string[] | null) => Promise<void>;
}) => {
  const [all, setAll] = useState(!endpoint.event_types);
  const [types, setTypes] = useState<string[]>(endpoint.event_types ?? []);
  const [state, setState] = useState<{ busy: boolean; error: string | null; saved: boolean }>({
    busy: false,
    error: null,
    saved: false,
  });
  return (
    <form
      aria-labelledby="event-types-title"
      onSubmit={async (event) => {
        event.preventDefault();
        setState({ busy: true, error: null, saved: false });
        try {
          await onSave(all ? null : EVENT_TYPES.filter((type) => types.includes(type)));
          setState({ busy: false, error: null, saved: true });
        } catch (failure) {
          setState({ busy: false, error: message(failure), saved: false });
        }
      }}
    >
      <fieldset>
        <legend id="event-types-title">Event types</legend>
        <label class="checkbox">
          <input type="checkbox" name="all_types" checked={all} onChange={(event) => setAll(event.currentTarget.checked)} /> Every
          type (types added later too)
        </label>
        {EVENT_TYPES.map((type) => (
          <label key={type} class="checkbox">
            <input
              type="checkbox"
              name="event_types"
              value={type}
              disabled={all}
              checked={all || types.includes(type)}
              onChange={(event) => {
                const on = event.currentTarget.checked;
                setTypes((current) => (on ? [...current, type] : current.filter((other) => other !== type)));
              }}
            />{' '}
            {type}
          </label>
        ))}
      </fieldset>
      {state.error && <Alert>{state.error}</Alert>}
      <div class="actions start">
        <button type="submit" class="primary" disabled={state.busy}>
          {state.busy ? 'Saving…' : 'Save event types'}
        </button>
        <span role="status" class="muted small">
          {state.saved ? 'Event types saved' : ''}
        </span>
      </div>
    </form>
  );
};

type TestResult = { response_status: number | null; duration_ms: number | null; error: string | null };

export const EndpointPage = ({ api, endpointId }: { api: Api; endpointId: string }) => {
  const [endpoint, setEndpoint] = useState<EndpointDetail | null>(null);
  const paged = usePaged(async (cursor?: string) => {
    const page = await api.endpointAttempts(endpointId, cursor);
    if (!cursor) setEndpoint(page.endpoint);
    return { items: page.attempts, next: page.next_cursor };
  });
  const [toggle, setToggle] = useState<{ busy: boolean; error: string | null }>({ busy: false, error: null });
  const [rotate, setRotate] = useState<'confirm' | { secret: string } | null>(null);
  const [test, setTest] = useState<{ busy: boolean; result?: TestResult; error?: string }>({ busy: false });
  const [recover, setRecover] = useState<{ busy: boolean; since?: string; error?: string }>({ busy: false });

  const update = async (changes: { event_types?: string[] | null; disabled?: boolean }) => {
    const changed = await api.updateEndpoint(endpointId, changes);
    setEndpoint((current) => (current ? { ...current, ...changed } : current));
  };

  const back = (
    <a class="button secondary" href="#webhooks">
      All endpoints
    </a>
  );
  if (!endpoint) {
    return (
      <PageFrame title="Webhook endpoint" description={endpointId} action={back}>
        {paged.error ? <Alert>{paged.error}</Alert> : <Loading what="the endpoint" />}
      </PageFrame>
    );
  }
  const enabled = !endpoint.disabled;
  const attempts = paged.items ?? [];
  return (
    <PageFrame title="Webhook endpoint" description={endpoint.description || 'No description'} action={back}>
      <dl class="facts grid endpoint-facts">
        <div>
          <dt>URL</dt>
          <dd class="break" data-testid="endpoint-url">
            {endpoint.url}
          </dd>
        </div>
        <div>
          <dt>Endpoint id</dt>
          <dd>
            <code>{endpoint.endpoint_id}</code>
          </dd>
        </div>
        <div>
          <dt>Event types</dt>
          <dd data-testid="endpoint-types">{endpoint.event_types ? endpoint.event_types.join(', ') || 'None' : 'Every type'}</dd>
        </div>
        <div>
          <dt>State</dt>
          <dd data-testid="endpoint-state">
            {enabled ? (
              <Badge tone="ok">Enabled</Badge>
            ) : (
              <>
                <Badge tone="off">Disabled</Badge>
                {endpoint.disabled_at && (
                  <span class="muted small">
                    {' '}
                    since <When at={endpoint.disabled_at} />
                  </span>
                )}
              </>
            )}
          </dd>
        </div>
        <div>
          <dt>Failures in a row</dt>
          <dd data-testid="endpoint-streak">
            {endpoint.fail_streak > 0 ? (
              <>
                {endpoint.fail_streak}
                {endpoint.fail_streak_since && (
                  <span class="muted small">
                    {' '}
                    since <When at={endpoint.fail_streak_since} />
                  </span>
                )}
              </>
            ) : (
              <span class="muted">None</span>
            )}
          </dd>
        </div>
        <div>
          <dt>Added</dt>
          <dd>
            <When at={endpoint.created_at} />
          </dd>
        </div>
      </dl>

      <div class="endpoint-actions">
        <section aria-labelledby="delivery-title">
          <h2 id="delivery-title">Delivery</h2>
          <label class="switch">
            <input
              type="checkbox"
              role="switch"
              checked={enabled}
              aria-checked={enabled}
              disabled={toggle.busy}
              onChange={async (event) => {
                const on = event.currentTarget.checked;
                setToggle({ busy: true, error: null });
                try {
                  await update({ disabled: !on });
                  setToggle({ busy: false, error: null });
                } catch (failure) {
                  setToggle({ busy: false, error: message(failure) });
                }
              }}
            />
            <span>Enabled: receives messages</span>
          </label>
          <p class="muted small">A disabled endpoint receives nothing but test sends.</p>
          {toggle.error && <Alert>{toggle.error}</Alert>}
          <EventTypesForm endpoint={endpoint} onSave={(types) => update({ event_types: types })} />
        </section>

        <section aria-labelledby="tools-title">
          <h2 id="tools-title">Secret and tests</h2>
          <div class="tool">
            <button type="button" class="secondary" onClick={() => setRotate('confirm')}>
              Rotate secret
            </button>
            <p class="muted small">A new signing secret, shown once; the old one keeps signing beside it for 24 hours.</p>
          </div>
          <div class="tool">
            <button
              type="button"
              class="secondary"
              disabled={test.busy}
              onClick={async () => {
                setTest({ busy: true });
                try {
                  setTest({ busy: false, result: await api.testEndpoint(endpointId) });
                } catch (failure) {
                  setTest({ busy: false, error: message(failure) });
                }
              }}
            >
              {test.busy ? 'Sending…' : 'Send a test'}
            </button>
            <p role="status" class="small" data-testid="test-result">
              {test.result
                ? test.result.error
                  ? `Test failed${test.result.response_status === null ? '' : ` with HTTP ${test.result.response_status}`}: ${test.result.error}`
                  : `Test delivered: HTTP ${test.result.response_status} in ${test.result.duration_ms} ms`
                : ''}
            </p>
            {test.error && <Alert>{test.error}</Alert>}
          </div>
          <form
            class="tool"
            onSubmit={async (event) => {
              event.preventDefault();
              const local = String(new FormData(event.currentTarget).get('since') ?? '');
              const when = new Date(local);
              if (local === '' || Number.isNaN(when.getTime())) {
                setRecover({ busy: false, error: 'Choose a date and time to recover from.' });
                return;
              }
              setRecover({ busy: true });
              try {
                const answer = await api.recoverEndpoint(endpointId, when.toISOString());
                setRecover({ busy: false, since: answer.since });
              } catch (failure) {
                setRecover({ busy: false, error: message(failure) });
              }
            }}
          >
            <label for="recover-since">Recover failed runs since (your time)</label>
            <div class="inline">
              <input id="recover-since" name="since" type="datetime-local" step={1} required />
              <button type="submit" class="secondary" disabled={recover.busy}>
                {recover.busy ? 'Starting…' : 'Recover'}
              </button>
            </div>
            <p role="status" class="small" data-testid="recover-result">
              {recover.since ? (
                <>
                  Recovery started: every run whose delivery here finally failed since <WhenExact at={recover.since} /> is being
                  sent again.
                </>
              ) : (
                ''
              )}
            </p>
            {recover.error && <Alert>{recover.error}</Alert>}
          </form>
        </section>
      </div>

      <section aria-labelledby="attempts-title">
        <div class="section-head">
          <h2 id="attempts-title">Recent attempts</h2>
          <button type="button" class="secondary" onClick={() => void paged.reload()}>
            Refresh
          </button>
        </div>
        {paged.error && <Alert>{paged.error}</Alert>}
        {paged.items === null ? (
          <Loading what="attempts" />
        ) : attempts.length === 0 ? (
          <Empty title="No attempts yet">Attempts at this endpoint appear here once messages are sent to it.</Empty>
        ) : (
          <table class="list attempts-list" aria-labelledby="attempts-title">
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Message</th>
                <th scope="col">Result</th>
                <th scope="col">HTTP status</th>
                <th scope="col">Duration</th>
                <th scope="col">Answer (first 1 KB)</th>
              </tr>
            </thead>
            <tbody>
              {attempts.map((attempt) => (
                <AttemptRow key={`${attempt.message_id}/${attempt.attempt}`} attempt={attempt} />
              ))}
            </tbody>
          </table>
        )}
        {paged.next && (
          <div class="actions start">
            <button type="button" class="secondary" onClick={() => void paged.more()}>
              Load more
            </button>
          </div>
        )}
      </section>

      {rotate === 'confirm' && (
        <Confirm
          title="Rotate secret"
          message="Make a new signing secret? For 24 hours every message is signed with both the new and the old one, then with the new one only."
          action="Rotate secret"
          onClose={() => setRotate(null)}
          onConfirm={async () => {
            const { secret } = await api.rotateEndpointSecret(endpointId);
            setRotate({ secret });
          }}
        />
      )}
      {rotate !== null && rotate !== 'confirm' && (
        <SecretReveal
          title="New signing secret"
          fields={[['Endpoint id', endpoint.endpoint_id]]}
          secretLabel="Signing secret"
          secret={rotate.secret}
          onClose={() => setRotate(null)}
        />
      )}
    </PageFrame>
  );
};
