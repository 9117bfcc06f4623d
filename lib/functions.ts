import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import type { CfnAlias, CfnFunction } from 'aws-cdk-lib/aws-lambda';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import {
  routes as allRoutes,
  FUNCTIONS,
  type FunctionDefinition,
  type FunctionId,
  type RouteDefinition,
} from '../functions/routes.js';
import { type KnapSettings, quotaEnvironment } from './config.js';
import { KnapFunction } from './knap-function.js';
import {
  ADMIN_AUDIT,
  ADMIN_AUTH,
  actionsOf,
  BEARER_AUTH,
  CLIENT_AUTH,
  combine,
  KEY_PARTITION,
  KEY_PREFIX,
  type TableAccess,
} from './table-access.js';

const {
  client: CLIENT,
  token: TOKEN,
  grant: GRANT,
  revoked: REVOKED,
  knap: KNAP,
  idempotency: IDEMPOTENCY,
  run: RUN,
  webhook: WEBHOOK,
  runEvent: RUN_EVENT,
  reportMeter: REPORT_METER,
  streamSlots: STREAM_SLOTS,
  quota: QUOTA,
  assertion: ASSERTION,
} = KEY_PREFIX;

/** private_key_jwt at the OAuth endpoints: the client's keys (beside its item) and the assertion's jti, once. */
const ASSERTION_AUTH: TableAccess = { 'dynamodb:GetItem': [CLIENT], 'dynamodb:PutItem': [ASSERTION] };

/**
 * The organization's quota counters (shared/store/quota-store.ts): a conditional UpdateItem
 * that takes or gives back a place, and a GetItem only after a refusal, to name the quota.
 */
const QUOTA_COUNTS: TableAccess = { 'dynamodb:UpdateItem': [QUOTA], 'dynamodb:GetItem': [QUOTA] };

/**
 * What each route's function does with the table, and nothing more (see the repository,
 * shared/store/dynamo-repository.ts, the services that call it, and the key design in
 * shared/store/keys.ts). Item actions are limited to the key prefixes named (IAM
 * `dynamodb:LeadingKeys`): the token function cannot touch a Knap, a Knap route cannot
 * write a token.
 * - token: tokens are sealed (shared/domain/sealed-tokens.ts), never stored. The client check
 *   and rate count is one conditional UpdateItem on the client (its GetItem when the failure
 *   did not return it); client_credentials then stores the refresh token's grant (PutItem
 *   GRANT#); the refresh grant reads the grant and its revocation (BatchGetItem GRANT#,
 *   REVOKED#), or a stored-format token of an earlier version (GetItem TOKEN#).
 * - revoke-token: the client check and the same reads; the revocation (UpdateItem REVOKED#),
 *   then the grant deleted (DeleteItem GRANT#); stored-format tokens deleted (BatchWriteItem).
 *   introspect-token: the check and the reads.
 * - oauth-metadata, openapi, docs, docs-asset: public, no table at all.
 * - every /api/studio route: bearer auth (BEARER_AUTH), then:
 * - create-knap: the Knap (conditional PutItem); its Idempotency-Key claimed (PutItem, GetItem
 *   of the holder), completed or released (UpdateItem).
 * - list-knaps: one Query per listing on gsi1 (by creator) and gsi2 (shared in the organization).
 * - get-knap: the Knap (GetItem). update-knap, put-knap: the Knap, then its new version (conditional
 *   PutItem). delete-knap: the Knap, then one conditional DeleteItem.
 * - preview-schedule: bearer auth only; the schedule is read in memory.
 * - start-run: the Knap (GetItem), the run (PutItem); then the delivery queue.
 * - list-runs: the Knap (GetItem), its runs (Query on gsi1).
 * - get-run: the run (GetItem RUN#), its Knap (GetItem), and when its report window closed
 *   unreported, the `expired` event (Query RUNEVENTS#<run> for the last event, conditional
 *   PutItem RUNEVENTS#). list-run-events: the same, then its events (Query RUNEVENTS#<run>);
 *   a waiting stream takes and gives back a lease (UpdateItem STREAMS#<client>).
 * - report-run-event: no client metering (the report token is checked with no I/O); the
 *   organization's report meter (UpdateItem ORGREPORTS#), the chain's last event (Query
 *   RUNEVENTS#<run>), the event (conditional PutItem RUNEVENTS#), the run's outcome
 *   (UpdateItem RUN#); after the end, the run (GetItem RUN#) to settle a lost outcome write. A
 *   terminal report then queues the run's outcome message (the delivery queue): the deliverer
 *   reads the endpoints and sends it, so this route reads no endpoint and no signing secret.
 * - report-meeting: the after-meeting Knaps (Query on the meeting index, gsi3, keys only), the
 *   names of those that run (BatchGetItem KNAP#), one conditional PutItem per run, GetItem for a
 *   run that exists; then the delivery queue.
 * - every /api/admin route (shared/services/org-*.ts): the admin's JWT is verified in the
 *   function (JWKS over HTTPS), no table read; then the admin's request is counted (ADMIN_AUTH:
 *   conditional UpdateItem ADMINRATE#, per admin per minute; the stage throttles admin routes
 *   too); it reads no token keys. Every change is then audited: one PutItem in the
 *   organization's audit partition (ADMIN_AUDIT: `ORG#*#AUDIT` only, never a Knap's `ORG#`).
 * - admin-list-clients: the organization's clients (Query on gsi3, keys only, then
 *   BatchGetItem CLIENT#). admin-create-client: the client (conditional PutItem CLIENT#).
 * - admin-regenerate-secret, admin-update-client, admin-revoke-client: one conditional
 *   UpdateItem CLIENT# (of this organization, active); GetItem CLIENT# only after a refusal,
 *   to tell 404 from 409 (and for a PATCH that changes nothing).
 * - admin-list-webhooks: Query on gsi3, then BatchGetItem WEBHOOK#. admin-add-webhook: PutItem
 *   WEBHOOK#. admin-remove-webhook: one conditional DeleteItem WEBHOOK# (of this organization).
 *   admin-update-webhook: one conditional UpdateItem WEBHOOK# (of this organization).
 *   admin-rotate-webhook-secret: one conditional UpdateItem WEBHOOK# (of this organization).
 *   admin-test-webhook: GetItem WEBHOOK#, then the send itself.
 *   admin-recover-webhook: GetItem WEBHOOK# (of this organization), then the delivery queue
 *   (the deliverer reads the failed deliveries a page at a time). admin-list-webhook-attempts:
 *   GetItem WEBHOOK# (of this organization), then one Query on gsi2 (its deliveries) a page.
 * - admin-list-runs: each run's endpoint deliveries, their attempts (Query DLV#<run>); the organization's runs (Query on gsi2), or a Knap's (Query on gsi1, kept
 *   only when of the organization); filtered by status or outcome, at most 4 Queries a page.
 * - admin-get-run, admin-list-run-events: reads of the run (GetItem RUN#, of this organization)
 *   and its events (Query RUNEVENTS#<run>), as the studio's get-run and list-run-events: no
 *   change of the admin's and no audit item; the one write is the run's own, its `expired`
 *   event when its report window closed unreported (Query, conditional PutItem RUNEVENTS#; the
 *   run's outcome settled by UpdateItem RUN#), and a waiting stream's lease (UpdateItem
 *   STREAMS#admin#<org>#<admin>).
 * - admin-redeliver-run: one conditional UpdateItem RUN# (of this organization, not pending),
 *   GetItem RUN# only after a refusal; then the delivery queue.
 * - admin-audit-events: a Query of the table itself, in the audit partitions only
 *   (`dynamodb:LeadingKeys` `ORG#*#AUDIT`).
 * - admin-list-knaps: a Query of the organization's partition (`ORG#<org>`, sort keys `KNAP#`),
 *   then each Knap's newest run (Query on gsi1, one item). admin-get-knap: GetItem KNAP, its
 *   newest run. admin-update-knap: GetItem, one conditional PutItem KNAP, its newest run.
 *   admin-delete-knap: GetItem, one conditional DeleteItem KNAP.
 * A route without an entry here fails the synth.
 */
export const ROUTE_TABLE_ACCESS: Readonly<Record<string, TableAccess>> = {
  token: combine(CLIENT_AUTH, ASSERTION_AUTH, {
    'dynamodb:GetItem': [TOKEN],
    'dynamodb:BatchGetItem': [GRANT, REVOKED],
    'dynamodb:PutItem': [GRANT],
  }),
  'revoke-token': combine(CLIENT_AUTH, ASSERTION_AUTH, {
    'dynamodb:GetItem': [TOKEN],
    'dynamodb:BatchGetItem': [GRANT, REVOKED],
    'dynamodb:UpdateItem': [REVOKED],
    'dynamodb:DeleteItem': [GRANT],
    'dynamodb:BatchWriteItem': [TOKEN],
  }),
  'introspect-token': combine(CLIENT_AUTH, ASSERTION_AUTH, {
    'dynamodb:GetItem': [TOKEN],
    'dynamodb:BatchGetItem': [GRANT, REVOKED],
  }),
  'oauth-metadata': {},
  'create-knap': combine(BEARER_AUTH, QUOTA_COUNTS, {
    'dynamodb:PutItem': [KNAP, IDEMPOTENCY],
    'dynamodb:GetItem': [IDEMPOTENCY],
    'dynamodb:UpdateItem': [IDEMPOTENCY],
  }),
  'list-knaps': combine(BEARER_AUTH, { 'dynamodb:Query': ['gsi1', 'gsi2'] }),
  'get-knap': combine(BEARER_AUTH, { 'dynamodb:GetItem': [KNAP] }),
  'update-knap': combine(BEARER_AUTH, QUOTA_COUNTS, { 'dynamodb:GetItem': [KNAP], 'dynamodb:PutItem': [KNAP] }),
  'put-knap': combine(BEARER_AUTH, QUOTA_COUNTS, { 'dynamodb:GetItem': [KNAP], 'dynamodb:PutItem': [KNAP] }),
  'delete-knap': combine(BEARER_AUTH, QUOTA_COUNTS, { 'dynamodb:GetItem': [KNAP], 'dynamodb:DeleteItem': [KNAP] }),
  'preview-schedule': BEARER_AUTH,
  'start-run': combine(BEARER_AUTH, { 'dynamodb:GetItem': [KNAP], 'dynamodb:PutItem': [RUN] }),
  'list-runs': combine(BEARER_AUTH, { 'dynamodb:GetItem': [KNAP], 'dynamodb:Query': ['gsi1'] }),
  'get-run': combine(BEARER_AUTH, {
    'dynamodb:GetItem': [RUN, KNAP],
    'dynamodb:Query': [KEY_PARTITION.runEvents],
    'dynamodb:PutItem': [RUN_EVENT],
    'dynamodb:UpdateItem': [RUN],
  }),
  'list-run-events': combine(BEARER_AUTH, {
    'dynamodb:GetItem': [RUN, KNAP],
    'dynamodb:Query': [KEY_PARTITION.runEvents],
    'dynamodb:PutItem': [RUN_EVENT],
    'dynamodb:UpdateItem': [RUN, STREAM_SLOTS],
  }),
  'report-run-event': {
    'dynamodb:GetItem': [RUN],
    'dynamodb:Query': [KEY_PARTITION.runEvents],
    'dynamodb:PutItem': [RUN_EVENT],
    'dynamodb:UpdateItem': [RUN, REPORT_METER],
  },
  'report-meeting': combine(BEARER_AUTH, {
    'dynamodb:GetItem': [RUN],
    'dynamodb:PutItem': [RUN],
    // The meeting index (the after-meeting Knaps' own entries), never the Knap listings; then
    // the names of the Knaps that run, for their runs to keep.
    'dynamodb:Query': ['gsi3'],
    'dynamodb:BatchGetItem': [KNAP],
  }),
  'admin-list-clients': combine(ADMIN_AUTH, { 'dynamodb:Query': ['gsi3'], 'dynamodb:BatchGetItem': [CLIENT] }),
  'admin-create-client': combine(ADMIN_AUTH, ADMIN_AUDIT, QUOTA_COUNTS, { 'dynamodb:PutItem': [CLIENT] }),
  'admin-regenerate-secret': combine(ADMIN_AUTH, ADMIN_AUDIT, { 'dynamodb:UpdateItem': [CLIENT], 'dynamodb:GetItem': [CLIENT] }),
  'admin-update-client': combine(ADMIN_AUTH, ADMIN_AUDIT, { 'dynamodb:UpdateItem': [CLIENT], 'dynamodb:GetItem': [CLIENT] }),
  'admin-revoke-client': combine(ADMIN_AUTH, ADMIN_AUDIT, QUOTA_COUNTS, {
    'dynamodb:UpdateItem': [CLIENT],
    'dynamodb:GetItem': [CLIENT],
  }),
  'admin-get-client': combine(ADMIN_AUTH, { 'dynamodb:GetItem': [CLIENT] }),
  'admin-add-secret': combine(ADMIN_AUTH, ADMIN_AUDIT, { 'dynamodb:UpdateItem': [CLIENT], 'dynamodb:GetItem': [CLIENT] }),
  'admin-remove-secret': combine(ADMIN_AUTH, ADMIN_AUDIT, { 'dynamodb:UpdateItem': [CLIENT], 'dynamodb:GetItem': [CLIENT] }),
  'admin-set-jwks': combine(ADMIN_AUTH, ADMIN_AUDIT, { 'dynamodb:PutItem': [CLIENT], 'dynamodb:GetItem': [CLIENT] }),
  'admin-list-webhooks': combine(ADMIN_AUTH, { 'dynamodb:Query': ['gsi3'], 'dynamodb:BatchGetItem': [WEBHOOK] }),
  'admin-add-webhook': combine(ADMIN_AUTH, ADMIN_AUDIT, QUOTA_COUNTS, { 'dynamodb:PutItem': [WEBHOOK] }),
  'admin-remove-webhook': combine(ADMIN_AUTH, ADMIN_AUDIT, QUOTA_COUNTS, { 'dynamodb:DeleteItem': [WEBHOOK] }),
  'admin-rotate-webhook-secret': combine(ADMIN_AUTH, ADMIN_AUDIT, { 'dynamodb:UpdateItem': [WEBHOOK] }),
  'admin-test-webhook': combine(ADMIN_AUTH, ADMIN_AUDIT, { 'dynamodb:GetItem': [WEBHOOK] }),
  'admin-update-webhook': combine(ADMIN_AUTH, ADMIN_AUDIT, { 'dynamodb:UpdateItem': [WEBHOOK] }),
  'admin-recover-webhook': combine(ADMIN_AUTH, ADMIN_AUDIT, { 'dynamodb:GetItem': [WEBHOOK] }),
  'admin-list-webhook-attempts': combine(ADMIN_AUTH, { 'dynamodb:GetItem': [WEBHOOK], 'dynamodb:Query': ['gsi2'] }),
  'admin-list-runs': combine(ADMIN_AUTH, { 'dynamodb:Query': ['gsi1', 'gsi2', KEY_PARTITION.deliveries] }),
  'admin-get-run': combine(ADMIN_AUTH, {
    'dynamodb:GetItem': [RUN],
    'dynamodb:Query': [KEY_PARTITION.runEvents, KEY_PARTITION.deliveries],
    'dynamodb:PutItem': [RUN_EVENT],
    'dynamodb:UpdateItem': [RUN],
  }),
  'admin-list-run-events': combine(ADMIN_AUTH, {
    'dynamodb:GetItem': [RUN],
    'dynamodb:Query': [KEY_PARTITION.runEvents],
    'dynamodb:PutItem': [RUN_EVENT],
    'dynamodb:UpdateItem': [RUN, STREAM_SLOTS],
  }),
  'admin-redeliver-run': combine(ADMIN_AUTH, ADMIN_AUDIT, { 'dynamodb:UpdateItem': [RUN], 'dynamodb:GetItem': [RUN] }),
  'admin-audit-events': combine(ADMIN_AUTH, { 'dynamodb:Query': [KEY_PARTITION.audit] }),
  'admin-list-knaps': combine(ADMIN_AUTH, { 'dynamodb:Query': [KEY_PARTITION.orgKnaps, 'gsi1'] }),
  'admin-get-knap': combine(ADMIN_AUTH, { 'dynamodb:GetItem': [KNAP], 'dynamodb:Query': ['gsi1'] }),
  'admin-update-knap': combine(ADMIN_AUTH, ADMIN_AUDIT, {
    'dynamodb:GetItem': [KNAP],
    'dynamodb:PutItem': [KNAP],
    'dynamodb:Query': ['gsi1'],
  }),
  'admin-delete-knap': combine(ADMIN_AUTH, ADMIN_AUDIT, QUOTA_COUNTS, {
    'dynamodb:GetItem': [KNAP],
    'dynamodb:DeleteItem': [KNAP],
  }),
  openapi: {},
  docs: {},
  'docs-asset': {},
  console: {},
};

/** The organization admins' API: JWT-authenticated, metered per admin (ADMIN_AUTH), throttled by the stage (adminThrottle). */
export const ADMIN_PATH_PREFIX = '/api/admin/';

export const isAdminRoute = (route: Pick<RouteDefinition, 'path'>): boolean => route.path.startsWith(ADMIN_PATH_PREFIX);

/**
 * The routes that seal or open tokens, and so read the token signing keys: those that meter
 * a client (its UpdateItem). Admin routes change clients too, but never see an API token.
 */
export const routesReadingTokenKeys = (routes: readonly RouteDefinition[] = allRoutes): string[] =>
  routes
    .filter((route) => !isAdminRoute(route) && ROUTE_TABLE_ACCESS[route.id]?.['dynamodb:UpdateItem']?.includes(CLIENT))
    .map((route) => route.id);

/** The routes whose answers name the API's own URL (baseUrlOf): they get PUBLIC_BASE_URL with a custom domain. */
export const ROUTES_NAMING_THEIR_URL: readonly string[] = ['oauth-metadata', 'openapi'];

/** What a function may do with the table: the union of what its routes do. */
export const functionTableAccess = (routes: readonly RouteDefinition[]): TableAccess =>
  combine(
    ...routes.map((route) => {
      const access = ROUTE_TABLE_ACCESS[route.id];
      if (!access) throw new Error(`Route "${route.id}" has no entry in lib/functions.ts ROUTE_TABLE_ACCESS; add what it uses`);
      return access;
    }),
  );

/** `list-knaps` -> `ListKnaps`: construct ids and readable CloudFormation logical ids. */
export const pascalCase = (id: string): string =>
  id
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');

/** `TokenFunction`, `KnapsFunction`...: the logical id `sam local invoke` takes. */
export const functionLogicalId = (functionId: string): string => `${pascalCase(functionId)}Function`;

/** `TokenFunction` and its alias `TokenFunctionLive`: stable, readable logical ids. */
export const nameLogicalIds = (fn: KnapFunction, functionId: string): void => {
  (fn.node.defaultChild as CfnFunction).overrideLogicalId(functionLogicalId(functionId));
  (fn.live.node.defaultChild as CfnAlias).overrideLogicalId(`${functionLogicalId(functionId)}Live`);
};

export interface KnapFunctionsProps {
  readonly table: ITable;
  readonly settings: KnapSettings;
  /** Defaults to the route table in functions/routes.ts. */
  readonly routes?: readonly RouteDefinition[];
  /** Defaults to the function table in functions/routes.ts. */
  readonly functions?: readonly FunctionDefinition[];
  /** The API's public base URL (`https://api.example.com`) when it has a custom domain. */
  readonly publicBaseUrl?: string;
  /** The Secrets Manager secret holding the token signing keys (`{"current": ..., "previous": ...}`). */
  readonly tokenKeys: ISecret;
}

/** Reserved concurrency of a function: its own setting, else the `*` one, else none. */
export const reservedConcurrencyOf = (settings: KnapSettings, functionId: string): number | undefined =>
  settings.reservedConcurrency[functionId] ?? settings.reservedConcurrency['*'];

/**
 * One Lambda per function of the function table (functions/routes.ts FUNCTIONS), serving its
 * routes, each bound to the table with the union of its routes' access.
 */
export class KnapFunctions extends Construct {
  /** Each function, by its id. */
  readonly byFunction: ReadonlyMap<FunctionId, KnapFunction>;
  /** Each route's function, in route-table order. */
  readonly byRoute: ReadonlyMap<RouteDefinition, KnapFunction>;

  constructor(scope: Construct, id: string, props: KnapFunctionsProps) {
    super(scope, id);
    const routes = props.routes ?? allRoutes;
    const functions = props.functions ?? FUNCTIONS;
    const unknown = Object.keys(ROUTE_TABLE_ACCESS).filter((routeId) => !routes.some((route) => route.id === routeId));
    if (unknown.length > 0) throw new Error(`ROUTE_TABLE_ACCESS names routes that do not exist: ${unknown.join(', ')}`);
    const readsTokenKeys = routesReadingTokenKeys(routes);

    const byFunction = new Map<FunctionId, KnapFunction>();
    for (const definition of functions) {
      const served = routes.filter((route) => route.fn === definition.id);
      if (served.length === 0) throw new Error(`Function "${definition.id}" serves no route`);
      const access = functionTableAccess(served);
      const fn = new KnapFunction(this, pascalCase(definition.id), {
        entry: definition.entry,
        description: `${definition.description} (${served.map((route) => `${route.method} ${route.path}`).join(', ')})`.slice(
          0,
          256,
        ),
        logLevel: props.settings.logLevel,
        defaultRateLimit: props.settings.defaultRateLimit,
        assets: [...new Set(served.flatMap((route) => route.assets ?? []))],
        reservedConcurrentExecutions: reservedConcurrencyOf(props.settings, definition.id),
        declareLocalEndpoint: props.settings.samLocal,
        environment: {
          ...quotaEnvironment(props.settings.quotas),
          ...(props.publicBaseUrl && served.some((route) => ROUTES_NAMING_THEIR_URL.includes(route.id))
            ? { PUBLIC_BASE_URL: props.publicBaseUrl }
            : {}),
        },
      });
      if (actionsOf(access).length > 0) fn.bindTable(props.table, access);
      if (served.some((route) => readsTokenKeys.includes(route.id))) {
        props.tokenKeys.grantRead(fn);
        fn.addEnvironment('TOKEN_KEYS_SECRET_ARN', props.tokenKeys.secretArn);
        // Unset, tokens shaped like those issued before sealing cost no read (shared/domain/tokens.ts).
        if (props.settings.storedTokensUntil) fn.addEnvironment('STORED_TOKENS_UNTIL', props.settings.storedTokensUntil);
      }
      nameLogicalIds(fn, definition.id);
      byFunction.set(definition.id, fn);
    }
    const byRoute = new Map<RouteDefinition, KnapFunction>();
    for (const route of routes) {
      const fn = byFunction.get(route.fn);
      if (!fn) throw new Error(`Route "${route.id}" names function "${route.fn}", which is not in the function table`);
      byRoute.set(route, fn);
    }
    this.byFunction = byFunction;
    this.byRoute = byRoute;
  }
}
