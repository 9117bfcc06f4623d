import type { CfnFunction } from 'aws-cdk-lib/aws-lambda';
import { Construct } from 'constructs';
import { routes as allRoutes, type RouteDefinition } from '../functions/routes.js';
import type { IndexName } from '../shared/store/table.js';
import type { KnapSettings } from './config.js';
import type { KnapData } from './data.js';
import { type DynamoAction, KnapFunction } from './knap-function.js';

/**
 * The DynamoDB actions each route's function uses, and nothing more (see the repository,
 * shared/store/repository.ts, and the services that call it):
 * - token: the client check and rate count is one conditional UpdateItem, whose failure
 *   may be explained by a GetItem; the refresh grant reads its token (GetItem); new tokens
 *   are written in one BatchWriteItem.
 * - create-knap: bearer auth reads the token (GetItem) and meters the client (UpdateItem,
 *   GetItem on refusal); the Knap is one conditional PutItem.
 * - list-knaps: bearer auth as above, then one Query per listing on gsi1 (by creator) and
 *   gsi2 (shared in the organization).
 * - revoke-token: the client check as for token; the token (GetItem); its deletion, with the
 *   access tokens of a refresh token (BatchWriteItem). introspect-token: the check and the read.
 *   The token route's refresh grant also notes the new access token on the refresh token
 *   (UpdateItem). oauth-metadata: public, no table.
 * - create-knap also claims and completes an Idempotency-Key (PutItem, UpdateItem).
 * - get-knap: bearer auth, then the Knap (GetItem).
 * - update-knap: bearer auth, the Knap (GetItem), the new version in one conditional PutItem.
 * - delete-knap: bearer auth, the Knap (GetItem), one conditional DeleteItem.
 * - preview-schedule: bearer auth only; the schedule is read in memory.
 * - start-run: bearer auth, the Knap (GetItem), the run (PutItem); then the delivery queue.
 * - list-runs: bearer auth, the Knap (GetItem), its runs (Query on gsi1).
 * - report-meeting: bearer auth, the after-meeting Knaps (Query on gsi1 and gsi2), one
 *   conditional PutItem per run, GetItem for a run that exists; then the delivery queue.
 * - openapi, docs, docs-asset: public, no table at all.
 * A route without an entry here fails the synth.
 */
export const ROUTE_TABLE_ACTIONS: Readonly<Record<string, readonly DynamoAction[]>> = {
  token: ['dynamodb:UpdateItem', 'dynamodb:GetItem', 'dynamodb:BatchWriteItem'],
  'revoke-token': ['dynamodb:UpdateItem', 'dynamodb:GetItem', 'dynamodb:BatchWriteItem'],
  'introspect-token': ['dynamodb:UpdateItem', 'dynamodb:GetItem'],
  'oauth-metadata': [],
  'create-knap': ['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:PutItem'],
  'list-knaps': ['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:Query'],
  'get-knap': ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
  'update-knap': ['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:PutItem'],
  'delete-knap': ['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem'],
  'preview-schedule': ['dynamodb:GetItem', 'dynamodb:UpdateItem'],
  'start-run': ['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:PutItem'],
  'list-runs': ['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:Query'],
  'report-meeting': ['dynamodb:GetItem', 'dynamodb:UpdateItem', 'dynamodb:PutItem', 'dynamodb:Query'],
  openapi: [],
  docs: [],
  'docs-asset': [],
};

/** The indexes a route's Query may read (gsi3, the clients of an organization, is the admin CLI's alone). */
export const ROUTE_INDEXES: Readonly<Record<string, readonly IndexName[]>> = {
  'list-knaps': ['gsi1', 'gsi2'],
  'list-runs': ['gsi1'],
  'report-meeting': ['gsi1', 'gsi2'],
};

/** `list-knaps` -> `ListKnaps`: construct ids and readable CloudFormation logical ids. */
export const pascalCase = (id: string): string =>
  id
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((part) => part[0]!.toUpperCase() + part.slice(1))
    .join('');

/** `TokenFunction`, `CreateKnapFunction`...: the logical id `sam local invoke` takes. */
export const functionLogicalId = (routeId: string): string => `${pascalCase(routeId)}Function`;

export interface KnapFunctionsProps {
  readonly data: KnapData;
  readonly settings: KnapSettings;
  /** Defaults to the route table in functions/routes.ts. */
  readonly routes?: readonly RouteDefinition[];
}

/** One Lambda per route of the route table, each bound to the table with its own actions. */
export class KnapFunctions extends Construct {
  readonly byRoute: ReadonlyMap<RouteDefinition, KnapFunction>;

  constructor(scope: Construct, id: string, props: KnapFunctionsProps) {
    super(scope, id);
    const routes = props.routes ?? allRoutes;
    const unknown = Object.keys(ROUTE_TABLE_ACTIONS).filter((routeId) => !routes.some((route) => route.id === routeId));
    if (unknown.length > 0) throw new Error(`ROUTE_TABLE_ACTIONS names routes that do not exist: ${unknown.join(', ')}`);

    const byRoute = new Map<RouteDefinition, KnapFunction>();
    for (const route of routes) {
      const actions = ROUTE_TABLE_ACTIONS[route.id];
      if (!actions) {
        throw new Error(
          `Route "${route.id}" has no DynamoDB actions in lib/functions.ts ROUTE_TABLE_ACTIONS; add the ones it uses`,
        );
      }
      const fn = new KnapFunction(this, pascalCase(route.id), {
        entry: route.entry,
        description: `${route.method} ${route.path}: ${route.description}`,
        logLevel: props.settings.logLevel,
        defaultRateLimit: props.settings.defaultRateLimit,
        assets: route.assets ?? [],
      });
      if (actions.length > 0) fn.bindTable(props.data.table, ROUTE_INDEXES[route.id] ?? [], actions);
      (fn.node.defaultChild as CfnFunction).overrideLogicalId(functionLogicalId(route.id));
      byRoute.set(route, fn);
    }
    this.byRoute = byRoute;
  }
}
