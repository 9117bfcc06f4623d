/** One Knap: read, change, delete, as the contract's "One Knap" section fixes it, over HTTP on the local server. */
import { roundTrips } from '../../shared/store/dynamo-client.js';
import { bearer, createKnap, listKnaps, postToken, startTestApi, type TestApi } from '../support/api.js';
import { body as json } from '../support/json.js';
import { scheduleInfo } from '../support/schedule-info.js';

let api: TestApi;
type Credentials = { clientId: string; clientSecret: string };
/** Two clients of one organization, one of another, and tokens of the first narrowed to one scope. */
const tokens = { me: '', colleague: '', stranger: '', readOnly: '', writeOnly: '' };
const clients: Record<'me' | 'colleague' | 'stranger', Credentials> = {} as never;

const grant = async (client: Credentials, scope?: string): Promise<string> => {
  const response = await postToken(api.url, {
    grant_type: 'client_credentials',
    client_id: client.clientId,
    client_secret: client.clientSecret,
    ...(scope ? { scope } : {}),
  });
  return (await json(response)).access_token as string;
};

const grantAll = async () => {
  tokens.me = await grant(clients.me);
  tokens.colleague = await grant(clients.colleague);
  tokens.stranger = await grant(clients.stranger);
  tokens.readOnly = await grant(clients.me, 'read:knaps');
  tokens.writeOnly = await grant(clients.me, 'write:knaps');
};

/**
 * Moves the clock, only ever forward (a rate-limit window must not go back), and grants new
 * tokens for the new time: access tokens live an hour.
 */
const clockAt = async (time: string) => {
  api.clock.set(time);
  await grantAll();
};

beforeAll(async () => {
  api = await startTestApi();
  clients.me = await api.newClient({ orgName: 'acme', rateLimit: 10_000 });
  clients.colleague = await api.newClient({ orgName: 'acme', rateLimit: 10_000 });
  clients.stranger = await api.newClient({ orgName: 'globex', rateLimit: 10_000 });
  await grantAll();
});
afterAll(() => api.close());

const knapUrl = (uuid: string) => `${api.url}/api/studio/knap-tools/${uuid}`;
const getKnap = (token: string, uuid: string) => fetch(knapUrl(uuid), { headers: bearer(token) });
const patchKnap = (token: string, uuid: string, patch: unknown, headers: Record<string, string> = {}) =>
  fetch(knapUrl(uuid), {
    method: 'PATCH',
    headers: { ...bearer(token), 'content-type': 'application/merge-patch+json', ...headers },
    body: typeof patch === 'string' ? patch : JSON.stringify(patch),
  });
const deleteKnap = (token: string, uuid: string, headers: Record<string, string> = {}) =>
  fetch(knapUrl(uuid), { method: 'DELETE', headers: { ...bearer(token), ...headers } });

const newKnap = async (body: Record<string, unknown>, token = tokens.me) => {
  const response = await createKnap(api.url, token, body);
  expect(response.status).toBe(201);
  return { knap: await json(response), etag: response.headers.get('etag') as string };
};

const notFound = async (response: Response) => {
  expect(response.status).toBe(404);
  expect(await json(response)).toEqual({ detail: 'Knap not found' });
};

describe('GET /api/studio/knap-tools/{uuid}', () => {
  test('my own Knap: 200, the whole Knap as created, an ETag and the RateLimit headers', async () => {
    const { knap, etag } = await newKnap({ name: 'Mine', tool_metadata: { action_description: 'x' } });
    expect(etag).toMatch(/^"[^"]+"$/);
    const response = await getKnap(tokens.me, knap.uuid);
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual(knap);
    expect(response.headers.get('etag')).toBe(etag);
    expect(response.headers.get('ratelimit-limit')).toBe('10000');
  });

  test("a colleague's shared Knap: 200; its private one: 404", async () => {
    const shared = (await newKnap({ name: 'Shared', visibility: 'acme' }, tokens.colleague)).knap;
    const published = (await newKnap({ name: 'Public', visibility: 'public' }, tokens.colleague)).knap;
    const secret = (await newKnap({ name: 'Private' }, tokens.colleague)).knap;
    expect((await getKnap(tokens.me, shared.uuid)).status).toBe(200);
    expect((await getKnap(tokens.me, published.uuid)).status).toBe(200);
    await notFound(await getKnap(tokens.me, secret.uuid));
  });

  test("another organization's Knap, even a public one: 404, as for a uuid that does not exist", async () => {
    const theirs = (await newKnap({ name: 'Globex public', visibility: 'public' }, tokens.stranger)).knap;
    await notFound(await getKnap(tokens.me, theirs.uuid));
    await notFound(await getKnap(tokens.me, '6f1c0b52-3f0e-4c1a-9a57-6d1f0b0c0999'));
    await notFound(await getKnap(tokens.me, 'not-a-uuid'));
  });

  test('authentication first: no token is 401 even for a uuid that exists', async () => {
    const { knap } = await newKnap({ name: 'Guarded' });
    const response = await fetch(knapUrl(knap.uuid));
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
  });

  test('scope read:knaps', async () => {
    const { knap } = await newKnap({ name: 'Scoped' });
    expect((await getKnap(tokens.readOnly, knap.uuid)).status).toBe(200);
    expect((await getKnap(tokens.writeOnly, knap.uuid)).status).toBe(403);
  });

  test('round trips: 1 deep including authentication', async () => {
    const { knap } = await newKnap({ name: 'Counted' });
    roundTrips.reset();
    expect((await getKnap(tokens.me, knap.uuid)).status).toBe(200);
    // The metering write, the token's revocations and the Knap, side by side.
    expect(roundTrips.byCommand).toEqual({ GetItemCommand: 1, UpdateItemCommand: 1, BatchGetItemCommand: 1 });
    expect(roundTrips.depth).toBe(1);
  });
});

describe('PATCH /api/studio/knap-tools/{uuid}', () => {
  test('a JSON merge patch: fields change, tool_metadata merges and null removes a key; updated_at advances, ETag changes', async () => {
    const { knap, etag } = await newKnap({ name: 'Before', tool_metadata: { action_description: 'a', keep: 1, drop: 2 } });
    api.clock.advance(5);
    const response = await patchKnap(tokens.me, knap.uuid, { name: 'After', tool_metadata: { drop: null, added: true } });
    expect(response.status).toBe(200);
    const changed = await json(response);
    expect(changed).toEqual({
      ...knap,
      name: 'After',
      tool_metadata: { action_description: 'a', keep: 1, added: true },
      updated_at: changed.updated_at,
    });
    expect(Date.parse(changed.updated_at)).toBe(Date.parse(knap.updated_at) + 5000);
    expect(response.headers.get('etag')).not.toBe(etag);
    expect(await json(await getKnap(tokens.me, knap.uuid))).toEqual(changed);
  });

  test('application/json is accepted too; fields the API generates are ignored sent back unchanged, refused changed', async () => {
    const { knap } = await newKnap({ name: 'Plain' });
    const refused = await patchKnap(
      tokens.me,
      knap.uuid,
      { name: 'Plain JSON', uuid: 'x', creation_timestamp: '1999-01-01T00:00:00Z' },
      { 'content-type': 'application/json' },
    );
    expect(refused.status).toBe(400);
    expect((await json(refused)).detail).toMatch(/^uuid is read-only/);
    const response = await patchKnap(
      tokens.me,
      knap.uuid,
      { ...knap, name: 'Plain JSON' },
      { 'content-type': 'application/json' },
    );
    expect(response.status).toBe(200);
    expect(await json(response)).toMatchObject({
      name: 'Plain JSON',
      uuid: knap.uuid,
      creation_timestamp: knap.creation_timestamp,
    });
  });

  test.each<[string, unknown, RegExp]>([
    ['an empty name', { name: '' }, /name/],
    ['name removed (null): required', { name: null }, /name is required/],
    ["another organization's visibility", { visibility: 'globex' }, /visibility/],
    ['an unknown schedule_type', { schedule_type: 'hourly' }, /schedule_type/],
    ['scheduled without a description', { schedule_type: 'scheduled' }, /schedule_description/],
    ['a list as the patch', [{ name: 'x' }], /JSON object/],
  ])('the merged result is validated as create validates: %s is a 400', async (_label, patch, detail) => {
    const { knap, etag } = await newKnap({ name: 'Valid' });
    const response = await patchKnap(tokens.me, knap.uuid, patch);
    expect(response.status).toBe(400);
    expect((await json(response)).detail).toMatch(detail);
    const unchanged = await getKnap(tokens.me, knap.uuid);
    expect(await json(unchanged)).toEqual(knap);
    expect(unchanged.headers.get('etag')).toBe(etag);
  });

  test('malformed JSON: 400; not JSON: 415', async () => {
    const { knap } = await newKnap({ name: 'Bodies' });
    expect((await patchKnap(tokens.me, knap.uuid, '{"name":')).status).toBe(400);
    expect((await patchKnap(tokens.me, knap.uuid, 'name=x', { 'content-type': 'text/plain' })).status).toBe(415);
  });

  test("a colleague's shared Knap: 403; its private one: 404; another organization's: 404", async () => {
    const shared = (await newKnap({ name: 'Theirs', visibility: 'public' }, tokens.colleague)).knap;
    const secret = (await newKnap({ name: 'Their secret' }, tokens.colleague)).knap;
    const foreign = (await newKnap({ name: 'Foreign', visibility: 'public' }, tokens.stranger)).knap;
    const forbidden = await patchKnap(tokens.me, shared.uuid, { name: 'Hijacked' });
    expect(forbidden.status).toBe(403);
    expect(Object.keys(await json(forbidden))).toEqual(['detail']);
    await notFound(await patchKnap(tokens.me, secret.uuid, { name: 'Hijacked' }));
    await notFound(await patchKnap(tokens.me, foreign.uuid, { name: 'Hijacked' }));
    expect((await json(await getKnap(tokens.colleague, shared.uuid))).name).toBe('Theirs');
  });

  test('scope write:knaps', async () => {
    const { knap } = await newKnap({ name: 'Write scope' });
    expect((await patchKnap(tokens.readOnly, knap.uuid, { name: 'x' })).status).toBe(403);
    expect((await patchKnap(tokens.writeOnly, knap.uuid, { name: 'x' })).status).toBe(200);
  });

  test('visibility is fixed at creation (Knapsack): another is a 400, the same one is accepted', async () => {
    const { knap, etag } = await newKnap({ name: 'Staying' });
    const moved = await patchKnap(tokens.me, knap.uuid, { visibility: 'acme' });
    expect(moved.status).toBe(400);
    expect((await json(moved)).detail).toBe("visibility cannot be changed after creation: this Knap's is 'private'");
    expect((await getKnap(tokens.me, knap.uuid)).headers.get('etag')).toBe(etag);
    await notFound(await getKnap(tokens.colleague, knap.uuid));
    const same = await patchKnap(tokens.me, knap.uuid, { visibility: 'private', name: 'Still private' });
    expect(same.status).toBe(200);
    expect(await json(same)).toMatchObject({ visibility: 'private', can_toggle_default_active: false });
  });

  test('can_toggle_default_active: the creator of a shared Knap only; active_by_default on a private Knap is a 400', async () => {
    const { knap } = await newKnap({ name: 'Shared', visibility: 'acme' });
    expect(knap.can_toggle_default_active).toBe(true);
    expect((await json(await getKnap(tokens.colleague, knap.uuid))).can_toggle_default_active).toBe(false);
    const listing = await json(await listKnaps(api.url, tokens.colleague, '?limit=100'));
    const seen = listing.organization_knaps[0].knaps.find((k: { uuid: string }) => k.uuid === knap.uuid);
    expect(seen.can_toggle_default_active).toBe(false);
    const mine = await json(await listKnaps(api.url, tokens.me, '?limit=100'));
    expect(mine.my_knaps.find((k: { uuid: string }) => k.uuid === knap.uuid).can_toggle_default_active).toBe(true);
    const hidden = (await newKnap({ name: 'Hidden' })).knap;
    const refused = await patchKnap(tokens.me, hidden.uuid, { active_by_default: false });
    expect(refused.status).toBe(400);
    expect((await json(refused)).detail).toMatch(/^active_by_default applies only to shared Knaps/);
    expect((await patchKnap(tokens.me, hidden.uuid, { active_by_default: true })).status).toBe(200);
    expect((await patchKnap(tokens.me, knap.uuid, { active_by_default: false })).status).toBe(200);
  });

  test('an unknown member is a 400 naming the field it resembles; tool_metadata stays open', async () => {
    const { knap, etag } = await newKnap({ name: 'Typo' });
    const typo = await patchKnap(tokens.me, knap.uuid, { shedule_type: 'scheduled' });
    expect(typo.status).toBe(400);
    expect((await json(typo)).detail).toBe('Unknown field "shedule_type": did you mean "schedule_type"?');
    const stranger = await patchKnap(tokens.me, knap.uuid, { colour: 'red' });
    expect(stranger.status).toBe(400);
    expect((await json(stranger)).detail).toMatch(/^Unknown field "colour"; the fields are: name, schedule_type/);
    expect((await getKnap(tokens.me, knap.uuid)).headers.get('etag')).toBe(etag);
    const open = await patchKnap(tokens.me, knap.uuid, { tool_metadata: { shedule_typo: 'mine to keep' } });
    expect(open.status).toBe(200);
    expect((await json(open)).tool_metadata).toEqual({ shedule_typo: 'mine to keep' });
  });

  describe('the schedule', () => {
    const weekly = { schedule_type: 'scheduled', tool_metadata: { schedule_description: 'every Monday at 9am' } };

    test('kept as it was when its inputs do not change', async () => {
      await clockAt('2026-11-23T10:00:05Z'); // a Monday
      const { knap } = await newKnap({ name: 'Weekly', ...weekly });
      expect(knap.next_run_at).toBe('2026-11-30T09:00:00Z');
      await clockAt('2026-12-01T10:00:00Z');
      const renamed = await json(await patchKnap(tokens.me, knap.uuid, { name: 'Renamed' }));
      expect(renamed.next_run_at).toBe('2026-11-30T09:00:00Z');
      expect(renamed.schedule_info).toEqual(knap.schedule_info);
    });

    test('recomputed from now when the description or time zone changes', async () => {
      await clockAt('2026-12-02T10:00:00Z'); // a Wednesday
      const { knap } = await newKnap({ name: 'Weekly', ...weekly });
      expect(knap.next_run_at).toBe('2026-12-07T09:00:00Z');
      const daily = await json(
        await patchKnap(tokens.me, knap.uuid, { tool_metadata: { schedule_description: 'every day at 8am' } }),
      );
      expect(daily.schedule_info).toMatchObject({ schedule_type: 'daily', schedule_time: '08:00', timezone: 'UTC' });
      expect(daily.next_run_at).toBe('2026-12-03T08:00:00Z');
      const berlin = await json(await patchKnap(tokens.me, knap.uuid, { tool_metadata: { timezone: 'Europe/Berlin' } }));
      expect(berlin.schedule_info.timezone).toBe('Europe/Berlin');
      expect(berlin.next_run_at).toBe('2026-12-03T07:00:00Z');
    });

    test('recomputed from now when the Knap is activated again; no catch-up of missed runs', async () => {
      const { knap } = await newKnap({ name: 'Paused', ...weekly });
      const paused = await json(await patchKnap(tokens.me, knap.uuid, { is_active: false }));
      expect(paused.is_active).toBe(false);
      await clockAt('2026-12-16T12:00:00Z'); // a Wednesday, weeks later
      const resumed = await json(await patchKnap(tokens.me, knap.uuid, { is_active: true }));
      expect(resumed.next_run_at).toBe('2026-12-21T09:00:00Z');
    });

    test('issue 46: a one-off and a schedule with an end resume when activated again, and never start over', async () => {
      // 2026-12-16T12:00:00Z, a Wednesday (the test before moved the clock here).
      const once = (
        await newKnap({ name: 'Once', schedule_type: 'scheduled', tool_metadata: { schedule_description: 'tomorrow at 9' } })
      ).knap;
      expect(once.schedule_info).toEqual(
        scheduleInfo({
          schedule_type: 'once',
          anchor_date: '2026-12-17',
          rrule: 'DTSTART:20261217T090000Z\nRRULE:FREQ=DAILY;UNTIL=20261217T090000Z;BYHOUR=9;BYMINUTE=0;BYSECOND=0',
        }),
      );
      expect(once.next_run_at).toBe('2026-12-17T09:00:00Z');
      const ends = (
        await newKnap({
          name: 'Thrice',
          schedule_type: 'scheduled',
          tool_metadata: { schedule_description: 'every day 3 times' },
        })
      ).knap;
      expect(ends.schedule_info).toEqual(
        scheduleInfo({
          until: '2026-12-19T09:00:00Z',
          count: 3,
          rrule: 'DTSTART:20261217T090000Z\nRRULE:FREQ=DAILY;UNTIL=20261219T090000Z;BYHOUR=9;BYMINUTE=0;BYSECOND=0',
        }),
      );
      for (const knap of [once, ends])
        expect((await json(await patchKnap(tokens.me, knap.uuid, { is_active: false }))).is_active).toBe(false);
      await clockAt('2026-12-18T12:00:00Z');
      const onceAgain = await json(await patchKnap(tokens.me, once.uuid, { is_active: true }));
      expect(onceAgain).toMatchObject({ is_active: true, schedule_info: once.schedule_info, next_run_at: null });
      const endsAgain = await json(await patchKnap(tokens.me, ends.uuid, { is_active: true }));
      expect(endsAgain).toMatchObject({
        is_active: true,
        schedule_info: ends.schedule_info,
        next_run_at: '2026-12-19T09:00:00Z',
      });
    });

    test('manual again: no schedule', async () => {
      const { knap } = await newKnap({ name: 'Unscheduled', ...weekly });
      const manual = await json(await patchKnap(tokens.me, knap.uuid, { schedule_type: 'manual' }));
      expect(manual).toMatchObject({ schedule_type: 'manual', schedule_info: null, next_run_at: null });
    });

    test('an unreadable new description: 400 saying what was not understood', async () => {
      const { knap } = await newKnap({ name: 'Weekly', ...weekly });
      const response = await patchKnap(tokens.me, knap.uuid, { tool_metadata: { schedule_description: 'whenever you like' } });
      expect(response.status).toBe(400);
      expect((await json(response)).detail).toEqual(expect.any(String));
    });
  });

  test('If-Match: the current ETag or * pass; a stale one is a 412 and changes nothing', async () => {
    const { knap, etag } = await newKnap({ name: 'Versioned' });
    const first = await patchKnap(tokens.me, knap.uuid, { name: 'v2' }, { 'if-match': etag });
    expect(first.status).toBe(200);
    const stale = await patchKnap(tokens.me, knap.uuid, { name: 'v3' }, { 'if-match': etag });
    expect(stale.status).toBe(412);
    expect(Object.keys(await json(stale))).toEqual(['detail']);
    expect((await json(await getKnap(tokens.me, knap.uuid))).name).toBe('v2');
    const current = first.headers.get('etag') as string;
    expect((await patchKnap(tokens.me, knap.uuid, { name: 'v3' }, { 'if-match': `"nope", ${current}` })).status).toBe(200);
    expect((await patchKnap(tokens.me, knap.uuid, { name: 'v4' }, { 'if-match': '*' })).status).toBe(200);
  });

  test('20 concurrent PATCHes with the same If-Match: exactly one 200, the rest 412, nothing half-written', async () => {
    const { knap, etag } = await newKnap({ name: 'Contended', tool_metadata: { n: 0 } });
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        patchKnap(tokens.me, knap.uuid, { name: `writer ${i}`, tool_metadata: { n: i } }, { 'if-match': etag }),
      ),
    );
    const statuses = responses.map((response) => response.status).sort();
    expect(statuses).toEqual([200, ...Array(19).fill(412)]);
    const winner = await json(responses.find((response) => response.status === 200) as Response);
    const stored = await json(await getKnap(tokens.me, knap.uuid));
    expect(stored).toEqual(winner);
    expect(stored.name).toBe(`writer ${stored.tool_metadata.n}`);
  });

  test('round trips: 2 deep including authentication', async () => {
    const { knap } = await newKnap({ name: 'Counted' });
    roundTrips.reset();
    expect((await patchKnap(tokens.me, knap.uuid, { name: 'Counted again' })).status).toBe(200);
    // The Knap read beside the metering write, then written.
    expect(roundTrips.byCommand).toEqual({ GetItemCommand: 1, UpdateItemCommand: 1, BatchGetItemCommand: 1, PutItemCommand: 1 });
    expect(roundTrips.depth).toBe(2);
  });
});

describe("PUT /api/studio/knap-tools/{uuid} (Knapsack's update)", () => {
  const putKnap = (token: string, uuid: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(knapUrl(uuid), {
      method: 'PUT',
      headers: { ...bearer(token), 'content-type': 'application/json', ...headers },
      body: JSON.stringify(body),
    });

  test('the fields given change, as PATCH; the whole Knap read back and sent again is accepted', async () => {
    const { knap, etag } = await newKnap({ name: 'Put me', tool_metadata: { action_description: 'a', extra: 1 } });
    const response = await putKnap(tokens.me, knap.uuid, { name: 'Put', tool_metadata: { action_description: 'b' } });
    expect(response.status).toBe(200);
    const changed = await json(response);
    expect(changed).toMatchObject({ name: 'Put', tool_metadata: { action_description: 'b', extra: 1 }, is_active: true });
    expect(response.headers.get('etag')).not.toBe(etag);
    expect(await json(await getKnap(tokens.me, knap.uuid))).toEqual(changed);
    const again = await putKnap(
      tokens.me,
      knap.uuid,
      { ...changed, name: 'Put again' },
      {
        'if-match': response.headers.get('etag') as string,
      },
    );
    expect(again.status).toBe(200);
    expect((await json(again)).name).toBe('Put again');
  });

  test('a changed read-only member, another visibility, an unknown member: 400; a stale If-Match: 412', async () => {
    const { knap, etag } = await newKnap({ name: 'Guarded' });
    for (const [body, detail] of [
      [{ next_run_at: '2030-01-01T00:00:00Z' }, /^next_run_at is read-only/],
      [{ can_toggle_default_active: true }, /^can_toggle_default_active is read-only/],
      [{ creation_user_id: 999 }, /^creation_user_id is read-only/],
      [{ visibility: 'public' }, /^visibility cannot be changed after creation/],
      [{ shedule_type: 'scheduled' }, /did you mean "schedule_type"/],
    ] as const) {
      const response = await putKnap(tokens.me, knap.uuid, body);
      expect(response.status).toBe(400);
      expect((await json(response)).detail).toMatch(detail);
    }
    await putKnap(tokens.me, knap.uuid, { name: 'Moved on' });
    expect((await putKnap(tokens.me, knap.uuid, { name: 'Lost' }, { 'if-match': etag })).status).toBe(412);
  });

  test("a colleague's shared Knap: 403; another organization's: 404; a read-only token: 403", async () => {
    const shared = (await newKnap({ name: 'Theirs', visibility: 'acme' }, tokens.colleague)).knap;
    const foreign = (await newKnap({ name: 'Foreign', visibility: 'public' }, tokens.stranger)).knap;
    expect((await putKnap(tokens.me, shared.uuid, { name: 'x' })).status).toBe(403);
    await notFound(await putKnap(tokens.me, foreign.uuid, { name: 'x' }));
    const { knap } = await newKnap({ name: 'Mine' });
    expect((await putKnap(tokens.readOnly, knap.uuid, { name: 'x' })).status).toBe(403);
  });
});

describe('DELETE /api/studio/knap-tools/{uuid}', () => {
  test("200 with Knapsack's message; afterwards gone from GET and from every list", async () => {
    const { knap } = await newKnap({ name: 'Doomed', visibility: 'public' });
    const response = await deleteKnap(tokens.me, knap.uuid);
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({ message: 'Knap deleted successfully' });
    expect(response.headers.get('ratelimit-limit')).toBe('10000');
    await notFound(await getKnap(tokens.me, knap.uuid));
    for (const token of [tokens.me, tokens.colleague]) {
      expect(JSON.stringify(await json(await listKnaps(api.url, token, '?limit=100')))).not.toContain(knap.uuid);
    }
    await notFound(await deleteKnap(tokens.me, knap.uuid));
  });

  test("a colleague's shared Knap: 403, and it stays; another organization's: 404", async () => {
    const shared = (await newKnap({ name: 'Keep', visibility: 'acme' }, tokens.colleague)).knap;
    const foreign = (await newKnap({ name: 'Foreign', visibility: 'public' }, tokens.stranger)).knap;
    expect((await deleteKnap(tokens.me, shared.uuid)).status).toBe(403);
    expect((await getKnap(tokens.colleague, shared.uuid)).status).toBe(200);
    await notFound(await deleteKnap(tokens.me, foreign.uuid));
    expect((await getKnap(tokens.stranger, foreign.uuid)).status).toBe(200);
  });

  test('a stale If-Match: 412 and the Knap stays; the current one deletes', async () => {
    const { knap, etag } = await newKnap({ name: 'Careful' });
    const changed = await patchKnap(tokens.me, knap.uuid, { name: 'Changed' });
    expect((await deleteKnap(tokens.me, knap.uuid, { 'if-match': etag })).status).toBe(412);
    expect((await getKnap(tokens.me, knap.uuid)).status).toBe(200);
    expect((await deleteKnap(tokens.me, knap.uuid, { 'if-match': changed.headers.get('etag') as string })).status).toBe(200);
  });

  test('scope write:knaps', async () => {
    const { knap } = await newKnap({ name: 'Scoped delete' });
    expect((await deleteKnap(tokens.readOnly, knap.uuid)).status).toBe(403);
    expect((await getKnap(tokens.me, knap.uuid)).status).toBe(200);
  });

  test('20 concurrent DELETEs: one 200, the rest 404 or 412', async () => {
    const { knap, etag } = await newKnap({ name: 'Crowded', visibility: 'acme' });
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, i) => deleteKnap(tokens.me, knap.uuid, i % 2 === 0 ? { 'if-match': etag } : {})),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.every((status) => [200, 404, 412].includes(status))).toBe(true);
    await notFound(await getKnap(tokens.me, knap.uuid));
  });
});

describe('POST /api/studio/schedules/preview', () => {
  const preview = (body: unknown, token = tokens.me) =>
    fetch(`${api.url}/api/studio/schedules/preview`, {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });

  test('schedule_info, the next runs (5 by default) and the schedule said back in English', async () => {
    await clockAt('2027-01-04T10:00:05Z'); // a Monday
    const response = await preview({ schedule_description: 'every weekday at 9am', timezone: 'Europe/Berlin' });
    expect(response.status).toBe(200);
    expect(response.headers.get('ratelimit-limit')).toBe('10000');
    expect(await json(response)).toEqual({
      schedule_info: scheduleInfo({
        schedule_type: 'weekly',
        days_of_week: [1, 2, 3, 4, 5],
        timezone: 'Europe/Berlin',
        rrule:
          'DTSTART;TZID=Europe/Berlin:20270105T090000\nRRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0;BYSECOND=0',
      }),
      next_runs: [
        '2027-01-05T08:00:00Z',
        '2027-01-06T08:00:00Z',
        '2027-01-07T08:00:00Z',
        '2027-01-08T08:00:00Z',
        '2027-01-11T08:00:00Z',
      ],
      description: 'Every weekday at 09:00, Europe/Berlin',
    });
  });

  test('count picks how many runs (1 to 50)', async () => {
    const body = await json(await preview({ schedule_description: 'on the last Friday of every month at 4pm', count: 3 }));
    expect(body.next_runs).toEqual(['2027-01-29T16:00:00Z', '2027-02-26T16:00:00Z', '2027-03-26T16:00:00Z']);
    expect(body.description).toBe('On the last Friday of every month at 16:00, UTC');
    for (const count of [0, 51, 2.5, '3']) expect((await preview({ schedule_description: 'daily', count })).status).toBe(400);
  });

  test('errors as for create: unreadable, blank or missing description is a 400 with a detail', async () => {
    for (const body of [{ schedule_description: 'whenever' }, { schedule_description: '  ' }, {}, { schedule_description: 5 }]) {
      const response = await preview(body);
      expect(response.status).toBe(400);
      expect(Object.keys(await json(response))).toEqual(['detail']);
    }
  });

  test('scope read:knaps; no token is 401', async () => {
    expect((await preview({ schedule_description: 'daily' }, tokens.writeOnly)).status).toBe(403);
    expect((await preview({ schedule_description: 'daily' }, tokens.readOnly)).status).toBe(200);
    const anonymous = await fetch(`${api.url}/api/studio/schedules/preview`, { method: 'POST', body: '{}' });
    expect(anonymous.status).toBe(401);
  });
});

describe('the API documentation: public, not metered', () => {
  test('GET /api/openapi.json: OpenAPI 3.1 with every route, its server the address it was asked on', async () => {
    const response = await fetch(`${api.url}/api/openapi.json`);
    expect(response.status).toBe(200);
    expect(response.headers.get('ratelimit-limit')).toBeNull();
    const document = await json(response);
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers).toEqual([{ url: api.url }]);
    expect(Object.keys(document.paths)).toEqual(
      expect.arrayContaining(['/api/studio/knap-tools/{uuid}', '/api/studio/schedules/preview', '/api/oauth/token']),
    );
  });

  test('GET /api/docs: an HTML page that loads the renderer from this API, not a CDN', async () => {
    const response = await fetch(`${api.url}/api/docs`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await response.text();
    expect(page).toContain('/api/openapi.json');
    expect(page).not.toMatch(/https?:\/\//);
    const script = await fetch(`${api.url}/api/docs/assets/swagger-ui-bundle.js`);
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/^text\/javascript/);
    expect((await script.text()).length).toBeGreaterThan(100_000);
    expect((await fetch(`${api.url}/api/docs/assets/swagger-ui.css`)).status).toBe(200);
    expect((await fetch(`${api.url}/api/docs/assets/..%2Fpackage.json`)).status).toBe(404);
    expect((await fetch(`${api.url}/api/docs/assets/index.html`)).status).toBe(404);
  });
});
