import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { ROUTE_TABLE_ACCESS } from '../../lib/functions.js';
import { JOB_TABLE_ACCESS } from '../../lib/runs.js';
import type { TableAccess } from '../../lib/table-access.js';
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
 * The IAM grants (lib/functions.ts, lib/runs.ts: actions limited to key prefixes by
 * `dynamodb:LeadingKeys`, Query to named indexes) are checked against what each function
 * really sends, for every event in events/: a call outside its grant would be AccessDenied
 * when deployed, so a repository change that needs a new grant fails here, not in production.
 */
const files = await listEventFiles();
const GRANTS: Record<string, TableAccess> = { ...ROUTE_TABLE_ACCESS, ...JOB_TABLE_ACCESS };

type AttributeValue = { S?: string };
type Keyed = Record<string, AttributeValue>;

/** The partition keys a call addresses, or the index a Query reads. */
const targetsOf = (call: RecordedCall): string[] => {
  const body = call.body as {
    Key?: Keyed;
    Item?: Keyed;
    IndexName?: string;
    RequestItems?: Record<string, { Keys?: Keyed[] } | { PutRequest?: { Item: Keyed }; DeleteRequest?: { Key: Keyed } }[]>;
  };
  if (call.operation === 'Query') return [body.IndexName ?? '(the table itself)'];
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
  return targetsOf(call)
    .filter((target) =>
      call.operation === 'Query' ? !allowed.includes(target) : !allowed.some((prefix) => target.startsWith(prefix)),
    )
    .map(
      (target) =>
        `dynamodb:${call.operation} on ${call.operation === 'Query' ? target : target.slice(0, target.indexOf('#') + 1)}`,
    );
};

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
  },
);
