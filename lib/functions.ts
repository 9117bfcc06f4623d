import type { CfnAlias, CfnFunction } from 'aws-cdk-lib/aws-lambda';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { routes as allRoutes, type RouteDefinition } from '../functions/routes.js';
import type { KnapSettings } from './config.js';
import type { KnapData } from './data.js';
import { KnapFunction } from './knap-function.js';
import { actionsOf, BEARER_AUTH, CLIENT_AUTH, combine, KEY_PREFIX, type TableAccess } from './table-access.js';

const { token: TOKEN, grant: GRANT, revoked: REVOKED, knap: KNAP, idempotency: IDEMPOTENCY, run: RUN } = KEY_PREFIX;

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
 * - get-knap: the Knap (GetItem). update-knap: the Knap, then its new version (conditional
 *   PutItem). delete-knap: the Knap, then one conditional DeleteItem.
 * - preview-schedule: bearer auth only; the schedule is read in memory.
 * - start-run: the Knap (GetItem), the run (PutItem); then the delivery queue.
 * - list-runs: the Knap (GetItem), its runs (Query on gsi1).
 * - report-meeting: the after-meeting Knaps (Query on gsi1 and gsi2), one conditional PutItem
 *   per run, GetItem for a run that exists; then the delivery queue.
 * A route without an entry here fails the synth.
 */
export const ROUTE_TABLE_ACCESS: Readonly<Record<string, TableAccess>> = {
  token: combine(CLIENT_AUTH, {
    'dynamodb:GetItem': [TOKEN],
    'dynamodb:BatchGetItem': [GRANT, REVOKED],
    'dynamodb:PutItem': [GRANT],
  }),
  'revoke-token': combine(CLIENT_AUTH, {
    'dynamodb:GetItem': [TOKEN],
    'dynamodb:BatchGetItem': [GRANT, REVOKED],
    'dynamodb:UpdateItem': [REVOKED],
    'dynamodb:DeleteItem': [GRANT],
    'dynamodb:BatchWriteItem': [TOKEN],
  }),
  'introspect-token': combine(CLIENT_AUTH, { 'dynamodb:GetItem': [TOKEN], 'dynamodb:BatchGetItem': [GRANT, REVOKED] }),
  'oauth-metadata': {},
  'create-knap': combine(BEARER_AUTH, {
    'dynamodb:PutItem': [KNAP, IDEMPOTENCY],
    'dynamodb:GetItem': [IDEMPOTENCY],
    'dynamodb:UpdateItem': [IDEMPOTENCY],
  }),
  'list-knaps': combine(BEARER_AUTH, { 'dynamodb:Query': ['gsi1', 'gsi2'] }),
  'get-knap': combine(BEARER_AUTH, { 'dynamodb:GetItem': [KNAP] }),
  'update-knap': combine(BEARER_AUTH, { 'dynamodb:GetItem': [KNAP], 'dynamodb:PutItem': [KNAP] }),
  'delete-knap': combine(BEARER_AUTH, { 'dynamodb:GetItem': [KNAP], 'dynamodb:DeleteItem': [KNAP] }),
  'preview-schedule': BEARER_AUTH,
  'start-run': combine(BEARER_AUTH, { 'dynamodb:GetItem': [KNAP], 'dynamodb:PutItem': [RUN] }),
  'list-runs': combine(BEARER_AUTH, { 'dynamodb:GetItem': [KNAP], 'dynamodb:Query': ['gsi1'] }),
  'report-meeting': combine(BEARER_AUTH, {
    'dynamodb:GetItem': [RUN],
    'dynamodb:PutItem': [RUN],
    'dynamodb:Query': ['gsi1', 'gsi2'],
  }),
  openapi: {},
  docs: {},
  'docs-asset': {},
};

/** The routes that seal or open tokens, and so read the token signing keys. */
export const routesReadingTokenKeys = (): string[] =>
  Object.entries(ROUTE_TABLE_ACCESS)
    .filter(([, access]) => access['dynamodb:UpdateItem']?.includes(KEY_PREFIX.client))
    .map(([id]) => id);

/** The routes whose answers name the API's own URL (baseUrlOf): they get PUBLIC_BASE_URL with a custom domain. */
export const ROUTES_NAMING_THEIR_URL: readonly string[] = ['oauth-metadata', 'openapi'];

/** `list-knaps` -> `ListKnaps`: construct ids and readable CloudFormation logical ids. */
export const pascalCase = (id: string): string =>
  id
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');

/** `TokenFunction`, `CreateKnapFunction`...: the logical id `sam local invoke` takes. */
export const functionLogicalId = (routeId: string): string => `${pascalCase(routeId)}Function`;

/** `TokenFunction` and its alias `TokenFunctionLive`: stable, readable logical ids. */
export const nameLogicalIds = (fn: KnapFunction, functionId: string): void => {
  (fn.node.defaultChild as CfnFunction).overrideLogicalId(functionLogicalId(functionId));
  (fn.live.node.defaultChild as CfnAlias).overrideLogicalId(`${functionLogicalId(functionId)}Live`);
};

export interface KnapFunctionsProps {
  readonly data: KnapData;
  readonly settings: KnapSettings;
  /** Defaults to the route table in functions/routes.ts. */
  readonly routes?: readonly RouteDefinition[];
  /** The API's public base URL (`https://api.example.com`) when it has a custom domain. */
  readonly publicBaseUrl?: string;
  /** The Secrets Manager secret holding the token signing keys (`{"current": ..., "previous": ...}`). */
  readonly tokenKeys: ISecret;
}

/** Reserved concurrency of a function: its own setting, else the `*` one, else none. */
export const reservedConcurrencyOf = (settings: KnapSettings, functionId: string): number | undefined =>
  settings.reservedConcurrency[functionId] ?? settings.reservedConcurrency['*'];

/** One Lambda per route of the route table, each bound to the table with its own access. */
export class KnapFunctions extends Construct {
  readonly byRoute: ReadonlyMap<RouteDefinition, KnapFunction>;

  constructor(scope: Construct, id: string, props: KnapFunctionsProps) {
    super(scope, id);
    const routes = props.routes ?? allRoutes;
    const unknown = Object.keys(ROUTE_TABLE_ACCESS).filter((routeId) => !routes.some((route) => route.id === routeId));
    if (unknown.length > 0) throw new Error(`ROUTE_TABLE_ACCESS names routes that do not exist: ${unknown.join(', ')}`);

    const byRoute = new Map<RouteDefinition, KnapFunction>();
    const readsTokenKeys = routesReadingTokenKeys();
    for (const route of routes) {
      const access = ROUTE_TABLE_ACCESS[route.id];
      if (!access) {
        throw new Error(`Route "${route.id}" has no entry in lib/functions.ts ROUTE_TABLE_ACCESS; add what it uses`);
      }
      const fn = new KnapFunction(this, pascalCase(route.id), {
        entry: route.entry,
        description: `${route.method} ${route.path}: ${route.description}`,
        logLevel: props.settings.logLevel,
        defaultRateLimit: props.settings.defaultRateLimit,
        assets: route.assets ?? [],
        reservedConcurrentExecutions: reservedConcurrencyOf(props.settings, route.id),
        declareLocalEndpoint: props.settings.samLocal,
        environment:
          props.publicBaseUrl && ROUTES_NAMING_THEIR_URL.includes(route.id) ? { PUBLIC_BASE_URL: props.publicBaseUrl } : {},
      });
      if (actionsOf(access).length > 0) fn.bindTable(props.data.table, access);
      if (readsTokenKeys.includes(route.id)) {
        props.tokenKeys.grantRead(fn);
        fn.addEnvironment('TOKEN_KEYS_SECRET_ARN', props.tokenKeys.secretArn);
        // Unset, tokens shaped like those issued before sealing cost no read (shared/domain/tokens.ts).
        if (props.settings.storedTokensUntil) fn.addEnvironment('STORED_TOKENS_UNTIL', props.settings.storedTokensUntil);
      }
      nameLogicalIds(fn, route.id);
      byRoute.set(route, fn);
    }
    this.byRoute = byRoute;
  }
}
