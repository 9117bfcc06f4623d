import { Webhook } from 'standardwebhooks';
import { runAdmin } from '../../local/admin-cli.js';
import { bearer, createKnap, getToken, startTestApi, type TestApi } from '../support/api.js';
import { type Receiver, startReceiver, waitFor } from '../support/deliveries.js';

/** The webhook commands of the admin CLI, in this process over the test table, and a run delivered end to end. */
let api: TestApi;
let target: Receiver;
beforeAll(async () => {
  api = await startTestApi({ deliveries: {} });
  target = await startReceiver();
});
afterAll(async () => {
  await api.close();
  await target.close();
});

const admin = async (argv: string[], allowLocalhost = true) => {
  const out: string[] = [];
  const err: string[] = [];
  const status = await runAdmin(
    argv,
    () => api.deps,
    { out: (line) => out.push(line), err: (line) => err.push(line) },
    {
      allowLocalhost,
    },
  );
  return { status, out: out.join('\n'), err: err.join('\n') };
};

interface EndpointJson {
  endpoint_id: string;
  org_name: string;
  url: string;
  created_at: string;
  secret?: string;
}

describe('admin CLI: webhooks', () => {
  test('add-webhook prints the whsec_ secret once; list-webhooks never shows it; remove-webhook removes', async () => {
    const added = await admin(['add-webhook', '--org', 'hooks-org', '--url', target.url, '--json']);
    expect(added).toMatchObject({ status: 0, err: '' });
    const endpoint = JSON.parse(added.out) as EndpointJson;
    expect(endpoint).toEqual({
      endpoint_id: expect.stringMatching(/^we_[0-9a-f]{24}$/),
      org_name: 'hooks-org',
      url: target.url,
      created_at: expect.stringMatching(/Z$/),
      event_types: null,
      description: null,
      disabled: false,
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{43}=$/),
    });
    expect(Buffer.from((endpoint.secret as string).slice('whsec_'.length), 'base64')).toHaveLength(32);

    const human = await admin(['add-webhook', '--org', 'hooks-org', '--url', 'https://hooks.example.com/knap?team=7']);
    expect(human.status).toBe(0);
    expect(human.out).toMatch(/^Added webhook endpoint for organization hooks-org$/m);
    expect(human.out).toMatch(/Secret\s+whsec_/);
    expect(human.out).toMatch(/shown only this once/);

    const listed = await admin(['list-webhooks', '--org', 'hooks-org', '--json']);
    expect(listed.status).toBe(0);
    const endpoints = JSON.parse(listed.out) as EndpointJson[];
    expect(endpoints.map((e) => e.url).sort()).toEqual([target.url, 'https://hooks.example.com/knap?team=7'].sort());
    const { secret: _shownOnce, ...summary } = endpoint;
    expect(endpoints.find((e) => e.endpoint_id === endpoint.endpoint_id)).toEqual(summary);
    const table = (await admin(['list-webhooks', '--org', 'hooks-org'])).out;
    expect(table.split('\n')[0]).toMatch(/^ENDPOINT ID\s+URL\s+EVENT TYPES\s+STATE\s+DESCRIPTION\s+CREATED$/);
    for (const text of [listed.out, table]) {
      expect(text).not.toContain(endpoint.secret);
      expect(text).not.toMatch(/whsec_|secret/i);
    }
    expect((await admin(['list-webhooks', '--org', 'nobody-here'])).out).toBe('No webhook endpoints in organization nobody-here');
    expect((await admin(['list-webhooks', '--org', 'nobody-here', '--json'])).out).toBe('[]');

    const removed = await admin(['remove-webhook', endpoint.endpoint_id]);
    expect(removed).toEqual({
      status: 0,
      out: `Removed webhook endpoint ${endpoint.endpoint_id}. No later delivery goes to it.`,
      err: '',
    });
    const after = JSON.parse((await admin(['list-webhooks', '--org', 'hooks-org', '--json'])).out) as EndpointJson[];
    expect(after.map((e) => e.endpoint_id)).not.toContain(endpoint.endpoint_id);
  });

  test('add-webhook --event-types a,b --description: stored and listed; an unknown type exits 2', async () => {
    const added = await admin([
      'add-webhook',
      '--org',
      'typed-org',
      '--url',
      target.url,
      '--event-types',
      'knap.run.failed, knap.run',
      '--description',
      'Failures',
      '--json',
    ]);
    expect(added.status).toBe(0);
    expect(JSON.parse(added.out)).toMatchObject({ event_types: ['knap.run.failed', 'knap.run'], description: 'Failures' });
    const table = (await admin(['list-webhooks', '--org', 'typed-org'])).out;
    expect(table).toMatch(/knap\.run\.failed,knap\.run\s+enabled\s+Failures/);
    const refused = await admin(['add-webhook', '--org', 'typed-org', '--url', target.url, '--event-types', 'knap.run,nope']);
    expect(refused.status).toBe(2);
    expect(refused.err).toMatch(/--event-types must list some of knap\.run, .*not "nope"/);
    expect(JSON.parse((await admin(['list-webhooks', '--org', 'typed-org', '--json'])).out)).toHaveLength(1);
  });

  test('remove-webhook with an unknown id: one line on stderr, exit 2', async () => {
    expect(await admin(['remove-webhook', 'we_000000000000000000000000'])).toEqual({
      status: 2,
      out: '',
      err: 'error: No webhook endpoint with id we_000000000000000000000000',
    });
    expect(await admin(['remove-webhook'])).toEqual({ status: 2, out: '', err: 'error: Missing ENDPOINT_ID' });
  });

  test.each([
    [['add-webhook', '--org', 'o'], 'error: Missing --url'],
    [['add-webhook', '--url', 'https://hooks.example.com/'], 'error: Missing --org'],
    [
      ['add-webhook', '--org', 'o', '--url', 'http://hooks.example.com/'],
      'error: The URL must be https (http only for http://127.0.0.1 and http://localhost)',
    ],
    [
      ['add-webhook', '--org', 'o', '--url', 'https://10.0.0.8/hook'],
      "error: The URL's host 10.0.0.8 is a private address; webhooks go to public addresses only",
    ],
    [
      ['add-webhook', '--org', 'o', '--url', 'https://169.254.169.254/latest'],
      "error: The URL's host 169.254.169.254 is a link-local address; webhooks go to public addresses only",
    ],
    [['add-webhook', '--org', 'o', '--url', 'nope'], 'error: Not a URL'],
  ])('add-webhook %j is refused: %s', async (argv, message) => {
    expect(await admin(argv)).toEqual({ status: 2, out: '', err: message });
  });

  test('http://127.0.0.1 and http://localhost only against a local DynamoDB', async () => {
    const deployed = await admin(['add-webhook', '--org', 'o', '--url', 'http://127.0.0.1:8080/hook'], false);
    expect(deployed).toEqual({
      status: 2,
      out: '',
      err: 'error: The URL must be https (http://127.0.0.1 and http://localhost only against a local DynamoDB)',
    });
    expect((await admin(['add-webhook', '--org', 'o', '--url', 'http://localhost:8080/hook'], true)).status).toBe(0);

    // Without the option, the CLI decides from DYNAMODB_ENDPOINT, as `npm run admin` does.
    const saved = process.env.DYNAMODB_ENDPOINT;
    try {
      const run = (url: string) =>
        runAdmin(['add-webhook', '--org', 'o', '--url', url], () => api.deps, { out: () => {}, err: () => {} });
      delete process.env.DYNAMODB_ENDPOINT;
      expect(await run('http://127.0.0.1:8080/hook')).toBe(2);
      process.env.DYNAMODB_ENDPOINT = api.table.endpoint;
      expect(await run('http://127.0.0.1:8080/hook')).toBe(0);
    } finally {
      if (saved === undefined) delete process.env.DYNAMODB_ENDPOINT;
      else process.env.DYNAMODB_ENDPOINT = saved;
    }
  });

  test('end to end: an endpoint added with the CLI gets a manual run, signed with the secret it printed', async () => {
    // Signatures carry the time of sending, and receivers check it against their own clock.
    api.clock.set(new Date());
    const receiver = await startReceiver();
    try {
      const added = JSON.parse(
        (await admin(['add-webhook', '--org', 'e2e-org', '--url', receiver.url, '--json'])).out,
      ) as EndpointJson;
      const token = (await getToken(api.url, await api.newClient({ orgName: 'e2e-org' }))).access_token;
      const created = await createKnap(api.url, token, { name: 'Webhook e2e' });
      expect(created.status).toBe(201);
      const { uuid } = (await created.json()) as { uuid: string };

      const started = await fetch(`${api.url}/api/studio/knap-tools/${uuid}/runs`, { method: 'POST', headers: bearer(token) });
      expect(started.status).toBe(202);
      const run = (await started.json()) as { run_id: string };

      const delivery = await waitFor('the delivery', () => receiver.received[0]);
      const payload = new Webhook(added.secret as string).verify(delivery.body, delivery.headers as Record<string, string>) as {
        type: string;
        data: { run: { run_id: string }; knap: { uuid: string } };
      };
      expect(payload.type).toBe('knap.run');
      expect(payload.data.run.run_id).toBe(run.run_id);
      expect(payload.data.knap.uuid).toBe(uuid);
      expect(delivery.headers['webhook-id']).toBe(run.run_id);

      const history = await waitFor('the run to be delivered', async () => {
        const response = await fetch(`${api.url}/api/studio/knap-tools/${uuid}/runs`, { headers: bearer(token) });
        const body = (await response.json()) as { runs: { run_id: string; status: string; attempts: number }[] };
        return body.runs[0]?.status === 'delivered' ? body.runs[0] : undefined;
      });
      expect(history).toMatchObject({ run_id: run.run_id, attempts: 1 });
    } finally {
      await receiver.close();
    }
  });

  test('rotate-webhook-secret prints the new secret once; test-webhook sends a webhook.test both secrets verify', async () => {
    const receiver = await startReceiver();
    try {
      const added = JSON.parse(
        (await admin(['add-webhook', '--org', 'rotate-org', '--url', receiver.url, '--json'])).out,
      ) as EndpointJson;
      const rotated = await admin(['rotate-webhook-secret', added.endpoint_id, '--json']);
      expect(rotated).toMatchObject({ status: 0, err: '' });
      const { secret } = JSON.parse(rotated.out) as { secret: string };
      expect(secret).toMatch(/^whsec_/);
      expect(secret).not.toBe(added.secret);

      const tested = await admin(['test-webhook', added.endpoint_id, '--json']);
      expect(tested.status).toBe(0);
      expect(JSON.parse(tested.out)).toEqual({
        endpoint_id: added.endpoint_id,
        response_status: 204,
        duration_ms: expect.any(Number),
        error: null,
      });
      const message = await waitFor('the test message', () => receiver.received[0]);
      expect(JSON.parse(message.body)).toMatchObject({ type: 'webhook.test', data: { endpoint_id: added.endpoint_id } });
      // The test API's clock is fixed (so verify()'s freshness check is not for here): each secret's signature is listed.
      const at = new Date(Number(message.headers['webhook-timestamp']) * 1000);
      const signatures = String(message.headers['webhook-signature']).split(' ');
      for (const key of [secret, added.secret as string]) {
        expect(signatures).toContain(new Webhook(key).sign(String(message.headers['webhook-id']), at, message.body));
      }

      const missing = await admin(['rotate-webhook-secret', 'we_000000000000000000000000']);
      expect(missing.status).not.toBe(0);
      expect(missing.err).toMatch(/No webhook endpoint with id we_000000000000000000000000/);
    } finally {
      await receiver.close();
    }
  });
});
