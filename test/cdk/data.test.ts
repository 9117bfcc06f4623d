import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { type RouteDefinition, routes } from '../../functions/routes.js';
import { NEW_TABLE_REFUSED, STATEFUL_LOGICAL_IDS } from '../../lib/data.js';
import { INDEXES } from '../../shared/store/table.js';
import { testTmpDir } from '../support/tmp.js';
import { buildApp } from './app.js';
import { resourcesOf, SYNTH_TIMEOUT_MS, synthesized } from './synth.js';

let dataTemplate: Template;
let outdir: string;
beforeAll(async () => {
  ({ dataTemplate, outdir } = await synthesized());
}, SYNTH_TIMEOUT_MS);

/**
 * The stateful resources, pinned literally: a change here means CloudFormation would replace
 * the resource (a new, empty table; new keys, which end every token; a new user pool, without
 * its admins). Never edit this list to make the test pass: keep the logical id instead.
 */
const PINNED = {
  KnapTable: 'AWS::DynamoDB::Table',
  TokenKeys: 'AWS::SecretsManager::Secret',
  AdminUserPool: 'AWS::Cognito::UserPool',
  AdminSignIn: 'AWS::Cognito::UserPoolDomain',
  Deliveries: 'AWS::SQS::Queue',
  DeliveryDeadLetters: 'AWS::SQS::Queue',
  // The dispatcher's shares of a busy minute: worthless after it (one-minute retention), so not retained.
  DispatchShares: 'AWS::SQS::Queue',
};

/**
 * The table's indexes as the last release deployed them. DynamoDB adds one global secondary
 * index per table update (CloudFormation fails a change that adds two): a release may add one
 * index after these, and must never change or drop one. Update this list once a release ships.
 */
const RELEASED_INDEXES = [
  { name: 'gsi1', partition: 'gsi1pk', sort: 'gsi1sk', projection: 'ALL' },
  { name: 'gsi2', partition: 'gsi2pk', sort: 'gsi2sk', projection: 'ALL' },
  { name: 'gsi3', partition: 'gsi3pk', sort: 'gsi3sk', projection: 'KEYS_ONLY' },
];

/** The two stacks built in this process, without bundling (CDK's own synthesis, no esbuild). */
const build = (context: Record<string, unknown> = {}, extraRoutes?: readonly RouteDefinition[]) => {
  const { stack, data } = buildApp({ context, routes: extraRoutes }, join(testTmpDir(), 'data-test'));
  return { api: Template.fromStack(stack), data: Template.fromStack(data) };
};

describe('the stateful stack, KnapData', () => {
  test('holds the table, the token keys, the user pool and its domain, the queues: their logical ids pinned', () => {
    const stateful = Object.fromEntries(
      Object.entries(dataTemplate.toJSON().Resources as Record<string, { Type: string }>)
        .filter(([, resource]) => Object.values(PINNED).includes(resource.Type))
        .map(([id, resource]) => [id, resource.Type]),
    );
    expect(stateful).toEqual(PINNED);
    expect(Object.values(STATEFUL_LOGICAL_IDS).sort()).toEqual(Object.keys(PINNED).sort());
  });

  test('every stateful resource is retained, whatever happens to the stack', () => {
    for (const id of ['KnapTable', 'TokenKeys', 'AdminUserPool', 'Deliveries', 'DeliveryDeadLetters']) {
      const resource = dataTemplate.toJSON().Resources[id];
      expect([id, resource.DeletionPolicy, resource.UpdateReplacePolicy]).toEqual([id, 'Retain', 'Retain']);
    }
    dataTemplate.hasResourceProperties('AWS::DynamoDB::Table', Match.objectLike({ DeletionProtectionEnabled: true }));
  });

  test('has termination protection; the stateless stack depends on it, holds none of it', () => {
    const manifest = JSON.parse(readFileSync(join(outdir, 'manifest.json'), 'utf8')) as {
      artifacts: Record<string, { properties?: { terminationProtection?: boolean }; dependencies?: string[] }>;
    };
    expect(manifest.artifacts.KnapData?.properties?.terminationProtection).toBe(true);
    expect(manifest.artifacts.KnapApi?.dependencies).toContain('KnapData');
    const { api } = build();
    for (const type of new Set(Object.values(PINNED))) api.resourceCountIs(type, 0);
  });

  test('synth refuses to make a table unless it is a fresh deployment, or told which table to adopt', () => {
    expect(() => build({ freshDeployment: false })).toThrow(NEW_TABLE_REFUSED);
    expect(NEW_TABLE_REFUSED).toMatch(/-c freshDeployment=true/);
    expect(NEW_TABLE_REFUSED).toMatch(/-c tableName=/);
    expect(() => build({ freshDeployment: true, tableName: 'knap-old' })).toThrow(/give one of them/);
  });

  test('adopting a table by name (a move from one stack, or a restore) makes none, and points every function at it', () => {
    const { api, data } = build({ tableName: 'KnapApi-DataTable-OLD123' });
    data.resourceCountIs('AWS::DynamoDB::Table', 0);
    const names = Object.values(resourcesOf(api, 'AWS::Lambda::Function'))
      .map((fn) => fn.Properties?.Environment?.Variables?.TABLE_NAME)
      .filter(Boolean);
    expect(names.length).toBeGreaterThan(0);
    for (const name of names) expect(JSON.stringify(name)).toMatch(/KnapApi-DataTable-OLD123|PublishOutput/);
  });

  test("the table's indexes: the last release's, unchanged and in order, and at most one more", () => {
    expect(INDEXES.slice(0, RELEASED_INDEXES.length)).toEqual(RELEASED_INDEXES);
    expect(INDEXES.length - RELEASED_INDEXES.length).toBeLessThanOrEqual(1);
    const deployed = (dataTemplate.toJSON().Resources.KnapTable.Properties.GlobalSecondaryIndexes as { IndexName: string }[]).map(
      (index) => index.IndexName,
    );
    expect(deployed).toEqual(INDEXES.map((index) => index.name));
  });
});

describe('room to grow: the stateless stack, KnapApi', () => {
  const resourceCount = (template: Template) => Object.keys(template.toJSON().Resources).length;

  test('at most 200 of CloudFormation 500 resources with every route', () => {
    expect(resourceCount(build().api)).toBeLessThanOrEqual(200);
  });

  test('20 more routes in the areas stay within 240: a route costs one API Gateway route', () => {
    const base = build().api;
    const extra = Array.from({ length: 20 }, (_, index): RouteDefinition => {
      const like = routes.filter((route) => route.fn !== 'token' && route.fn !== 'create-knap')[index % 20] as RouteDefinition;
      return { ...like, path: `${like.path.replace(/\/$/, '')}/extra-${index}` };
    });
    const grown = build({}, [...routes, ...extra]).api;
    expect(resourceCount(grown) - resourceCount(base)).toBe(20);
    expect(resourceCount(grown)).toBeLessThanOrEqual(240);
  });
});
