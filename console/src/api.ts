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
}

export interface Endpoint {
  endpoint_id: string;
  url: string;
  created_at: string;
}

export interface Attempt {
  at: string;
  endpoint_id: string | null;
  status: 'delivered' | 'failed' | 'no_endpoint';
  error: string | null;
}

export interface Run {
  run_id: string;
  knap_uuid: string;
  trigger: string;
  status: 'pending' | 'delivered' | 'failed' | 'no_endpoint';
  attempts: number;
  created_at: string;
  last_error: string | null;
  delivery_attempts: Attempt[];
}

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

  async call<T>(method: string, path: string, body?: unknown): Promise<T> {
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
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
    } catch {
      throw new ApiFailure(0, 'The API could not be reached. Check your connection and try again.');
    }
    if (response.status === 401) {
      this.onSignedOut();
      throw new ApiFailure(401, 'Your session has ended. Signing in again…');
    }
    const text = await response.text();
    const parsed = text ? (JSON.parse(text) as unknown) : undefined;
    if (!response.ok) {
      const detail = (parsed as { detail?: unknown } | undefined)?.detail;
      throw new ApiFailure(response.status, typeof detail === 'string' ? detail : `The API answered ${response.status}.`);
    }
    return parsed as T;
  }

  clients = () => this.call<{ clients: Client[] }>('GET', '/api/admin/clients');
  createClient = (body: { name: string; description?: string; rate_limit?: number }) =>
    this.call<Client & { client_secret: string }>('POST', '/api/admin/clients', body);
  regenerate = (id: string) =>
    this.call<{ client_id: string; client_secret: string }>('POST', `/api/admin/clients/${encodeURIComponent(id)}/secret`);
  updateClient = (id: string, body: { rate_limit?: number | null; name?: string; description?: string }) =>
    this.call<Client>('PATCH', `/api/admin/clients/${encodeURIComponent(id)}`, body);
  revoke = (id: string) => this.call<void>('DELETE', `/api/admin/clients/${encodeURIComponent(id)}`);
  endpoints = () => this.call<{ endpoints: Endpoint[] }>('GET', '/api/admin/webhooks');
  addEndpoint = (url: string) => this.call<Endpoint & { secret: string }>('POST', '/api/admin/webhooks', { url });
  removeEndpoint = (id: string) => this.call<void>('DELETE', `/api/admin/webhooks/${encodeURIComponent(id)}`);
  runs = (cursor?: string) =>
    this.call<{ runs: Run[]; next_cursor: string | null }>(
      'GET',
      `/api/admin/runs?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
  redeliver = (id: string) => this.call<{ run_id: string }>('POST', `/api/admin/runs/${encodeURIComponent(id)}/redeliver`);
  audit = (cursor?: string) =>
    this.call<{ events: AuditEvent[]; next_cursor: string | null }>(
      'GET',
      `/api/admin/audit-events?limit=50${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
    );
}
