/** The admin API, with the signed-in admin's access token; errors carry the API's `detail`. */
export class ApiFailure extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

export interface Client {
  client_id: string;
  name: string;
  description: string;
  status: 'active' | 'revoked';
  rate_limit: number;
  last_used_at: string | null;
  created_at: string;
  user_id: number;
  scopes: Scope[];
}

/** The event types an endpoint may take (contract, "Webhooks operators trust"). */
export const EVENT_TYPES = ['knap.run', 'knap.run.succeeded', 'knap.run.failed', 'endpoint.disabled', 'webhook.test'] as const;

export interface SecretInfo {
  secret_id: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
}

export interface ClientDetail extends Client {
  secrets: SecretInfo[];
  jwks: { keys: Record<string, string>[] };
}

export const SCOPES = ['read:knaps', 'write:knaps'] as const;
export type Scope = (typeof SCOPES)[number];

export interface Endpoint {
  endpoint_id: string;
  url: string;
  created_at: string;
  /** Null (or absent, from an older server): every type. */
  event_types?: string[] | null;
  description?: string | null;
  disabled?: boolean;
  disabled_at?: string | null;
}

/** An endpoint as its own page shows it: with its failure streak. */
export interface EndpointDetail extends Endpoint {
  /** Messages in a row that finally failed here (0 since the last success). */
  fail_streak: number;
  fail_streak_since: string | null;
}

/** One attempt at one endpoint (GET /api/admin/webhooks/{id}/attempts). */
export interface EndpointAttempt {
  at: string;
  message_id: string;
  run_id: string | null;
  type: string | null;
  attempt: number;
  status: 'delivered' | 'failed' | 'no_endpoint';
  error: string | null;
  response_status: number | null;
  duration_ms: number | null;
  /** The first 1 KB of the answer: text to show as text, never markup. */
  response_body: string | null;
  delivery_status: 'pending' | 'delivered' | 'failed';
}

export interface NewEndpoint {
  url: string;
  event_types?: string[] | null;
  description?: string | null;
}

export interface Attempt {
  at: string;
  endpoint_id: string | null;
  status: 'delivered' | 'failed' | 'no_endpoint';
  error: string | null;
  /** The endpoint's HTTP status; null when no answer came or nothing was sent. */
  http_status: number | null;
}

export const RUN_STATUSES = ['pending', 'delivered', 'failed', 'no_endpoint'] as const;
export const RUN_OUTCOMES = ['running', 'succeeded', 'failed'] as const;

export interface Run {
  run_id: string;
  knap_uuid: string;
  /** The Knap's name when the run was made; null for runs made before runs kept it. */
  knap_name: string | null;
  trigger: string;
  status: (typeof RUN_STATUSES)[number];
  attempts: number;
  created_at: string;
  last_error: string | null;
  input: Record<string, unknown> | null;
  outcome: (typeof RUN_OUTCOMES)[number] | null;
  output: unknown;
  error: string | null;
  finished_at: string | null;
  delivery_attempts: Attempt[];
}

export interface RunEvent {
  id: number;
  type: 'created' | 'delivered' | 'delivery_failed' | 'running' | 'progress' | 'succeeded' | 'failed' | 'expired';
  at: string;
  endpoint_id?: string;
  message?: string | null;
  output?: unknown;
  error?: string | null;
}

/** A Knap as the admin API answers it (GET /api/admin/knaps). */
export interface AdminKnap {
  uuid: string;
  name: string;
  schedule_type: 'manual' | 'scheduled' | 'post_meeting_transcription';
  is_active: boolean;
  visibility: string;
  next_run_at: string | null;
  schedule_summary: string | null;
  last_run: { run_id: string; created_at: string; status: Run['status']; outcome: Run['outcome'] } | null;
}

export interface RunFilter {
  knap_uuid?: string;
  status?: string;
  outcome?: string;
}

/** One answer of a run's event stream: the events after the last id, or `ended` (a 204: nothing more will come). */
export type StreamAnswer = { ended: false; events: RunEvent[] } | { ended: true };

/** The events of one Server-Sent Events answer (`id:`, `event:`, `data:` blocks; comments and `retry:` skipped). */
const parseEventStream = (text: string): RunEvent[] =>
  text
    .split(/\n\n/)
    .map((block) => block.split('\n').find((line) => line.startsWith('data:')))
    .filter((line): line is string => line !== undefined)
    .map((line) => JSON.parse(line.slice(5).trim()) as RunEvent);

export interface AuditEvent {
  at: string;
  actor: string;
  action: string;
  target: { type: string; id: string };
  source_ip: string | null;
}

export class Api {
  constructor(
    private readonly token: () => string | null,
    private readonly onSignedOut: () => void,
  ) {}

  /** One request with the admin's token: the answer's status and text, or the API's refusal as an ApiFailure. */
  private async send(
    method: string,
    path: string,
    options: { body?: unknown; headers?: Record<string, string>; signal?: AbortSignal } = {},
  ): Promise<{ status: number; text: string }> {
    const token = this.token();
    if (!token) {
      this.onSignedOut();
      throw new ApiFailure(401, 'Your session has ended. Signing in again…');
    }
    let response: Response;
    try {
      response = await fetch(path, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          accept: 'application/json',
          ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
          ...options.headers,
        },
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        signal: options.signal,
      });
    } catch (failure) {
      if (options.signal?.aborted) throw failure;
      throw new ApiFailure(0, 'The API could not be reached. Check your connection and try again.');
    }
    if (response.status === 401) {
      this.onSignedOut();
      throw new ApiFailure(401, 'Your session has ended. Signing in again…');
    }
    const text = await response.text();
    if (!response.ok) {
      let detail: unknown;
      try {
        detail = (JSON.parse(text) as { detail?: unknown }).detail;
      } catch {
        detail = undefined;
      }
      throw new ApiFailure(response.status, typeof detail === 'string' ? detail : `The API answered ${response.status}.`);
    }
    return { status: response.status, text };
  }

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    const { text } = await this.send(method, path, { body });
    return (text ? (JSON.parse(text) as unknown) : undefined) as T;
  }

  clients = () => this.call<{ clients: Client[] }>('GET', '/api/admin/clients');
  createClient = (body: { name: string; description?: string; rate_limit?: number; scopes?: Scope[] }) =>
    this.call<Client & { client_secret: string }>('POST', '/api/admin/clients', body);
  regenerate = (id: string) =>
    this.call<{ client_id: string; client_secret: string }>('POST', `/api/admin/clients/${encodeURIComponent(id)}/secret`);
  updateClient = (id: string, body: { rate_limit?: number | null; name?: string; description?: string; scopes?: Scope[] }) =>
    this.call<Client>('PATCH', `/api/admin/clients/${encodeURIComponent(id)}`, body);
  client = (id: string) => this.call<ClientDetail>('GET', `/api/admin/clients/${encodeURIComponent(id)}`);
  addSecret = (id: string) =>
    this.call<{ secret_id: string; client_secret: string }>('POST', `/api/admin/clients/${encodeURIComponent(id)}/secrets`);
  removeSecret = (id: string, secretId: string) =>
    this.call<void>('DELETE', `/api/admin/clients/${encodeURIComponent(id)}/secrets/${encodeURIComponent(secretId)}`);
  revoke = (id: string) => this.call<void>('DELETE', `/api/admin/clients/${encodeURIComponent(id)}`);
  endpoints = () => this.call<{ endpoints: Endpoint[] }>('GET', '/api/admin/webhooks');
  addEndpoint = (endpoint: NewEndpoint) => this.call<Endpoint & { secret: string }>('POST', '/api/admin/webhooks', endpoint);
  updateEndpoint = (id: string, changes: { event_types?: string[] | null; disabled?: boolean; description?: string | null }) =>
    this.call<Endpoint>('PATCH', `/api/admin/webhooks/${encodeURIComponent(id)}`, changes);
  removeEndpoint = (id: string) => this.call<void>('DELETE', `/api/admin/webhooks/${encodeURIComponent(id)}`);
  endpointAttempts = (id: string, cursor?: string) =>
    this.call<{ endpoint: EndpointDetail; attempts: EndpointAttempt[]; next_cursor: string | null }>(
      'GET',
      `/api/admin/webhooks/${encodeURIComponent(id)}/attempts?limit=25${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
  rotateEndpointSecret = (id: string) =>
    this.call<{ secret: string }>('POST', `/api/admin/webhooks/${encodeURIComponent(id)}/secret`);
  testEndpoint = (id: string) =>
    this.call<{ response_status: number | null; duration_ms: number | null; error: string | null }>(
      'POST',
      `/api/admin/webhooks/${encodeURIComponent(id)}/test`,
    );
  recoverEndpoint = (id: string, since: string) =>
    this.call<{ endpoint_id: string; since: string }>('POST', `/api/admin/webhooks/${encodeURIComponent(id)}/recover`, { since });
  knaps = (cursor?: string) =>
    this.call<{ knaps: AdminKnap[]; next_cursor: string | null }>(
      'GET',
      `/api/admin/knaps?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
  switchKnap = (uuid: string, on: boolean) =>
    this.call<AdminKnap>('PATCH', `/api/admin/knaps/${encodeURIComponent(uuid)}`, { is_active: on });
  deleteKnap = (uuid: string) => this.call<{ message: string }>('DELETE', `/api/admin/knaps/${encodeURIComponent(uuid)}`);
  runs = (cursor?: string, filter: RunFilter = {}) => {
    const query = new URLSearchParams({ limit: '100' });
    for (const [name, value] of Object.entries(filter)) if (value) query.set(name, value);
    if (cursor) query.set('cursor', cursor);
    return this.call<{ runs: Run[]; next_cursor: string | null }>('GET', `/api/admin/runs?${query}`);
  };
  run = (id: string) => this.call<Run & { events: RunEvent[] }>('GET', `/api/admin/runs/${encodeURIComponent(id)}`);
  /**
   * One answer of the run's event stream after `lastEventId`: at once when something newer
   * exists, else after the API waited (up to 10 s) for it. A fetch-based reader, since the
   * browser's EventSource cannot send the admin's token.
   */
  runEvents = async (id: string, lastEventId: number, signal?: AbortSignal): Promise<StreamAnswer> => {
    const { status, text } = await this.send('GET', `/api/admin/runs/${encodeURIComponent(id)}/events`, {
      headers: { accept: 'text/event-stream', 'last-event-id': String(lastEventId) },
      signal,
    });
    return status === 204 ? { ended: true } : { ended: false, events: parseEventStream(text) };
  };
  redeliver = (id: string) => this.call<{ run_id: string }>('POST', `/api/admin/runs/${encodeURIComponent(id)}/redeliver`);
  audit = (cursor?: string) =>
    this.call<{ events: AuditEvent[]; next_cursor: string | null }>(
      'GET',
      `/api/admin/audit-events?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
}
