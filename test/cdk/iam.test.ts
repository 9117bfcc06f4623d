import type { Template } from 'aws-cdk-lib/assertions';
import { jobs } from '../../functions/jobs.js';
import { FUNCTIONS, routes, routesOf } from '../../functions/routes.js';
import { functionLogicalId, functionTableAccess, ROUTE_TABLE_ACCESS } from '../../lib/functions.js';
import { OPERATOR_TABLE_ACTIONS } from '../../lib/knap-stack.js';
import { JOB_TABLE_ACCESS } from '../../lib/runs.js';
import { actionsOf, inScope, KEY_PARTITION, KEY_PREFIX } from '../../lib/table-access.js';
import { key } from '../../shared/store/keys.js';
import { resourcesOf, SYNTH_TIMEOUT_MS, synthesized } from './synth.js';

let template: Template;
beforeAll(async () => {
  ({ template } = await synthesized());
}, SYNTH_TIMEOUT_MS);

/** A value the data stack publishes for this one (a weak reference), by the output's name. */
const fromData = (outputName: RegExp) => ({
  'Fn::GetStackOutput': { StackName: 'KnapData', Region: { Ref: 'AWS::Region' }, OutputName: expect.stringMatching(outputName) },
});
const tableArn = () => fromData(/^PublishOutputFnGetAttKnapTableArn/);

interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
  Condition?: Record<string, Record<string, string | string[]>>;
}

const list = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

/** Every statement of every policy attached to the function's role. */
const statementsOf = (functionId: string): Statement[] => {
  const fn = resourcesOf(template, 'AWS::Lambda::Function')[functionLogicalId(functionId)]!;
  const roleId = fn.Properties?.Role['Fn::GetAtt'][0] as string;
  return Object.values(resourcesOf(template, 'AWS::IAM::Policy'))
    .filter((policy) => list(policy.Properties?.Roles).some((role: { Ref?: string }) => role.Ref === roleId))
    .flatMap((policy) => (policy.Properties?.PolicyDocument?.Statement ?? []) as Statement[]);
};

/** The partition-key prefixes a statement allows (`dynamodb:LeadingKeys`), as `CLIENT#*`..., or none. */
const leadingKeysOf = (statement: Statement): string[] | undefined => {
  if (!statement.Condition) return undefined;
  expect(Object.keys(statement.Condition)).toEqual(['ForAllValues:StringLike']);
  expect(Object.keys(statement.Condition['ForAllValues:StringLike']!)).toEqual(['dynamodb:LeadingKeys']);
  return list(statement.Condition['ForAllValues:StringLike']!['dynamodb:LeadingKeys']!).sort();
};

/** action -> resources it is allowed on; a resource limited to key prefixes reads `{ on, keys }`. Denials apart. */
const grants = (functionId: string, service: string): Record<string, unknown[]> => {
  const byAction: Record<string, unknown[]> = {};
  for (const statement of statementsOf(functionId).filter((candidate) => candidate.Effect !== 'Deny')) {
    expect(statement.Effect).toBe('Allow');
    const keys = leadingKeysOf(statement);
    for (const action of list(statement.Action).filter((candidate) => candidate.startsWith(`${service}:`))) {
      const resources = list(statement.Resource).map((on) => (keys ? { on, keys } : on));
      byAction[action] = [...(byAction[action] ?? []), ...resources];
    }
  }
  return byAction;
};

/** The table, for items whose partition key starts with one of these prefixes (`CLIENT#`) or matches one of these patterns only. */
const items = (...scopes: string[]) => ({
  on: tableArn(),
  keys: scopes.map((scope) => (scope.endsWith('#') ? `${scope}*` : scope)).sort(),
});
const indexArn = (name: string) => ({ 'Fn::Join': ['', [tableArn(), `/index/${name}`]] });
const C = 'CLIENT#';
const T = 'TOKEN#';
const V = 'REVOKED#';
const G = 'GRANT#';
const K = 'ORG#';
const I = 'IDEM#';
const R = 'RUN#';
const W = 'WEBHOOK#';
/** The audit partitions, `ORG#<org>#AUDIT`: a pattern, not the prefix `ORG#` (which is every Knap's too). */
const A = 'ORG#*#AUDIT';
/** A run's events, `RUNEVENTS#<run_id>`: read by a Query of their partition only. */
const E = 'RUNEVENTS#';
const EVENTS = 'RUNEVENTS#*';
const M = 'ORGREPORTS#';
/** A run's delivery to each endpoint, `DLV#<run_id>`: its items, and a Query of their partition. */
const D = 'DLV#';
const DELIVERIES = 'DLV#*';
/** Messages other than knap.run, `MSG#<msg_id>`. */
const MSG = 'MSG#';
const S = 'STREAMS#';
const AR = 'ADMINRATE#';
/** An organization's quota counters: a place taken or given back, read only to name a refused quota. */
const Q = 'QUOTA#';
/** A used client assertion's jti (private_key_jwt): written once by the OAuth endpoints. */
const J = 'JTI#';

// Pinned here literally (not read back from lib/functions.ts), so a new permission is a visible change.
// Bearer routes read their token and the client, meter the client beside reading the token's
// revocations; Query only ever on named indexes.
const expectedGrants = (): Record<string, Record<string, unknown[]>> => {
  const admin = { 'dynamodb:GetItem': [items(AR)], 'dynamodb:UpdateItem': [items(AR)] };
  const bearer = {
    'dynamodb:GetItem': [items(C, T)],
    'dynamodb:UpdateItem': [items(C)],
    'dynamodb:BatchGetItem': [items(V)],
  };
  return {
    // Tokens are sealed: the token function stores refresh grants (hashed), reads grants,
    // revocations and stored-format tokens, meters its client, and writes nothing else:
    // never a Knap, a run or a webhook.
    token: {
      'dynamodb:BatchGetItem': [items(G, V)],
      'dynamodb:GetItem': [items(C, T)],
      'dynamodb:PutItem': [items(G, J)],
      'dynamodb:UpdateItem': [items(C)],
    },
    'revoke-token': {
      'dynamodb:BatchGetItem': [items(G, V)],
      'dynamodb:BatchWriteItem': [items(T)],
      'dynamodb:DeleteItem': [items(G)],
      'dynamodb:GetItem': [items(C, T)],
      'dynamodb:PutItem': [items(J)],
      'dynamodb:UpdateItem': [items(C, V)],
    },
    'introspect-token': {
      'dynamodb:BatchGetItem': [items(G, V)],
      'dynamodb:GetItem': [items(C, T)],
      'dynamodb:PutItem': [items(J)],
      'dynamodb:UpdateItem': [items(C)],
    },
    'oauth-metadata': {},
    'create-knap': {
      'dynamodb:BatchGetItem': [items(V)],
      'dynamodb:GetItem': [items(C, I, Q, T)],
      'dynamodb:PutItem': [items(I, K)],
      'dynamodb:UpdateItem': [items(C, I, Q)],
    },
    'list-knaps': { ...bearer, 'dynamodb:Query': [indexArn('gsi1'), indexArn('gsi2')] },
    'get-knap': { ...bearer, 'dynamodb:GetItem': [items(C, K, T)] },
    'update-knap': {
      ...bearer,
      'dynamodb:GetItem': [items(C, K, Q, T)],
      'dynamodb:PutItem': [items(K)],
      'dynamodb:UpdateItem': [items(C, Q)],
    },
    'put-knap': {
      ...bearer,
      'dynamodb:GetItem': [items(C, K, Q, T)],
      'dynamodb:PutItem': [items(K)],
      'dynamodb:UpdateItem': [items(C, Q)],
    },
    'delete-knap': {
      ...bearer,
      'dynamodb:GetItem': [items(C, K, Q, T)],
      'dynamodb:DeleteItem': [items(K)],
      'dynamodb:UpdateItem': [items(C, Q)],
    },
    'start-run': { ...bearer, 'dynamodb:GetItem': [items(C, K, T)], 'dynamodb:PutItem': [items(R)] },
    'list-runs': { ...bearer, 'dynamodb:GetItem': [items(C, K, T)], 'dynamodb:Query': [indexArn('gsi1')] },
    // The meeting index, then the names of the Knaps that run.
    'report-meeting': {
      ...bearer,
      'dynamodb:GetItem': [items(C, R, T)],
      'dynamodb:BatchGetItem': [items(K, V)],
      'dynamodb:PutItem': [items(R)],
      'dynamodb:Query': [indexArn('gsi3')],
    },
    'preview-schedule': bearer,
    // A run and its events: read (the events by a Query of the run's own partition), the
    // `expired` event written when the report window closed; a waiting stream's lease.
    'get-run': {
      ...bearer,
      'dynamodb:GetItem': [items(C, K, R, T)],
      'dynamodb:PutItem': [items(E)],
      'dynamodb:UpdateItem': [items(C, R)],
      'dynamodb:Query': [items(EVENTS)],
    },
    'list-run-events': {
      ...bearer,
      'dynamodb:GetItem': [items(C, K, R, T)],
      'dynamodb:PutItem': [items(E)],
      'dynamodb:UpdateItem': [items(C, R, S)],
      'dynamodb:Query': [items(EVENTS)],
    },
    // Reports: no client metering (the report token needs no read), the organization's meter.
    'report-run-event': {
      'dynamodb:GetItem': [items(R)],
      'dynamodb:PutItem': [items(E)],
      'dynamodb:UpdateItem': [items(M, R)],
      'dynamodb:Query': [items(EVENTS)],
    },
    // Organization admins: JWTs verified in the function (no table read, no token keys), then
    // the admin's request counted (ADMINRATE#: UpdateItem, GetItem where a refusal brings no
    // item); each change audited in the organization's audit partition, never under `ORG#*`;
    // a creation takes its place in the organization's quota (QUOTA#) first.
    'admin-list-clients': { ...admin, 'dynamodb:BatchGetItem': [items(C)], 'dynamodb:Query': [indexArn('gsi3')] },
    'admin-create-client': {
      'dynamodb:GetItem': [items(AR, Q)],
      'dynamodb:PutItem': [items(C, A)],
      'dynamodb:UpdateItem': [items(AR, Q)],
    },
    'admin-regenerate-secret': {
      'dynamodb:GetItem': [items(AR, C)],
      'dynamodb:PutItem': [items(A)],
      'dynamodb:UpdateItem': [items(AR, C)],
    },
    'admin-update-client': {
      'dynamodb:GetItem': [items(AR, C)],
      'dynamodb:PutItem': [items(A)],
      'dynamodb:UpdateItem': [items(AR, C)],
    },
    'admin-revoke-client': {
      'dynamodb:GetItem': [items(AR, C, Q)],
      'dynamodb:PutItem': [items(A)],
      'dynamodb:UpdateItem': [items(AR, C, Q)],
    },
    // One client with its keys (beside its item); secrets added and retired on the item; keys put beside it.
    'admin-get-client': { ...admin, 'dynamodb:GetItem': [items(AR, C)] },
    'admin-add-secret': {
      'dynamodb:GetItem': [items(AR, C)],
      'dynamodb:PutItem': [items(A)],
      'dynamodb:UpdateItem': [items(AR, C)],
    },
    'admin-remove-secret': {
      'dynamodb:GetItem': [items(AR, C)],
      'dynamodb:PutItem': [items(A)],
      'dynamodb:UpdateItem': [items(AR, C)],
    },
    'admin-set-jwks': {
      'dynamodb:GetItem': [items(AR, C)],
      'dynamodb:PutItem': [items(A, C)],
      'dynamodb:UpdateItem': [items(AR)],
    },
    'admin-list-webhooks': { ...admin, 'dynamodb:BatchGetItem': [items(W)], 'dynamodb:Query': [indexArn('gsi3')] },
    'admin-add-webhook': {
      'dynamodb:GetItem': [items(AR, Q)],
      'dynamodb:PutItem': [items(A, W)],
      'dynamodb:UpdateItem': [items(AR, Q)],
    },
    'admin-remove-webhook': {
      'dynamodb:DeleteItem': [items(W)],
      'dynamodb:GetItem': [items(AR, Q)],
      'dynamodb:PutItem': [items(A)],
      'dynamodb:UpdateItem': [items(AR, Q)],
    },
    'admin-rotate-webhook-secret': {
      'dynamodb:GetItem': [items(AR)],
      'dynamodb:PutItem': [items(A)],
      'dynamodb:UpdateItem': [items(AR, W)],
    },
    'admin-test-webhook': {
      'dynamodb:GetItem': [items(AR, W)],
      'dynamodb:PutItem': [items(A)],
      'dynamodb:UpdateItem': [items(AR)],
    },
    'admin-update-webhook': {
      'dynamodb:GetItem': [items(AR)],
      'dynamodb:PutItem': [items(A)],
      'dynamodb:UpdateItem': [items(AR, W)],
    },
    // The endpoint read (of this organization), then one Query of its deliveries (gsi2) a page.
    'admin-list-webhook-attempts': { ...admin, 'dynamodb:GetItem': [items(AR, W)], 'dynamodb:Query': [indexArn('gsi2')] },
    // The endpoint read (of this organization), then the delivery queue: the deliverer reads the failed deliveries.
    'admin-recover-webhook': {
      'dynamodb:GetItem': [items(AR, W)],
      'dynamodb:PutItem': [items(A)],
      'dynamodb:UpdateItem': [items(AR)],
    },
    'admin-list-runs': { ...admin, 'dynamodb:Query': [indexArn('gsi1'), indexArn('gsi2'), items(DELIVERIES)] },
    // Watching a run: its reads, and the run's own writes (its `expired` event, a stream's lease); no audit item.
    'admin-get-run': {
      'dynamodb:GetItem': [items(AR, R)],
      'dynamodb:PutItem': [items(E)],
      'dynamodb:UpdateItem': [items(AR, R)],
      'dynamodb:Query': [items(EVENTS, DELIVERIES)],
    },
    'admin-list-run-events': {
      'dynamodb:GetItem': [items(AR, R)],
      'dynamodb:PutItem': [items(E)],
      'dynamodb:UpdateItem': [items(AR, R, S)],
      'dynamodb:Query': [items(EVENTS)],
    },
    'admin-redeliver-run': {
      'dynamodb:GetItem': [items(AR, R)],
      'dynamodb:PutItem': [items(A)],
      'dynamodb:UpdateItem': [items(AR, R)],
    },
    // The one Query of the table itself: in the audit partitions only.
    'admin-audit-events': { ...admin, 'dynamodb:Query': [items(A)] },
    // The organizations' partitions (K: the Knaps' prefix), and each Knap's newest run.
    'admin-list-knaps': { ...admin, 'dynamodb:Query': [items(K), indexArn('gsi1')] },
    'admin-get-knap': { ...admin, 'dynamodb:GetItem': [items(AR, K)], 'dynamodb:Query': [indexArn('gsi1')] },
    'admin-update-knap': {
      'dynamodb:GetItem': [items(AR, K)],
      'dynamodb:PutItem': [items(A, K)],
      'dynamodb:Query': [indexArn('gsi1')],
      'dynamodb:UpdateItem': [items(AR)],
    },
    'admin-delete-knap': {
      'dynamodb:GetItem': [items(AR, K, Q)],
      'dynamodb:PutItem': [items(A)],
      'dynamodb:DeleteItem': [items(K)],
      'dynamodb:UpdateItem': [items(AR, Q)],
    },
    openapi: {},
    docs: {},
    'docs-asset': {},
    console: {},
    'dispatch-runs': {
      'dynamodb:BatchGetItem': [items(K)],
      'dynamodb:PutItem': [items(R)],
      'dynamodb:UpdateItem': [items(K)],
      'dynamodb:Query': [indexArn('gsi3')],
    },
    'deliver-runs': {
      'dynamodb:BatchGetItem': [items(K, W)],
      // An attempt reads its endpoint and its delivery; each endpoint's delivery is an item of its own.
      'dynamodb:GetItem': [items(D, K, MSG, R, W)],
      // The rest of a large meeting report: the reporter's Knaps, and their runs; each attempt's run events; messages.
      // An endpoint disabled automatically: its streak and its disabling, audited as `system` (the audit partition only).
      'dynamodb:PutItem': [items(E, MSG, R, A)],
      'dynamodb:UpdateItem': [items(D, R, W)],
      // gsi1: an endpoint's failed deliveries, a recovery's pages.
      'dynamodb:Query': [indexArn('gsi3'), indexArn('gsi1'), items(EVENTS, DELIVERIES)],
    },
  };
};

/** A function's grants: the union of its routes' (one statement per action: the union of their key scopes, or of their indexes). */
const functionGrants = (functionId: string): Record<string, unknown[]> => {
  const byRoute = expectedGrants();
  const served = FUNCTIONS.some((fn) => fn.id === functionId)
    ? routesOf(functionId as never).map((route) => route.id)
    : [functionId];
  const merged: Record<string, unknown[]> = {};
  for (const id of served) {
    for (const [action, resources] of Object.entries(byRoute[id] ?? {}))
      merged[action] = [...(merged[action] ?? []), ...resources];
  }
  for (const [action, resources] of Object.entries(merged)) {
    const scoped = resources.filter((resource): resource is { on: unknown; keys: string[] } => 'keys' in (resource as object));
    const others = [
      ...new Map(resources.filter((resource) => !scoped.includes(resource as never)).map((r) => [JSON.stringify(r), r])).values(),
    ];
    merged[action] = [
      ...(scoped.length > 0 ? [{ on: tableArn(), keys: [...new Set(scoped.flatMap((resource) => resource.keys))].sort() }] : []),
      ...others,
    ];
  }
  return merged;
};

/** Every function: the HTTP functions' and the jobs'. */
const functionIds = [...FUNCTIONS.map((fn) => fn.id), ...jobs.map((job) => job.id)];
const X_RAY_WRITES = ['xray:PutTelemetryRecords', 'xray:PutTraceSegments'];
/** The functions that make runs (or redeliver one), and so may send them to the delivery queue (the deliverer re-queues retries). */
const QUEUE_SENDERS = [
  'start-run',
  'report-meeting',
  'admin-redeliver-run',
  'admin-recover-webhook',
  'dispatch-runs',
  'deliver-runs',
];
const queueArn = () => fromData(/^PublishOutputFnGetAttDeliveriesArn/);
/** Whether a function sends to the queue: it serves a route (or is a job) that makes runs. */
const sendsRuns = (functionId: string) =>
  QUEUE_SENDERS.includes(functionId) || routes.some((route) => route.fn === functionId && QUEUE_SENDERS.includes(route.id));

/**
 * Whether the function's policies allow an item action on a partition key, as IAM decides:
 * an Allow whose `ForAllValues:StringLike` keys match, and no Deny whose `ForAnyValue` keys do.
 */
const allowed = (functionId: string, action: string, pk: string): boolean => {
  const matches = (patterns: string | string[]) =>
    list(patterns).some((pattern) =>
      new RegExp(
        `^${pattern
          .split('*')
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('.*')}$`,
        's',
      ).test(pk),
    );
  const statements = statementsOf(functionId).filter((statement) => list(statement.Action).includes(action));
  const denied = statements.some(
    (statement) =>
      statement.Effect === 'Deny' && matches(statement.Condition?.['ForAnyValue:StringLike']?.['dynamodb:LeadingKeys'] ?? []),
  );
  const granted = statements.some(
    (statement) =>
      statement.Effect === 'Allow' && matches(statement.Condition?.['ForAllValues:StringLike']?.['dynamodb:LeadingKeys'] ?? []),
  );
  return granted && !denied;
};

describe('least privilege, per function', () => {
  test('every route and job has its pinned DynamoDB actions, and the maps in lib/ agree', () => {
    const expected = expectedGrants();
    expect(Object.keys(expected).sort()).toEqual([...routes.map((route) => route.id), ...jobs.map((job) => job.id)].sort());
    const declared = { ...ROUTE_TABLE_ACCESS, ...JOB_TABLE_ACCESS };
    for (const id of Object.keys(expected)) expect(actionsOf(declared[id] ?? {})).toEqual(Object.keys(expected[id]!).sort());
    for (const fn of FUNCTIONS) {
      expect(actionsOf(functionTableAccess(routesOf(fn.id)))).toEqual(Object.keys(functionGrants(fn.id)).sort());
    }
  });

  test.each(functionIds.map((id) => [id] as const))(
    "%s: exactly its routes' DynamoDB actions, on exactly their resources",
    (functionId) => {
      const actual = grants(functionId, 'dynamodb');
      for (const resources of Object.values(actual)) resources.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
      const expected = functionGrants(functionId);
      for (const resources of Object.values(expected))
        resources.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
      expect(actual).toEqual(expected);
    },
  );

  test.each(functionIds.map((id) => [id] as const))(
    '%s: its own log group, and the queue only if it makes runs',
    (functionId) => {
      const fn = resourcesOf(template, 'AWS::Lambda::Function')[functionLogicalId(functionId)]!;
      const logGroupId = fn.Properties?.LoggingConfig.LogGroup.Ref as string;
      expect(grants(functionId, 'logs')).toEqual({
        'logs:CreateLogStream': [{ 'Fn::GetAtt': [logGroupId, 'Arn'] }],
        'logs:PutLogEvents': [{ 'Fn::GetAtt': [logGroupId, 'Arn'] }],
      });
      const services = new Set(
        statementsOf(functionId).flatMap((statement) => list(statement.Action).map((action) => action.split(':')[0])),
      );
      const sends = sendsRuns(functionId);
      const usesTable = Object.keys(functionGrants(functionId)).length > 0;
      // Every function that meters a client seals or opens tokens: it reads the signing keys, and
      // only that secret. Admin functions never see an API token.
      // The deliverer seals each message's report token.
      const readsKeys = usesTable && !['dispatch-runs', 'admin'].includes(functionId);
      expect([...services].sort()).toEqual([
        ...(usesTable ? ['dynamodb'] : []),
        'logs',
        ...(readsKeys ? ['secretsmanager'] : []),
        ...(sends ? ['sqs'] : []),
        'xray',
      ]);
      if (readsKeys) {
        const secret = fromData(/^PublishOutputRefTokenKeys/);
        expect(grants(functionId, 'secretsmanager')).toEqual({
          'secretsmanager:DescribeSecret': [secret],
          'secretsmanager:GetSecretValue': [secret],
        });
      }
      if (sends) {
        const sqs = grants(functionId, 'sqs');
        const sendActions = Object.keys(sqs).filter((action) => action.startsWith('sqs:Send'));
        expect(sendActions.length).toBeGreaterThan(0);
        // The dispatcher also sends its coordinator's shares to the dispatch queue (lib/runs.ts).
        const dispatchQueue = functionId === 'dispatch-runs' ? [fromData(/^PublishOutputFnGetAttDispatchSharesArn/)] : [];
        for (const action of sendActions) expect(sqs[action]).toEqual([queueArn(), ...dispatchQueue]);
      }
    },
  );

  test("no wildcard but X-Ray's: no action with *, Resource * only for the trace writes; one managed policy, CodeDeploy's", () => {
    const policies = [
      ...Object.values(resourcesOf(template, 'AWS::IAM::Policy')),
      ...Object.values(resourcesOf(template, 'AWS::IAM::ManagedPolicy')),
    ];
    for (const policy of policies) {
      for (const statement of (policy.Properties?.PolicyDocument.Statement ?? []) as Statement[]) {
        for (const action of list(statement.Action)) expect(action).not.toContain('*');
        // X-Ray's PutTraceSegments and PutTelemetryRecords have no resource type: `*` is the only way to grant them.
        if (statement.Resource === '*') expect(list(statement.Action).sort()).toEqual(X_RAY_WRITES);
        else expect(JSON.stringify(statement.Resource)).not.toMatch(/"\*"|\/\*"/);
      }
    }
    const roles = Object.values(resourcesOf(template, 'AWS::IAM::Role'));
    const lambdaRoles = roles.filter((role) =>
      JSON.stringify(role.Properties?.AssumeRolePolicyDocument).includes('lambda.amazonaws.com'),
    );
    expect(lambdaRoles).toHaveLength(functionIds.length);
    for (const role of lambdaRoles) {
      expect(role.Properties?.ManagedPolicyArns).toBeUndefined();
      expect(role.Properties?.AssumeRolePolicyDocument.Statement).toEqual([
        { Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' } },
      ]);
    }
    const others = roles.filter((role) => !lambdaRoles.includes(role));
    expect(others).toHaveLength(1);
    expect(others[0]?.Properties?.AssumeRolePolicyDocument.Statement).toEqual([
      { Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'codedeploy.amazonaws.com' } },
    ]);
    expect(others[0]?.Properties?.ManagedPolicyArns).toEqual([
      {
        'Fn::Join': ['', ['arn:', { Ref: 'AWS::Partition' }, ':iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited']],
      },
    ]);
  });

  test.each(functionIds.map((id) => [id] as const))('%s: may write traces (X-Ray), in one statement of its own', (functionId) => {
    const xray = statementsOf(functionId).filter((statement) =>
      list(statement.Action).some((action) => action.startsWith('xray:')),
    );
    expect(xray).toEqual([{ Effect: 'Allow', Action: X_RAY_WRITES, Resource: '*' }]);
  });

  test("the audit pattern matches an organization's audit partition, never a Knap's, a client's or another index partition", () => {
    expect(KEY_PARTITION.audit).toBe(A);
    for (const org of ['acme', 'a.b-c_d', 'x']) {
      expect(inScope(KEY_PARTITION.audit, key.orgAudit(org))).toBe(true);
      expect(inScope(KEY_PARTITION.audit, key.auditEvent(org, '2026-01-01T00:00:00Z', 'e1').pk)).toBe(true);
      for (const other of [
        key.knap(org, 'uuid').pk,
        key.orgRuns(org),
        key.orgWebhooks(org),
        key.orgClients(org),
        key.sharedKnaps(org),
        key.client(org).pk,
      ]) {
        expect(inScope(KEY_PARTITION.audit, other)).toBe(false);
      }
    }
    expect(inScope(KEY_PREFIX.knap, key.knap('acme', 'uuid').pk)).toBe(true);
  });

  test.each([['admin']] as const)(
    '%s: under ORG# writes only audit events and Knaps (its admins manage Knaps: issue 45), never another item kind',
    (functionId) => {
      for (const statement of statementsOf(functionId).filter((candidate) => candidate.Effect === 'Allow')) {
        if (JSON.stringify(statement.Resource).includes('/index/')) continue;
        const keys = leadingKeysOf(statement) ?? [];
        for (const pattern of keys.filter((candidate) => candidate.startsWith('ORG#'))) expect([A, 'ORG#*']).toContain(pattern);
      }
    },
  );

  test.each(functionIds.map((id) => [id] as const))(
    '%s: an audit partition is beyond it unless it is the admin function or the deliverer, whatever ORG# keys it has',
    (functionId) => {
      const audit = key.orgAudit('acme');
      const writes = ['dynamodb:PutItem', 'dynamodb:UpdateItem', 'dynamodb:DeleteItem', 'dynamodb:BatchWriteItem'];
      const reads = ['dynamodb:GetItem', 'dynamodb:BatchGetItem'];
      // The admin function: the audit write of every admin change; the deliverer: an endpoint's
      // automatic disabling, audited as `system`. Nothing else there.
      if (functionId === 'admin' || functionId === 'deliver-runs') {
        expect(allowed(functionId, 'dynamodb:PutItem', audit)).toBe(true);
        for (const action of [...writes.slice(1), ...reads]) expect(allowed(functionId, action, audit)).toBe(false);
        return;
      }
      for (const action of [...writes, ...reads]) expect(allowed(functionId, action, audit)).toBe(false);
      // The Knap's own partition stays reachable where the function had it: the denial is the audit's alone.
      if (functionId === 'knaps') {
        expect(allowed(functionId, 'dynamodb:PutItem', key.knap('acme', 'uuid').pk)).toBe(true);
        expect(allowed(functionId, 'dynamodb:GetItem', key.knap('acme', 'uuid').pk)).toBe(true);
      }
    },
  );

  test("the report route's function reads no webhook endpoint: a terminal report queues its outcome message for the deliverer", () => {
    // The endpoints' items hold their signing secrets and URL secrets: only the deliverer and the admin function read them.
    for (const action of ['dynamodb:GetItem', 'dynamodb:BatchGetItem']) {
      expect(allowed('knaps', action, key.webhook('we_1').pk)).toBe(false);
      expect(allowed('deliver-runs', action, key.webhook('we_1').pk)).toBe(true);
    }
    expect(allowed('knaps', 'dynamodb:PutItem', key.message('msg_1').pk)).toBe(false);
  });

  test('Query of the table itself only with dynamodb:LeadingKeys; elsewhere only on named indexes', () => {
    for (const id of functionIds) {
      const queries = statementsOf(id).filter(
        (candidate) => candidate.Effect === 'Allow' && list(candidate.Action).includes('dynamodb:Query'),
      );
      for (const statement of queries) {
        for (const resource of list(statement.Resource)) {
          if (JSON.stringify(resource).includes('/index/')) continue;
          // The audit partitions, a run's events or its endpoint deliveries, or (admins) the
          // organizations' partitions, whose only items are Knaps and, in `ORG#<org>#AUDIT`, the
          // audit log the admin reads anyway.
          const patterns = leadingKeysOf(statement);
          expect(patterns?.length).toBeGreaterThan(0);
          for (const pattern of patterns ?? []) expect([A, EVENTS, DELIVERIES, 'ORG#*']).toContain(pattern);
        }
      }
    }
  });

  test('each function has a role of its own', () => {
    const roles = Object.values(resourcesOf(template, 'AWS::Lambda::Function')).map((fn) => fn.Properties?.Role['Fn::GetAtt'][0]);
    expect(new Set(roles).size).toBe(functionIds.length);
  });
});

describe('the operator policy: the admin CLI on the table', () => {
  test('a managed policy with its item actions on the table and Query on gsi3 only, as an output', () => {
    const entries = Object.entries(resourcesOf(template, 'AWS::IAM::ManagedPolicy'));
    expect(entries).toHaveLength(1);
    const [policyId, policy] = entries[0]!;
    expect(policy.Properties?.PolicyDocument.Statement).toEqual([
      {
        Effect: 'Allow',
        Action: [
          'dynamodb:BatchGetItem',
          'dynamodb:DeleteItem',
          'dynamodb:GetItem',
          'dynamodb:PutItem',
          'dynamodb:Scan',
          'dynamodb:UpdateItem',
        ],
        Resource: tableArn(),
      },
      { Effect: 'Allow', Action: 'dynamodb:Query', Resource: indexArn('gsi3') },
    ]);
    expect([...OPERATOR_TABLE_ACTIONS].sort()).toHaveLength(6);
    template.hasOutput('OperatorPolicyArn', { Value: { Ref: policyId } });
  });
});
