/**
 * `create-admin --user-pool`: the admin made in Cognito, as the deployed console signs them in.
 * No Cognito runs locally, so a stand-in speaks its JSON protocol (the AWS SDK's own client
 * calls it, as it would the service) and records what it was asked; it answers as Cognito does
 * for a group that exists and a user that exists. The audit event goes to the real test table.
 */
import { once } from 'node:events';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CognitoIdentityProviderClient } from '@aws-sdk/client-cognito-identity-provider';
import { runAdmin } from '../../local/admin-cli.js';
import { startTestTable, type TestTable } from '../support/dynamo.js';

let table: TestTable;
let server: Server;
let endpoint: string;
const calls: { action: string; body: Record<string, unknown> }[] = [];
const groups = new Set<string>();
const users = new Set<string>();

beforeAll(async () => {
  table = await startTestTable();
  server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const action = String(request.headers['x-amz-target']).split('.')[1] ?? '';
      const body = JSON.parse(Buffer.concat(chunks).toString() || '{}') as Record<string, unknown>;
      calls.push({ action, body });
      const fail = (type: string) => {
        response.writeHead(400, { 'content-type': 'application/x-amz-json-1.1' });
        response.end(JSON.stringify({ __type: type, message: `${type} (stand-in)` }));
      };
      if (action === 'CreateGroup') {
        if (groups.has(String(body.GroupName))) return fail('GroupExistsException');
        groups.add(String(body.GroupName));
      }
      if (action === 'AdminCreateUser') {
        if (users.has(String(body.Username))) return fail('UsernameExistsException');
        users.add(String(body.Username));
      }
      response.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' });
      response.end(action === 'AdminCreateUser' ? JSON.stringify({ User: { Username: body.Username } }) : '{}');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.close();
  await table.close();
});

const cognito = () =>
  new CognitoIdentityProviderClient({ endpoint, region: 'eu-west-1', credentials: { accessKeyId: 'x', secretAccessKey: 'y' } });

const admin = async (...argv: string[]) => {
  const out: string[] = [];
  const err: string[] = [];
  const status = await runAdmin(argv, () => table.deps(), { out: (l) => out.push(l), err: (l) => err.push(l) }, { cognito });
  return { status, out: out.join('\n'), err: err.join('\n') };
};

const POOL = 'eu-west-1_AbCdEf123';

test('makes the group (once), the user with a verified e-mail, puts them in it, and audits it', async () => {
  const made = await admin('create-admin', '--user-pool', POOL, '--org', 'acme', '--email', 'Ada@Acme.example', '--json');
  expect(made).toMatchObject({ status: 0, err: '' });
  expect(JSON.parse(made.out)).toEqual({ email: 'ada@acme.example', org: 'acme', password: null, user_pool: POOL });
  expect(calls.map((call) => call.action)).toEqual(['CreateGroup', 'AdminCreateUser', 'AdminAddUserToGroup']);
  expect(calls[1]?.body).toEqual({
    UserPoolId: POOL,
    Username: 'ada@acme.example',
    UserAttributes: [
      { Name: 'email', Value: 'ada@acme.example' },
      { Name: 'email_verified', Value: 'true' },
    ],
    DesiredDeliveryMediums: ['EMAIL'],
  });
  expect(calls[2]?.body).toEqual({ UserPoolId: POOL, Username: 'ada@acme.example', GroupName: 'acme' });
  const { events } = await table.deps().repo.listAuditEvents('acme', { limit: 5 });
  expect(events.map(({ actor, action, target }) => ({ actor, action, target }))).toEqual([
    { actor: 'cli', action: 'admin.create', target: { type: 'admin', id: 'ada@acme.example' } },
  ]);

  // A second admin of the same organization: the group exists, which is fine; a temporary
  // password given is set and nothing is e-mailed.
  calls.length = 0;
  const second = await admin(
    'create-admin',
    '--user-pool',
    POOL,
    '--org',
    'acme',
    '--email',
    'bob@acme.example',
    '--password',
    'Temp-Passw0rd!x',
  );
  expect(second.status).toBe(0);
  expect(second.out).toContain('Nothing was e-mailed');
  expect(calls.map((call) => call.action)).toEqual(['CreateGroup', 'AdminCreateUser', 'AdminAddUserToGroup']);
  expect(calls[1]?.body).toMatchObject({ TemporaryPassword: 'Temp-Passw0rd!x', MessageAction: 'SUPPRESS' });
});

test('an existing user, a bad organization or e-mail: one line, exit 2, nothing added to a group', async () => {
  calls.length = 0;
  const again = await admin('create-admin', '--user-pool', POOL, '--org', 'acme', '--email', 'ada@acme.example');
  expect(again).toMatchObject({ status: 2, err: `error: An admin with e-mail ada@acme.example exists already in ${POOL}` });
  expect(calls.map((call) => call.action)).not.toContain('AdminAddUserToGroup');
  calls.length = 0;
  expect((await admin('create-admin', '--user-pool', POOL, '--org', 'no#hash', '--email', 'x@y.example')).status).toBe(2);
  expect((await admin('create-admin', '--user-pool', POOL, '--org', 'acme', '--email', 'not-an-email')).status).toBe(2);
  expect(calls).toEqual([]);
});
