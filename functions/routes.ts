/**
 * The one route table: the CDK stack makes an HTTP API route per entry, to the Lambda of the
 * route's function (FUNCTIONS), and the local server dispatches to the same function modules.
 * The token endpoint and Knap creation have functions of their own; the other routes are
 * grouped by area, each area's function routing inside with @middy/http-router
 * (functions/area.ts).
 */

/** The Lambdas that serve HTTP routes. */
export type FunctionId = 'token' | 'create-knap' | 'oauth' | 'knaps' | 'admin' | 'pages';

export interface RouteDefinition {
  /** Stable id: `npm run invoke -- <id>`, events/<id>/ folder, the route's own handler module. */
  readonly id: string;
  /** The function that serves the route. */
  readonly fn: FunctionId;
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** API Gateway's path template: `{name}` matches one segment, given as pathParameters.name. */
  readonly path: string;
  /** The route's handler module, relative to the repository root; it exports `handler` and `createHandler`. */
  readonly entry: string;
  /** What the route does. */
  readonly description: string;
  /** Files (relative to the repository root) copied beside the deployed bundle, which reads them at run time. */
  readonly assets?: readonly string[];
}

export interface FunctionDefinition {
  /** Stable id: CDK construct id (`KnapsFunction`), the local access log's `fn=`. */
  readonly id: FunctionId;
  /** Handler source, relative to the repository root; it exports `handler` and `createHandler`. */
  readonly entry: string;
  /** What the function does, for the Lambda description. */
  readonly description: string;
  /**
   * Path prefixes this function owns beyond its routes: API Gateway sends any other request
   * under them (`ANY <prefix>/{proxy+}`) to this function, which answers 404 or 405 with a
   * `{"detail"}` body. A route added under a prefix costs one API Gateway route, nothing more.
   */
  readonly greedy?: readonly string[];
}

export const FUNCTIONS: readonly FunctionDefinition[] = [
  {
    id: 'token',
    entry: 'functions/token/handler.ts',
    description: 'OAuth 2.0 token endpoint (client_credentials and refresh_token grants)',
  },
  {
    id: 'create-knap',
    entry: 'functions/create-knap/handler.ts',
    description: 'Create a Knap for the authenticated API client',
  },
  {
    id: 'oauth',
    entry: 'functions/oauth/handler.ts',
    description: 'OAuth 2.0 revocation, introspection and authorization server metadata',
    greedy: ['/api/oauth'],
  },
  {
    id: 'knaps',
    entry: 'functions/knaps/handler.ts',
    description: 'Knaps: list, read, change (PATCH, PUT), delete, run, their runs, meeting reports, schedule preview',
    greedy: ['/api/studio'],
  },
  {
    id: 'admin',
    entry: 'functions/admin/handler.ts',
    description: "Organization admins' API: clients, webhook endpoints, Knaps, runs, the audit log",
    greedy: ['/api/admin'],
  },
  {
    id: 'pages',
    entry: 'functions/pages/handler.ts',
    description: 'Public pages: the admin console, the OpenAPI document and the API reference',
    greedy: ['/api/docs'],
  },
];

export const routes: readonly RouteDefinition[] = [
  {
    id: 'token',
    fn: 'token',
    method: 'POST',
    path: '/api/oauth/token',
    entry: 'functions/token/handler.ts',
    description: 'OAuth 2.0 token endpoint (client_credentials and refresh_token grants)',
  },
  {
    id: 'revoke-token',
    fn: 'oauth',
    method: 'POST',
    path: '/api/oauth/revoke',
    entry: 'functions/oauth/revoke-token.ts',
    description: 'OAuth 2.0 token revocation (RFC 7009)',
  },
  {
    id: 'introspect-token',
    fn: 'oauth',
    method: 'POST',
    path: '/api/oauth/introspect',
    entry: 'functions/oauth/introspect-token.ts',
    description: 'OAuth 2.0 token introspection (RFC 7662)',
  },
  {
    id: 'oauth-metadata',
    fn: 'oauth',
    method: 'GET',
    path: '/.well-known/oauth-authorization-server',
    entry: 'functions/oauth/oauth-metadata.ts',
    description: 'OAuth 2.0 authorization server metadata (RFC 8414), public',
  },
  {
    id: 'create-knap',
    fn: 'create-knap',
    method: 'POST',
    path: '/api/studio/knap-tools',
    entry: 'functions/create-knap/handler.ts',
    description: 'Create a Knap for the authenticated API client',
  },
  {
    id: 'list-knaps',
    fn: 'knaps',
    method: 'GET',
    path: '/api/studio/knap-tools',
    entry: 'functions/knaps/list-knaps.ts',
    description: 'List the Knaps the authenticated API client may see',
  },
  {
    id: 'get-knap',
    fn: 'knaps',
    method: 'GET',
    path: '/api/studio/knap-tools/{uuid}',
    entry: 'functions/knaps/get-knap.ts',
    description: 'Read one Knap the authenticated API client may see',
  },
  {
    id: 'update-knap',
    fn: 'knaps',
    method: 'PATCH',
    path: '/api/studio/knap-tools/{uuid}',
    entry: 'functions/knaps/update-knap.ts',
    description: 'Change a Knap the authenticated API client created (JSON merge patch)',
  },
  {
    id: 'put-knap',
    fn: 'knaps',
    method: 'PUT',
    path: '/api/studio/knap-tools/{uuid}',
    entry: 'functions/knaps/put-knap.ts',
    description: "Change a Knap the authenticated API client created (Knapsack's update: the fields given, as PATCH)",
  },
  {
    id: 'delete-knap',
    fn: 'knaps',
    method: 'DELETE',
    path: '/api/studio/knap-tools/{uuid}',
    entry: 'functions/knaps/delete-knap.ts',
    description: 'Delete a Knap the authenticated API client created',
  },
  {
    id: 'start-run',
    fn: 'knaps',
    method: 'POST',
    path: '/api/studio/knap-tools/{uuid}/runs',
    entry: 'functions/knaps/start-run.ts',
    description: 'Run a Knap now (a manual run), delivered to the organization webhooks',
  },
  {
    id: 'list-runs',
    fn: 'knaps',
    method: 'GET',
    path: '/api/studio/knap-tools/{uuid}/runs',
    entry: 'functions/knaps/list-runs.ts',
    description: "A Knap's runs, newest first",
  },
  {
    id: 'report-meeting',
    fn: 'knaps',
    method: 'POST',
    path: '/api/studio/meeting-transcriptions',
    entry: 'functions/knaps/report-meeting.ts',
    description: 'A meeting was transcribed: run every after-meeting Knap the client sees, once per meeting',
  },
  {
    id: 'preview-schedule',
    fn: 'knaps',
    method: 'POST',
    path: '/api/studio/schedules/preview',
    entry: 'functions/knaps/preview-schedule.ts',
    description: 'Read a schedule description: schedule_info, the next runs, and the schedule in plain English',
  },
  {
    id: 'admin-list-clients',
    fn: 'admin',
    method: 'GET',
    path: '/api/admin/clients',
    entry: 'functions/admin/admin-list-clients.ts',
    description: "The organization's API clients (admins only)",
  },
  {
    id: 'admin-create-client',
    fn: 'admin',
    method: 'POST',
    path: '/api/admin/clients',
    entry: 'functions/admin/admin-create-client.ts',
    description: 'Create an API client; its secret is shown this once (admins only)',
  },
  {
    id: 'admin-regenerate-secret',
    fn: 'admin',
    method: 'POST',
    path: '/api/admin/clients/{client_id}/secret',
    entry: 'functions/admin/admin-regenerate-secret.ts',
    description: 'A new secret for an API client: its tokens stop working (admins only)',
  },
  {
    id: 'admin-update-client',
    fn: 'admin',
    method: 'PATCH',
    path: '/api/admin/clients/{client_id}',
    entry: 'functions/admin/admin-update-client.ts',
    description: "Change an API client's name, description or rate limit (admins only)",
  },
  {
    id: 'admin-revoke-client',
    fn: 'admin',
    method: 'DELETE',
    path: '/api/admin/clients/{client_id}',
    entry: 'functions/admin/admin-revoke-client.ts',
    description: 'Revoke an API client for good (admins only)',
  },
  {
    id: 'admin-get-client',
    fn: 'admin',
    method: 'GET',
    path: '/api/admin/clients/{client_id}',
    entry: 'functions/admin/admin-get-client.ts',
    description: "One API client with its secrets' ids and dates and its public keys (admins only)",
  },
  {
    id: 'admin-add-secret',
    fn: 'admin',
    method: 'POST',
    path: '/api/admin/clients/{client_id}/secrets',
    entry: 'functions/admin/admin-add-secret.ts',
    description: 'A second live secret for an API client, shown this once: rotation with overlap (admins only)',
  },
  {
    id: 'admin-remove-secret',
    fn: 'admin',
    method: 'DELETE',
    path: '/api/admin/clients/{client_id}/secrets/{secret_id}',
    entry: 'functions/admin/admin-remove-secret.ts',
    description: "Retire one of an API client's secrets: refused from now on (admins only)",
  },
  {
    id: 'admin-set-jwks',
    fn: 'admin',
    method: 'PUT',
    path: '/api/admin/clients/{client_id}/jwks',
    entry: 'functions/admin/admin-set-jwks.ts',
    description: "An API client's public keys for private_key_jwt client authentication (admins only)",
  },
  {
    id: 'admin-list-webhooks',
    fn: 'admin',
    method: 'GET',
    path: '/api/admin/webhooks',
    entry: 'functions/admin/admin-list-webhooks.ts',
    description: "The organization's webhook endpoints (admins only)",
  },
  {
    id: 'admin-add-webhook',
    fn: 'admin',
    method: 'POST',
    path: '/api/admin/webhooks',
    entry: 'functions/admin/admin-add-webhook.ts',
    description: 'Add a webhook endpoint; its signing secret is shown this once (admins only)',
  },
  {
    id: 'admin-remove-webhook',
    fn: 'admin',
    method: 'DELETE',
    path: '/api/admin/webhooks/{endpoint_id}',
    entry: 'functions/admin/admin-remove-webhook.ts',
    description: 'Remove a webhook endpoint (admins only)',
  },
  {
    id: 'admin-rotate-webhook-secret',
    fn: 'admin',
    method: 'POST',
    path: '/api/admin/webhooks/{endpoint_id}/secret',
    entry: 'functions/admin/admin-rotate-webhook-secret.ts',
    description: "Rotate a webhook endpoint's signing secret; the old one signs too for 24 hours (admins only)",
  },
  {
    id: 'admin-test-webhook',
    fn: 'admin',
    method: 'POST',
    path: '/api/admin/webhooks/{endpoint_id}/test',
    entry: 'functions/admin/admin-test-webhook.ts',
    description: 'Send a signed webhook.test message to an endpoint now (admins only)',
  },
  {
    id: 'admin-update-webhook',
    fn: 'admin',
    method: 'PATCH',
    path: '/api/admin/webhooks/{endpoint_id}',
    entry: 'functions/admin/admin-update-webhook.ts',
    description: "Change a webhook endpoint's event types, description, or disable it (admins only)",
  },
  {
    id: 'admin-recover-webhook',
    fn: 'admin',
    method: 'POST',
    path: '/api/admin/webhooks/{endpoint_id}/recover',
    entry: 'functions/admin/admin-recover-webhook.ts',
    description: 'Send an endpoint again the runs whose delivery to it failed since a time (admins only)',
  },
  {
    id: 'admin-list-webhook-attempts',
    fn: 'admin',
    method: 'GET',
    path: '/api/admin/webhooks/{endpoint_id}/attempts',
    entry: 'functions/admin/admin-list-webhook-attempts.ts',
    description: "A webhook endpoint's recent delivery attempts, newest first (admins only)",
  },
  {
    id: 'admin-list-runs',
    fn: 'admin',
    method: 'GET',
    path: '/api/admin/runs',
    entry: 'functions/admin/admin-list-runs.ts',
    description:
      "The organization's runs, newest first, filtered by Knap, status or outcome, with their delivery attempts (admins only)",
  },
  {
    id: 'admin-get-run',
    fn: 'admin',
    method: 'GET',
    path: '/api/admin/runs/{run_id}',
    entry: 'functions/admin/admin-get-run.ts',
    description: 'One run of the organization with its delivery attempts and its events (admins only)',
  },
  {
    id: 'admin-list-run-events',
    fn: 'admin',
    method: 'GET',
    path: '/api/admin/runs/{run_id}/events',
    entry: 'functions/admin/admin-list-run-events.ts',
    description: "A run's events, as JSON or as Server-Sent Events (admins only)",
  },
  {
    id: 'admin-redeliver-run',
    fn: 'admin',
    method: 'POST',
    path: '/api/admin/runs/{run_id}/redeliver',
    entry: 'functions/admin/admin-redeliver-run.ts',
    description: 'Deliver a run again, with the same webhook-id (admins only)',
  },
  {
    id: 'admin-audit-events',
    fn: 'admin',
    method: 'GET',
    path: '/api/admin/audit-events',
    entry: 'functions/admin/admin-audit-events.ts',
    description: "The organization's audit log, newest first (admins only)",
  },
  {
    id: 'admin-list-knaps',
    fn: 'admin',
    method: 'GET',
    path: '/api/admin/knaps',
    entry: 'functions/admin/admin-list-knaps.ts',
    description: 'Every Knap of the organization, private ones included, with its schedule and last run (admins only)',
  },
  {
    id: 'admin-get-knap',
    fn: 'admin',
    method: 'GET',
    path: '/api/admin/knaps/{uuid}',
    entry: 'functions/admin/admin-get-knap.ts',
    description: 'One Knap of the organization (admins only)',
  },
  {
    id: 'admin-update-knap',
    fn: 'admin',
    method: 'PATCH',
    path: '/api/admin/knaps/{uuid}',
    entry: 'functions/admin/admin-update-knap.ts',
    description: 'Change a Knap of the organization: name, on/off, active_by_default, tool_metadata (admins only)',
  },
  {
    id: 'admin-delete-knap',
    fn: 'admin',
    method: 'DELETE',
    path: '/api/admin/knaps/{uuid}',
    entry: 'functions/admin/admin-delete-knap.ts',
    description: 'Delete a Knap of the organization (admins only)',
  },
  {
    id: 'console',
    fn: 'pages',
    method: 'GET',
    path: '/console',
    entry: 'functions/pages/console.ts',
    description: 'The admin console: a page for organization admins (public; it signs in with the admin issuer)',
    assets: ['console/dist/index.html', 'console/dist/app.js', 'console/dist/app.css'],
  },
  {
    id: 'openapi',
    fn: 'pages',
    method: 'GET',
    path: '/api/openapi.json',
    entry: 'functions/pages/openapi.ts',
    description: 'The OpenAPI 3.1 document of this API (public)',
  },
  {
    id: 'docs',
    fn: 'pages',
    method: 'GET',
    path: '/api/docs',
    entry: 'functions/pages/docs.ts',
    description: 'The API reference page, rendered from the OpenAPI document (public)',
  },
  {
    id: 'docs-asset',
    fn: 'pages',
    method: 'GET',
    path: '/api/docs/assets/{file}',
    entry: 'functions/pages/docs-asset.ts',
    description: "The reference page's script and style sheet, from the swagger-ui-dist package (public)",
    assets: ['node_modules/swagger-ui-dist/swagger-ui-bundle.js', 'node_modules/swagger-ui-dist/swagger-ui.css'],
  },
  {
    id: 'get-run',
    fn: 'knaps',
    method: 'GET',
    path: '/api/studio/runs/{run_id}',
    entry: 'functions/knaps/get-run.ts',
    description: 'Read one run of a Knap the authenticated API client may see',
  },
  {
    id: 'list-run-events',
    fn: 'knaps',
    method: 'GET',
    path: '/api/studio/runs/{run_id}/events',
    entry: 'functions/knaps/list-run-events.ts',
    description: "A run's events, as JSON or as Server-Sent Events",
  },
  {
    id: 'report-run-event',
    fn: 'knaps',
    method: 'POST',
    path: '/api/studio/runs/{run_id}/events',
    entry: 'functions/knaps/report-run-event.ts',
    description: "The run's executor reports what it did (the report token of its knap.run message)",
  },
];

/** A route template's segments: a literal, or the name of a path parameter (`{name}`, one whole segment). */
type Segment = string | { parameter: string };

const segmentsOf = (path: string): Segment[] =>
  path.split('/').map((part) => (/^\{[A-Za-z_]+\}$/.test(part) ? { parameter: part.slice(1, -1) } : part));

const templates = new Map<RouteDefinition, Segment[]>(routes.map((route) => [route, segmentsOf(route.path)]));

/**
 * The path parameters when `path` fits the route's template (API Gateway's matching: a
 * parameter is one non-empty segment, handed over decoded), else null. Compared segment by
 * segment, as cheaper than a regular expression with named groups on every request.
 */
export const matchPath = (route: RouteDefinition, path: string): Record<string, string> | null => {
  const segments = templates.get(route) ?? segmentsOf(route.path);
  const parts = path.split('/');
  if (parts.length !== segments.length) return null;
  const parameters: Record<string, string> = {};
  for (let index = 0; index < parts.length; index += 1) {
    const segment = segments[index] as Segment;
    const part = parts[index] as string;
    if (typeof segment === 'string') {
      if (part !== segment) return null;
    } else {
      if (part === '') return null;
      try {
        parameters[segment.parameter] = decodeURIComponent(part);
      } catch {
        return null;
      }
    }
  }
  return parameters;
};

/** Each route with the literal start of its path: a request path that lacks it cannot match. */
const byPrefix = routes.map((route) => ({ route, prefix: route.path.split('{')[0] ?? route.path }));

/**
 * The first route in the table's order for this method whose template fits `path`, with its
 * path parameters: what the local server dispatches to. Only templates of that method whose
 * literal start the path has are tried, so a request runs one regular expression or two
 * rather than one per route.
 */
export const routeFor = (
  method: string | undefined,
  path: string,
): { route: RouteDefinition; parameters: Record<string, string> } | undefined => {
  for (const { route, prefix } of byPrefix) {
    if (route.method !== method || !path.startsWith(prefix)) continue;
    const parameters = matchPath(route, path);
    if (parameters) return { route, parameters };
  }
  return undefined;
};

/** Every route whose template fits `path`, in the table's order: a 405's Allow, when none has the method. */
export const routesOn = (path: string): { route: RouteDefinition; parameters: Record<string, string> }[] => {
  const found: { route: RouteDefinition; parameters: Record<string, string> }[] = [];
  for (const { route, prefix } of byPrefix) {
    if (!path.startsWith(prefix)) continue;
    const parameters = matchPath(route, path);
    if (parameters) found.push({ route, parameters });
  }
  return found;
};

/** Fills a route template with path parameters (events, docs). */
export const fillPath = (route: RouteDefinition, parameters: Record<string, string>): string =>
  route.path.replace(/\{([A-Za-z_]+)\}/g, (_all, name: string) => encodeURIComponent(parameters[name] ?? ''));

const functionsById = new Map<FunctionId, FunctionDefinition>(FUNCTIONS.map((fn) => [fn.id, fn]));

/** The function definition of an id of FUNCTIONS. */
export const functionById = (id: FunctionId): FunctionDefinition => {
  const fn = functionsById.get(id);
  if (!fn) throw new Error(`No function "${id}" in functions/routes.ts FUNCTIONS`);
  return fn;
};

/** The routes a function serves, in the table's order. */
export const routesOf = (id: FunctionId, table: readonly RouteDefinition[] = routes): RouteDefinition[] =>
  table.filter((route) => route.fn === id);

/** API Gateway's route key of a greedy prefix: `ANY /api/admin/{proxy+}`. */
export const greedyRouteKey = (prefix: string): string => `ANY ${prefix}/{proxy+}`;

/**
 * The function whose greedy prefix holds `path` (`{proxy+}` takes one character or more), with
 * the route key and the `proxy` parameter API Gateway gives it; undefined when none does.
 */
export const greedyFor = (
  path: string,
): { fn: FunctionDefinition; routeKey: string; parameters: Record<string, string> } | undefined => {
  for (const fn of FUNCTIONS) {
    for (const prefix of fn.greedy ?? []) {
      if (path.length > prefix.length + 1 && path.startsWith(`${prefix}/`)) {
        return { fn, routeKey: greedyRouteKey(prefix), parameters: { proxy: path.slice(prefix.length + 1) } };
      }
    }
  }
  return undefined;
};
