/**
 * Regression tests for inputs that used to give a 500, a wrong answer or a silent change:
 * each one failed before the fix it names.
 */
import { request as httpRequest } from 'node:http';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { createDocumentClient } from '../../shared/store/dynamo-client.js';
import { key } from '../../shared/store/keys.js';
import { bearer, createKnap, getToken, listKnaps, startTestApi, type TestApi } from '../support/api.js';
import { body as json } from '../support/json.js';

let api: TestApi;
let token: string;
beforeAll(async () => {
  api = await startTestApi();
  ({ access_token: token } = await getToken(api.url, await api.newClient({ orgName: 'hard', rateLimit: 10_000 })));
});
afterAll(() => api.close());

/** Sends raw bytes, headers exactly as given (repeated names allowed). */
const raw = (path: string, method: string, headers: [string, string][], body?: Buffer | string) =>
  new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }>((resolve, reject) => {
    const url = new URL(path, api.url);
    const request = httpRequest({ host: url.hostname, port: url.port, path: url.pathname + url.search, method });
    for (const [name, value] of headers) request.appendHeader(name, value);
    request.on('response', (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    request.on('error', reject);
    request.end(body);
  });

const storedItem = async (uuid: string) => {
  const documents = createDocumentClient({ endpoint: api.table.endpoint });
  try {
    const result = await documents.send(new GetCommand({ TableName: api.table.tableName, Key: key.knap('hard', uuid) }));
    return result.Item;
  } finally {
    documents.destroy();
  }
};

describe('big numbers in tool_metadata are stored exactly (used to be a 500 on every retry)', () => {
  test.each([
    ['9007199254740993', '{"external_id":9007199254740993}'],
    ['1e20', '{"external_id":1e20}'],
    ['-9007199254740992', '{"external_id":-9007199254740992}'],
    ['12345678901234567890', '{"external_id":12345678901234567890}'],
    ['a 30-digit decimal', '{"external_id":0.123456789012345678901234567891}'],
  ])('%s comes back digit for digit, on create and on list', async (_label, metadata) => {
    const response = await createKnap(api.url, token, `{"name":"crm","tool_metadata":${metadata}}`);
    expect(response.status).toBe(201);
    const text = await response.text();
    expect(text).toContain(`"tool_metadata":${metadata}`);
    const { uuid } = JSON.parse(text) as { uuid: string };
    const listed = await (await listKnaps(api.url, token, '?limit=100')).text();
    expect(listed).toContain(`"uuid":"${uuid}"`);
    expect(listed).toContain(metadata);
  });

  test('ordinary numbers stay numbers', async () => {
    const response = await createKnap(api.url, token, { name: 'n', tool_metadata: { count: 3, ratio: 0.25, big: 2 ** 53 - 1 } });
    expect((await json(response)).tool_metadata).toEqual({ count: 3, ratio: 0.25, big: 2 ** 53 - 1 });
  });

  test('a Knap stored before, with tool_metadata as a map, still reads', async () => {
    const response = await createKnap(api.url, token, { name: 'old shape', tool_metadata: { action_description: 'x', n: 1 } });
    const { uuid } = (await json(response)) as { uuid: string };
    const item = await storedItem(uuid);
    expect(typeof item?.tool_metadata).toBe('string');
    // Rewrite the item as the previous version stored it.
    const documents = createDocumentClient({ endpoint: api.table.endpoint });
    const { PutCommand } = await import('@aws-sdk/lib-dynamodb');
    await documents.send(
      new PutCommand({ TableName: api.table.tableName, Item: { ...item, tool_metadata: { action_description: 'x', n: 1 } } }),
    );
    documents.destroy();
    const listed = (await json(await listKnaps(api.url, token, '?limit=100'))) as {
      my_knaps: { uuid: string; tool_metadata: unknown }[];
    };
    expect(listed.my_knaps.find((knap) => knap.uuid === uuid)?.tool_metadata).toEqual({ action_description: 'x', n: 1 });
  });
});

describe('edited paging cursors are a 400, never a 500', () => {
  let cursor: string;
  beforeAll(async () => {
    for (let i = 0; i < 3; i += 1) await createKnap(api.url, token, { name: `page ${i}`, visibility: 'hard' });
    const page = (await json(await listKnaps(api.url, token, '?limit=1'))) as { next_cursor: string };
    cursor = page.next_cursor;
    expect(cursor).toEqual(expect.any(String));
  });

  const edit = (change: (inner: Record<string, unknown>) => Record<string, unknown>, which: 'mine' | 'shared' = 'mine') => {
    const outer = JSON.parse(Buffer.from(cursor, 'base64url').toString()) as Record<string, string>;
    const inner = JSON.parse(Buffer.from(outer[which] as string, 'base64url').toString()) as Record<string, unknown>;
    outer[which] = Buffer.from(JSON.stringify(change(inner))).toString('base64url');
    return Buffer.from(JSON.stringify(outer)).toString('base64url');
  };

  test.each<[string, (inner: Record<string, unknown>) => Record<string, unknown>]>([
    ['an extra attribute', (inner) => ({ ...inner, extra: 'x' })],
    ['sk removed', ({ sk: _sk, ...inner }) => inner],
    ['only the index partition left', (inner) => ({ gsi1pk: inner.gsi1pk })],
    ['an empty key value', (inner) => ({ ...inner, sk: '' })],
    ['a number for a key', (inner) => ({ ...inner, gsi1sk: 5 })],
    ['another partition', (inner) => ({ ...inner, gsi1pk: 'CREATOR#someone-else' })],
  ])('%s', async (_label, change) => {
    const response = await listKnaps(api.url, token, `?cursor=${edit(change)}`);
    expect(response.status).toBe(400);
    expect(await json(response)).toEqual({ detail: expect.stringMatching(/cursor/) });
    expect(api.deps.log.lines.filter((line) => line.level === 'error')).toEqual([]);
  });

  test('the shared listing cursor is checked the same way', async () => {
    const response = await listKnaps(api.url, token, `?cursor=${edit(({ sk: _sk, ...inner }) => inner, 'shared')}`);
    expect(response.status).toBe(400);
  });

  test('the cursor as issued still pages', async () => {
    expect((await listKnaps(api.url, token, `?limit=1&cursor=${cursor}`)).status).toBe(200);
  });
});

describe('authentication comes before the body', () => {
  const post = (headers: [string, string][], body: Buffer | string) => raw('/api/studio/knap-tools', 'POST', headers, body);

  test.each<[string, [string, string][], Buffer | string]>([
    ['malformed JSON', [['content-type', 'application/json']], '{"name":'],
    ['text/plain', [['content-type', 'text/plain']], 'hello'],
    ['a 1.1 MB body', [['content-type', 'application/json']], `{"name":"${'x'.repeat(1_100_000)}"}`],
    ['a non-UTF-8 charset', [['content-type', 'application/json; charset=iso-8859-1']], Buffer.from([0x7b, 0xe9, 0x7d])],
  ])('no token and %s: 401', async (_label, headers, body) => {
    const response = await post(headers, body);
    expect(response.status).toBe(401);
    expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  test.each<[string, number, [string, string][], Buffer | string]>([
    ['malformed JSON', 400, [['content-type', 'application/json']], '{"name":'],
    ['text/plain', 415, [['content-type', 'text/plain']], 'hello'],
    ['a 1.1 MB body', 413, [['content-type', 'application/json']], `{"name":"${'x'.repeat(1_100_000)}"}`],
  ])('a valid token and %s: %d with the RateLimit headers, counted', async (_label, status, headers, body) => {
    const before = await post([['authorization', `Bearer ${token}`], ...headers], body);
    const after = await post([['authorization', `Bearer ${token}`], ...headers], body);
    for (const response of [before, after]) {
      expect(response.status).toBe(status);
      expect(JSON.parse(response.body)).toEqual({ detail: expect.any(String) });
      expect(response.headers['ratelimit-limit']).toBe('10000');
    }
    expect(Number(after.headers['ratelimit-remaining'])).toBe(Number(before.headers['ratelimit-remaining']) - 1);
  });
});

describe('charsets: only UTF-8, never a U+FFFD the client did not send', () => {
  const latin1Cafe = Buffer.concat([Buffer.from('{"name":"Caf'), Buffer.from([0xe9]), Buffer.from('"}')]);

  test('a declared charset other than UTF-8 is a 415', async () => {
    const response = await raw(
      '/api/studio/knap-tools',
      'POST',
      [
        ['authorization', `Bearer ${token}`],
        ['content-type', 'application/json; charset=iso-8859-1'],
      ],
      latin1Cafe,
    );
    expect(response.status).toBe(415);
    expect(JSON.parse(response.body).detail).toMatch(/UTF-8/);
  });

  test('invalid UTF-8 is a 400 and nothing is stored', async () => {
    const before = (await json(await listKnaps(api.url, token, '?limit=100'))) as { my_knaps: unknown[] };
    const response = await raw(
      '/api/studio/knap-tools',
      'POST',
      [
        ['authorization', `Bearer ${token}`],
        ['content-type', 'application/json'],
      ],
      latin1Cafe,
    );
    expect(response.status).toBe(400);
    expect(JSON.parse(response.body).detail).toMatch(/UTF-8/);
    const after = (await json(await listKnaps(api.url, token, '?limit=100'))) as { my_knaps: unknown[] };
    expect(after.my_knaps.length).toBe(before.my_knaps.length);
  });

  test('charset=utf-8 (any case, quoted) is accepted and the text kept', async () => {
    const response = await raw(
      '/api/studio/knap-tools',
      'POST',
      [
        ['authorization', `Bearer ${token}`],
        ['content-type', 'application/json; charset="UTF-8"'],
      ],
      Buffer.from('{"name":"Café ☕"}'),
    );
    expect(response.status).toBe(201);
    expect(JSON.parse(response.body).name).toBe('Café ☕');
  });

  test('the token endpoint refuses a latin-1 form (415) and invalid percent-encoded UTF-8 (400)', async () => {
    const latin1 = await raw(
      '/api/oauth/token',
      'POST',
      [['content-type', 'application/x-www-form-urlencoded; charset=iso-8859-1']],
      'grant_type=client_credentials&client_id=x&client_secret=y',
    );
    expect(latin1.status).toBe(415);
    const badUtf8 = await raw(
      '/api/oauth/token',
      'POST',
      [['content-type', 'application/x-www-form-urlencoded']],
      'grant_type=client_credentials&client_id=%E9&client_secret=y',
    );
    expect(badUtf8.status).toBe(400);
    expect(JSON.parse(badUtf8.body).detail).toMatch(/form/);
  });
});

describe('repeated Authorization headers are joined, as API Gateway does', () => {
  test('valid then garbage: 401 on a bearer route', async () => {
    const response = await raw('/api/studio/knap-tools', 'GET', [
      ['authorization', `Bearer ${token}`],
      ['authorization', 'garbage'],
    ]);
    expect(response.status).toBe(401);
  });

  test('garbage then valid: 401 too', async () => {
    const response = await raw('/api/studio/knap-tools', 'GET', [
      ['authorization', 'Bearer knap_at_garbage'],
      ['authorization', `Bearer ${token}`],
    ]);
    expect(response.status).toBe(401);
  });

  test('one valid header still works', async () => {
    const response = await fetch(`${api.url}/api/studio/knap-tools`, { headers: bearer(token) });
    expect(response.status).toBe(200);
  });
});
