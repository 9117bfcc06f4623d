import type { Template } from 'aws-cdk-lib/assertions';
import { jobs } from '../../functions/jobs.js';
import { routes } from '../../functions/routes.js';
import { functionLogicalId, ROUTE_TABLE_ACTIONS } from '../../lib/functions.js';
import { JOB_TABLE_ACTIONS } from '../../lib/runs.js';
import { resourcesOf, SYNTH_TIMEOUT_MS, synthesized } from './synth.js';

let template: Template;
let tableId: string;
beforeAll(async () => {
  ({ template } = await synthesized());
  [tableId] = Object.keys(resourcesOf(template, 'AWS::DynamoDB::Table')) as [string];
}, SYNTH_TIMEOUT_MS);

interface Statement {
  Effect: string;
  Action: string | string[];
  Resource: unknown;
}

const list = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);

/** Every statement of every policy attached to the function's role. */
const statementsOf = (routeId: string): Statement[] => {
  const fn = resourcesOf(template, 'AWS::Lambda::Function')[functionLogicalId(routeId)]!;
  const roleId = fn.Properties?.Role['Fn::GetAtt'][0] as string;
  return Object.values(resourcesOf(template, 'AWS::IAM::Policy'))
    .filter((policy) => list(policy.Properties?.Roles).some((role: { Ref?: string }) => role.Ref === roleId))
    .flatMap((policy) => (policy.Properties?.PolicyDocument?.Statement ?? []) as Statement[]);
};

/** action -> resources it is allowed on. */
const grants = (routeId: string, service: string): Record<string, unknown[]> => {
  const byAction: Record<string, unknown[]> = {};
  for (const statement of statementsOf(routeId)) {
    expect(statement.Effect).toBe('Allow');
    for (const action of list(statement.Action).filter((candidate) => candidate.startsWith(`${service}:`))) {
      byAction[action] = [...(byAction[action] ?? []), ...list(statement.Resource)];
    }
  }
  return byAction;
};

const tableArn = () => ({ 'Fn::GetAtt': [tableId, 'Arn'] });
const indexArn = (name: string) => ({ 'Fn::Join': ['', [{ 'Fn::GetAtt': [tableId, 'Arn'] }, `/index/${name}`]] });

// Pinned here literally (not read back from lib/functions.ts), so a new permission is a visible change.
const expectedGrants = (): Record<string, Record<string, unknown[]>> => ({
  token: {
    'dynamodb:BatchWriteItem': [tableArn()],
    'dynamodb:GetItem': [tableArn()],
    'dynamodb:UpdateItem': [tableArn()],
  },
  'revoke-token': {
    'dynamodb:BatchWriteItem': [tableArn()],
    'dynamodb:GetItem': [tableArn()],
    'dynamodb:UpdateItem': [tableArn()],
  },
  'introspect-token': { 'dynamodb:GetItem': [tableArn()], 'dynamodb:UpdateItem': [tableArn()] },
  'oauth-metadata': {},
  'create-knap': {
    'dynamodb:GetItem': [tableArn()],
    'dynamodb:PutItem': [tableArn()],
    'dynamodb:UpdateItem': [tableArn()],
  },
  'list-knaps': {
    'dynamodb:GetItem': [tableArn()],
    'dynamodb:UpdateItem': [tableArn()],
    'dynamodb:Query': [tableArn(), indexArn('gsi1'), indexArn('gsi2')],
  },
  'get-knap': { 'dynamodb:GetItem': [tableArn()], 'dynamodb:UpdateItem': [tableArn()] },
  'update-knap': { 'dynamodb:GetItem': [tableArn()], 'dynamodb:UpdateItem': [tableArn()], 'dynamodb:PutItem': [tableArn()] },
  'delete-knap': { 'dynamodb:GetItem': [tableArn()], 'dynamodb:UpdateItem': [tableArn()], 'dynamodb:DeleteItem': [tableArn()] },
  'start-run': { 'dynamodb:GetItem': [tableArn()], 'dynamodb:UpdateItem': [tableArn()], 'dynamodb:PutItem': [tableArn()] },
  'list-runs': {
    'dynamodb:GetItem': [tableArn()],
    'dynamodb:UpdateItem': [tableArn()],
    'dynamodb:Query': [tableArn(), indexArn('gsi1')],
  },
  'report-meeting': {
    'dynamodb:GetItem': [tableArn()],
    'dynamodb:UpdateItem': [tableArn()],
    'dynamodb:PutItem': [tableArn()],
    'dynamodb:Query': [tableArn(), indexArn('gsi1'), indexArn('gsi2')],
  },
  'preview-schedule': { 'dynamodb:GetItem': [tableArn()], 'dynamodb:UpdateItem': [tableArn()] },
  openapi: {},
  docs: {},
  'docs-asset': {},
  'dispatch-runs': {
    'dynamodb:BatchGetItem': [tableArn()],
    'dynamodb:PutItem': [tableArn()],
    'dynamodb:UpdateItem': [tableArn()],
    'dynamodb:Query': [tableArn(), indexArn('gsi3')],
  },
  'deliver-runs': {
    'dynamodb:BatchGetItem': [tableArn()],
    'dynamodb:GetItem': [tableArn()],
    'dynamodb:UpdateItem': [tableArn()],
    'dynamodb:Query': [tableArn(), indexArn('gsi3')],
  },
});

/** Every function: the routes' and the jobs'. */
const functionIds = [...routes.map((route) => route.id), ...jobs.map((job) => job.id)];
/** The functions that make runs, and so may send them to the delivery queue (the deliverer re-queues retries). */
const QUEUE_SENDERS = ['start-run', 'report-meeting', 'dispatch-runs', 'deliver-runs'];
const queueArn = () => {
  const [queueId] =
    Object.entries(resourcesOf(template, 'AWS::SQS::Queue')).find(([, queue]) => queue.Properties?.RedrivePolicy) ?? [];
  return { 'Fn::GetAtt': [queueId, 'Arn'] };
};

describe('least privilege, per function', () => {
  test('every function has its pinned DynamoDB actions, and the maps in lib/ agree', () => {
    const expected = expectedGrants();
    expect(Object.keys(expected).sort()).toEqual([...functionIds].sort());
    const declared = { ...ROUTE_TABLE_ACTIONS, ...JOB_TABLE_ACTIONS };
    for (const id of functionIds) expect([...(declared[id] ?? [])].sort()).toEqual(Object.keys(expected[id]!).sort());
  });

  test.each(functionIds.map((id) => [id] as const))('%s: exactly its DynamoDB actions, on exactly its resources', (routeId) => {
    const actual = grants(routeId, 'dynamodb');
    for (const resources of Object.values(actual)) resources.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    const expected = expectedGrants()[routeId]!;
    for (const resources of Object.values(expected)) resources.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    expect(actual).toEqual(expected);
  });

  test.each(functionIds.map((id) => [id] as const))('%s: its own log group, and the queue only if it makes runs', (routeId) => {
    const fn = resourcesOf(template, 'AWS::Lambda::Function')[functionLogicalId(routeId)]!;
    const logGroupId = fn.Properties?.LoggingConfig.LogGroup.Ref as string;
    expect(grants(routeId, 'logs')).toEqual({
      'logs:CreateLogStream': [{ 'Fn::GetAtt': [logGroupId, 'Arn'] }],
      'logs:PutLogEvents': [{ 'Fn::GetAtt': [logGroupId, 'Arn'] }],
    });
    const services = new Set(
      statementsOf(routeId).flatMap((statement) => list(statement.Action).map((action) => action.split(':')[0])),
    );
    const sends = QUEUE_SENDERS.includes(routeId);
    const usesTable = Object.keys(expectedGrants()[routeId]!).length > 0;
    expect([...services].sort()).toEqual([...(usesTable ? ['dynamodb'] : []), 'logs', ...(sends ? ['sqs'] : [])]);
    if (sends) {
      const sqs = grants(routeId, 'sqs');
      const sendActions = Object.keys(sqs).filter((action) => action.startsWith('sqs:Send'));
      expect(sendActions.length).toBeGreaterThan(0);
      for (const action of sendActions) expect(sqs[action]).toEqual([queueArn()]);
    }
  });

  test('no wildcard anywhere: no action with *, no Resource *, no managed policies', () => {
    for (const policy of Object.values(resourcesOf(template, 'AWS::IAM::Policy'))) {
      for (const statement of (policy.Properties?.PolicyDocument.Statement ?? []) as Statement[]) {
        for (const action of list(statement.Action)) expect(action).not.toContain('*');
        expect(JSON.stringify(statement.Resource)).not.toMatch(/"\*"|\/\*"/);
      }
    }
    for (const role of Object.values(resourcesOf(template, 'AWS::IAM::Role'))) {
      expect(role.Properties?.ManagedPolicyArns).toBeUndefined();
      expect(role.Properties?.AssumeRolePolicyDocument.Statement).toEqual([
        { Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' } },
      ]);
    }
  });

  test('each function has a role of its own', () => {
    const roles = Object.values(resourcesOf(template, 'AWS::Lambda::Function')).map((fn) => fn.Properties?.Role['Fn::GetAtt'][0]);
    expect(new Set(roles).size).toBe(functionIds.length);
  });
});
