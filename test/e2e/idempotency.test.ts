/** Idempotency-Key on POST /api/studio/knap-tools, as the contract's "One Knap" section fixes it. */
import { startApiServer } from '../../local/server.js';
import type { Repository } from '../../shared/domain/repository.js';
import { roundTrips } from '../../shared/store/dynamo-client.js';
import { createKnap, getToken, listKnaps, startTestApi, type TestApi } from '../support/api.js';
import { failingRepo, overriding } from '../support/failing-repo.js';
import { body as json } from '../support/json.js';

let api: TestApi;
let client: { clientId: string; clientSecret: string };
let token: string;
beforeAll(async () => {
  api = await startTestApi();
  client = await api.newClient({ orgName: 'idem', rateLimit: 10_000 });
  ({ access_token: token } = await getToken(api.url, client));
});
afterAll(() => api.close());

let sequence = 0;
const freshKey = () => {
  sequence += 1;
  return `order-${Date.now()}-${sequence}`;
};
const keyed = (key: string) => ({ 'idempotency-key': key });
const myKnapCount = async (accessToken = token) =>
  ((await json(await listKnaps(api.url, accessToken, '?limit=100'))).my_knaps as unknown[]).length;

test('the same key and body answer exactly as the first time and store nothing new', async () => {
  const key = freshKey();
  const first = await createKnap(api.url, token, '{"name":"digest","tool_metadata":{"id":12345678901234567890}}', keyed(key));
  expect(first.status).toBe(201);
  const firstBody = await first.text();
  const count = await myKnapCount();
  // The same JSON with other whitespace is the same body.
  const again = await createKnap(
    api.url,
    token,
    '{ "name": "digest",  "tool_metadata": {"id": 12345678901234567890} }',
    keyed(key),
  );
  expect(again.status).toBe(201);
  expect(await again.text()).toBe(firstBody);
  expect(again.headers.get('idempotent-replayed')).toBe('true');
  expect(first.headers.get('idempotent-replayed')).toBeNull();
  expect(await myKnapCount()).toBe(count);
});

test('the same key with a different body: 422, and nothing stored', async () => {
  const key = freshKey();
  expect((await createKnap(api.url, token, { name: 'one' }, keyed(key))).status).toBe(201);
  const count = await myKnapCount();
  const other = await createKnap(api.url, token, { name: 'two' }, keyed(key));
  expect(other.status).toBe(422);
  expect(await json(other)).toEqual({ detail: expect.stringMatching(/different request body/) });
  expect(await myKnapCount()).toBe(count);
});

test('while the first may still be in flight: 409 with Retry-After saying when it cannot be any more', async () => {
  const key = freshKey();
  const now = Math.floor(api.clock.now().getTime() / 1000);
  const { createHash } = await import('node:crypto');
  const body = { name: 'slow' };
  await api.deps.repo.claimIdempotencyKey(
    {
      clientId: client.clientId,
      key,
      requestHash: createHash('sha256').update(JSON.stringify(body)).digest('base64url'),
      resourceId: '00000000-0000-4000-8000-000000000000',
      expiresAt: now + 86_400,
      leaseUntil: now + 15,
    },
    now,
  );
  const response = await createKnap(api.url, token, body, keyed(key));
  expect(response.status).toBe(409);
  expect(response.headers.get('retry-after')).toBe('15');
  api.clock.advance(10);
  expect((await createKnap(api.url, token, body, keyed(key))).headers.get('retry-after')).toBe('5');
  // Once the in-flight claim's lease has run out (its request cannot still be running), a retry runs: as it said.
  api.clock.advance(5);
  const retried = await createKnap(api.url, token, body, keyed(key));
  expect(retried.status).toBe(201);
  expect((await json(retried)).uuid).toBe('00000000-0000-4000-8000-000000000000');
});

test('keys are per client: another client may use the same key', async () => {
  const key = freshKey();
  const other = await getToken(api.url, await api.newClient({ orgName: 'idem', rateLimit: 10_000 }));
  const mine = await json(await createKnap(api.url, token, { name: 'x' }, keyed(key)));
  const theirs = await createKnap(api.url, other.access_token, { name: 'x' }, keyed(key));
  expect(theirs.status).toBe(201);
  expect((await json(theirs)).uuid).not.toBe(mine.uuid);
});

test('after 24 hours the key is new again', async () => {
  const key = freshKey();
  const first = await json(await createKnap(api.url, token, { name: 'daily' }, keyed(key)));
  api.clock.advance(24 * 3600 - 1);
  // Access tokens last an hour: a fresh one for the rest of the file.
  ({ access_token: token } = await getToken(api.url, client));
  const replay = await createKnap(api.url, token, { name: 'daily' }, keyed(key));
  expect(replay.headers.get('idempotent-replayed')).toBe('true');
  expect((await json(replay)).uuid).toBe(first.uuid);
  api.clock.advance(1);
  const later = await createKnap(api.url, token, { name: 'daily' }, keyed(key));
  expect(later.status).toBe(201);
  expect((await json(later)).uuid).not.toBe(first.uuid);
});

test.each([
  ['empty', ''],
  ['256 characters', 'k'.repeat(256)],
  ['non-ASCII', 'clé'],
  ['a control character', 'a\tb'],
])('an Idempotency-Key that is %s: 400', async (_label, key) => {
  const count = await myKnapCount();
  const response = await createKnap(api.url, token, { name: 'x' }, keyed(key));
  expect(response.status).toBe(400);
  expect(await json(response)).toEqual({ detail: 'Idempotency-Key must be 1 to 255 printable ASCII characters' });
  expect(await myKnapCount()).toBe(count);
});

describe('a failed or lost first try, then a retry: one Knap', () => {
  const serverWith = async (repo: Repository) => startApiServer({ deps: { ...api.deps, repo } });

  test('the store failed: 500, then the retry creates the Knap', async () => {
    const key = freshKey();
    const count = await myKnapCount();
    const broken = await serverWith(failingRepo(api.deps.repo, 'putKnap'));
    try {
      expect((await createKnap(broken.url, token, { name: 'flaky' }, keyed(key))).status).toBe(500);
    } finally {
      await broken.close();
    }
    expect(await myKnapCount()).toBe(count);
    const retried = await createKnap(api.url, token, { name: 'flaky' }, keyed(key));
    expect(retried.status).toBe(201);
    expect(await myKnapCount()).toBe(count + 1);
  });

  test('the write landed but its answer was lost (a timeout): the retry answers that Knap', async () => {
    const key = freshKey();
    const count = await myKnapCount();
    const timeout = Object.assign(new Error('socket hang up'), { name: 'TimeoutError' });
    const landsThenTimesOut = overriding(api.deps.repo, (inner) => ({
      putKnap: async (...args: Parameters<Repository['putKnap']>) => {
        await inner.putKnap(...args);
        throw timeout;
      },
    }));
    const lossy = await serverWith(landsThenTimesOut);
    try {
      expect((await createKnap(lossy.url, token, { name: 'lost' }, keyed(key))).status).toBe(500);
    } finally {
      await lossy.close();
    }
    expect(await myKnapCount()).toBe(count + 1);
    const retried = await createKnap(api.url, token, { name: 'lost' }, keyed(key));
    expect(retried.status).toBe(201);
    const listed = (await json(await listKnaps(api.url, token, '?limit=100'))).my_knaps as { uuid: string; name: string }[];
    expect(listed.filter((knap) => knap.name === 'lost')).toEqual([
      expect.objectContaining({ uuid: (await json(retried)).uuid }),
    ]);
    expect(await myKnapCount()).toBe(count + 1);
  });
});

test('20 concurrent identical requests: one Knap; every answer a 201 of it or a 409', async () => {
  const key = freshKey();
  const count = await myKnapCount();
  const responses = await Promise.all(
    Array.from({ length: 20 }, () => createKnap(api.url, token, { name: 'burst' }, keyed(key))),
  );
  const statuses = responses.map((response) => response.status);
  expect(statuses.every((status) => status === 201 || status === 409)).toBe(true);
  const bodies = await Promise.all(responses.filter((response) => response.status === 201).map((response) => json(response)));
  expect(new Set(bodies.map((knap) => knap.uuid)).size).toBe(1);
  expect(await myKnapCount()).toBe(count + 1);
});

test('round trips: none added without a key; a claim and a completion with one', async () => {
  // Metering, the organization's quota place (one conditional UpdateItem), the Knap.
  roundTrips.reset();
  expect((await createKnap(api.url, token, { name: 'plain' })).status).toBe(201);
  expect(roundTrips.byCommand).toEqual({ UpdateItemCommand: 2, BatchGetItemCommand: 1, PutItemCommand: 1 });
  roundTrips.reset();
  expect((await createKnap(api.url, token, { name: 'keyed' }, keyed(freshKey()))).status).toBe(201);
  expect(roundTrips.byCommand).toEqual({ UpdateItemCommand: 3, BatchGetItemCommand: 1, PutItemCommand: 2 });
});
