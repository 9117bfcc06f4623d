import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { basename, join, relative } from 'node:path';
import { ROUTE_TABLE_ACCESS } from '../../lib/functions.js';
import { JOB_TABLE_ACCESS } from '../../lib/runs.js';
import { inScope, type KeyScope, type QueryTarget, queryTargetsOf, type TableAccess } from '../../lib/table-access.js';
import {
  type InvokeEnvironment,
  invokeFile,
  listEventFiles,
  PROJECT_ROOT,
  startInvokeEnvironment,
} from '../../scripts/invoke-core.js';
import { type RecordedCall, type RecordingProxy, startRecordingProxy } from '../support/recording-proxy.js';
import { testTmpDir } from '../support/tmp.js';

/**
 * The IAM grants (lib/functions.ts, lib/runs.ts: actions limited to key prefixes or patterns
 * by `dynamodb:LeadingKeys`, Query to named indexes or, on the table itself, to the partitions
 * of a pattern) are checked against what each function
 * really sends, for every event in events/: a call outside its grant would be AccessDenied
 * when deployed, so a repository change that needs a new grant fails here, not in production.
 */
const files = await listEventFiles();
const GRANTS: Record<string, TableAccess> = { ...ROUTE_TABLE_ACCESS, ...JOB_TABLE_ACCESS };

type AttributeValue = { S?: string };
type Keyed = Record<string, AttributeValue>;

/** The partition key a Query of the table itself reads: the value `pk = :value` names. */
const queriedPartition = (body: { KeyConditionExpression?: string; ExpressionAttributeValues?: Keyed }): string => {
  const placeholder = /(?:^|\s|\()pk\s*=\s*(:\w+)/.exec(body.KeyConditionExpression ?? '')?.[1];
  return (placeholder && body.ExpressionAttributeValues?.[placeholder]?.S) || '(the table itself)';
};

/** The partition keys a call addresses, or the index a Query reads (`table:<pk>` for the table itself). */
const targetsOf = (call: RecordedCall): string[] => {
  const body = call.body as {
    Key?: Keyed;
    Item?: Keyed;
    IndexName?: string;
    KeyConditionExpression?: string;
    ExpressionAttributeValues?: Keyed;
    RequestItems?: Record<string, { Keys?: Keyed[] } | { PutRequest?: { Item: Keyed }; DeleteRequest?: { Key: Keyed } }[]>;
  };
  if (call.operation === 'Query') return [body.IndexName ?? `table:${queriedPartition(body)}`];
  if (body.Key) return [body.Key.pk?.S ?? ''];
  if (body.Item) return [body.Item.pk?.S ?? ''];
  return Object.values(body.RequestItems ?? {}).flatMap((request) =>
    Array.isArray(request)
      ? request.map((write) => (write.PutRequest?.Item ?? write.DeleteRequest?.Key)?.pk?.S ?? '')
      : (request.Keys ?? []).map((keys) => keys.pk?.S ?? ''),
  );
};

/** What of a call its grant does not allow; empty when all of it is allowed. */
const outsideGrant = (grant: TableAccess, call: RecordedCall): string[] => {
  const allowed = (grant as Record<string, readonly string[] | undefined>)[`dynamodb:${call.operation}`];
  if (!allowed) return [`dynamodb:${call.operation}`];
  const queryAllowed = (target: string): boolean => {
    if (!target.startsWith('table:')) return allowed.includes(target);
    const { partitions } = queryTargetsOf(allowed as readonly QueryTarget[]);
    return partitions.some((pattern) => inScope(pattern, target.slice('table:'.length)));
  };
  return targetsOf(call)
    .filter((target) =>
      call.operation === 'Query' ? !queryAllowed(target) : !allowed.some((scope) => inScope(scope as KeyScope, target)),
    )
    .map(
      (target) =>
        `dynamodb:${call.operation} on ${call.operation === 'Query' ? target : target.slice(0, target.indexOf('#') + 1)}`,
    );
};

test('a Query of the table itself is within a grant only in the partitions of its pattern', () => {
  const query = (pk: string, index?: string): RecordedCall =>
    ({
      operation: 'Query',
      body: {
        ...(index ? { IndexName: index } : {}),
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': { S: pk } },
      },
    }) as unknown as RecordedCall;
  const audit = GRANTS['admin-audit-events'] ?? {};
  expect(outsideGrant(audit, query('ORG#acme#AUDIT'))).toEqual([]);
  expect(outsideGrant(audit, query('ORG#acme'))).toEqual(['dynamodb:Query on table:ORG#acme']);
  expect(outsideGrant(audit, query('CLIENT#abc'))).toEqual(['dynamodb:Query on table:CLIENT#abc']);
  expect(outsideGrant(GRANTS['list-knaps'] ?? {}, query('ORG#acme#AUDIT'))).toEqual(['dynamodb:Query on table:ORG#acme#AUDIT']);
  expect(outsideGrant(GRANTS['admin-list-runs'] ?? {}, query('ORG#acme#RUNS', 'gsi2'))).toEqual([]);
});

test('audit writes are within an admin grant; a Knap write is not', () => {
  const put = (pk: string): RecordedCall =>
    ({ operation: 'PutItem', body: { Item: { pk: { S: pk }, sk: { S: 'x' } } } }) as unknown as RecordedCall;
  const grant = GRANTS['admin-create-client'] ?? {};
  expect(outsideGrant(grant, put('ORG#acme#AUDIT'))).toEqual([]);
  expect(outsideGrant(grant, put('CLIENT#abc'))).toEqual([]);
  expect(outsideGrant(grant, put('ORG#acme'))).toEqual(['dynamodb:PutItem on ORG#']);
});

let env: InvokeEnvironment;
let proxy: RecordingProxy;
beforeAll(async () => {
  if (process.env.TEST_DYNAMODB_ENDPOINT) process.env.DYNAMODB_ENDPOINT = process.env.TEST_DYNAMODB_ENDPOINT;
  else delete process.env.DYNAMODB_ENDPOINT;
  env = await startInvokeEnvironment({ tableName: `knap-access-${randomBytes(4).toString('hex')}` });
  // The functions (loaded on first use) go through the proxy; the environment's own resets do not.
  proxy = await startRecordingProxy(env.endpoint);
  process.env.DYNAMODB_ENDPOINT = proxy.endpoint;
});
afterAll(async () => {
  await env?.close();
  await proxy?.close();
});

test('every function has a grant', () => {
  expect([...new Set(files.map(({ functionId }) => functionId))].filter((id) => !GRANTS[id])).toEqual([]);
});

test('the proxy sees what a function sends: a listing is the token read, the client check and two index queries', async () => {
  proxy.take();
  await invokeFile(env, 'list-knaps', `${PROJECT_ROOT}/events/list-knaps/200-list.json`);
  const calls = proxy.take();
  // The fixture tokens are of the stored format (scripts/fixtures.ts), hence the GetItem.
  expect(calls.map((call) => call.operation).sort()).toEqual(['GetItem', 'Query', 'Query', 'UpdateItem']);
  expect(outsideGrant({ 'dynamodb:Query': ['gsi1'] }, calls.find((call) => call.operation === 'UpdateItem')!)).toEqual([
    'dynamodb:UpdateItem',
  ]);
  expect(calls.flatMap((call) => outsideGrant(GRANTS.token!, call))).toContain('dynamodb:Query');
});

/** An event file like `file` with its form body's field replaced, written to the run's temp folder. */
const withFormField = async (file: string, field: string, value: string): Promise<string> => {
  const event = JSON.parse(await readFile(file, 'utf8')) as { body: string; isBase64Encoded: boolean };
  const form = new URLSearchParams(Buffer.from(event.body, event.isBase64Encoded ? 'base64' : 'utf8').toString('utf8'));
  form.set(field, value);
  const changed = join(testTmpDir(), `table-access-${randomBytes(4).toString('hex')}.json`);
  await writeFile(
    changed,
    JSON.stringify({ ...event, body: Buffer.from(form.toString()).toString('base64'), isBase64Encoded: true }),
  );
  return changed;
};

test('sealed tokens, which the fixtures do not hold, stay within the grants too: refresh, introspect, revoke', async () => {
  const granted = await invokeFile(env, 'token', `${PROJECT_ROOT}/events/token/200-client-credentials.json`);
  const { access_token: access, refresh_token: refresh } = JSON.parse(
    String((granted.result as { body: string }).body),
  ) as Record<string, string>;
  const steps: [string, string][] = [
    ['token', await withFormField(`${PROJECT_ROOT}/events/token/200-refresh-token.json`, 'refresh_token', refresh as string)],
    [
      'introspect-token',
      await withFormField(`${PROJECT_ROOT}/events/introspect-token/200-active.json`, 'token', refresh as string),
    ],
    [
      'revoke-token',
      await withFormField(`${PROJECT_ROOT}/events/revoke-token/200-unknown-token.json`, 'token', refresh as string),
    ],
    [
      'revoke-token',
      await withFormField(`${PROJECT_ROOT}/events/revoke-token/200-unknown-token.json`, 'token', access as string),
    ],
  ];
  for (const [functionId, file] of steps) {
    proxy.take();
    await invokeFile(env, functionId, file);
    const calls = proxy.take();
    expect(calls.length).toBeGreaterThan(0);
    expect(calls.flatMap((call) => outsideGrant(GRANTS[functionId] ?? {}, call))).toEqual([]);
  }
});

test.each(files.map(({ functionId, file }) => [relative(PROJECT_ROOT, file), functionId, file]))(
  '%s stays within its function’s grant',
  async (_name, functionId, file) => {
    proxy.take();
    await invokeFile(env, functionId, file);
    const calls = proxy.take();
    const grant = GRANTS[functionId] ?? {};
    expect(calls.flatMap((call) => outsideGrant(grant, call))).toEqual([]);
    // A success of a function with a grant reached the table: the check above was not vacuous.
    if (/^2\d\d-/.test(basename(file)) && Object.keys(grant).length > 0) expect(calls.length).toBeGreaterThan(0);
  },
);
