import * as v from 'valibot';
import { startApiServer } from '../../local/server.js';
import { KnapListingSchema, KnapSchema } from '../../shared/schemas/responses.js';
import { createKnap, getToken, listKnaps, startTestApi, type TestApi } from '../support/api.js';
import { failingRepo } from '../support/failing-repo.js';
import { body as json } from '../support/json.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/;

let api: TestApi;
let token: string;
beforeAll(async () => {
  api = await startTestApi();
  ({ access_token: token } = await getToken(api.url, await api.newClient({ userId: 42, rateLimit: 10_000 })));
});
afterAll(() => api.close());

/** Every Knap the API answers matches the schema published in docs/openapi.json. */
const created = async (body: unknown) => {
  const response = await createKnap(api.url, token, body);
  expect(response.status).toBe(201);
  const knap = await json(response);
  expect(v.safeParse(KnapSchema, knap).issues).toBeUndefined();
  return knap;
};

const rejected = async (body: unknown, status = 400, headers: Record<string, string> = {}) => {
  const response = await createKnap(api.url, token, body, headers);
  expect(response.status).toBe(status);
  const answer = await json(response);
  expect(Object.keys(answer)).toEqual(['detail']);
  return answer.detail as string;
};

describe('POST /api/studio/knap-tools', () => {
  test('201 with every field of the Knap, defaults applied', async () => {
    api.clock.set('2026-11-23T10:00:05Z');
    const knap = await created({ name: 'Weekly digest' });
    expect(Object.keys(knap).sort()).toEqual(
      [
        'active_by_default',
        'can_toggle_default_active',
        'creation_timestamp',
        'creation_user_id',
        'is_active',
        'name',
        'next_run_at',
        'schedule_info',
        'schedule_type',
        'tool_metadata',
        'updated_at',
        'uuid',
        'visibility',
      ].sort(),
    );
    expect(knap).toMatchObject({
      name: 'Weekly digest',
      creation_user_id: 42,
      schedule_type: 'manual',
      is_active: true,
      visibility: 'private',
      can_toggle_default_active: false,
      active_by_default: true,
      tool_metadata: {},
      schedule_info: null,
      next_run_at: null,
    });
    expect(knap.uuid).toMatch(UUID_V4);
    expect(knap.creation_timestamp).toMatch(ISO_UTC);
    expect(knap.creation_timestamp).toBe('2026-11-23T10:00:05.000Z');
    expect(knap.updated_at).toBe(knap.creation_timestamp);
  });

  test('post_meeting_transcription needs no schedule; shared Knaps can toggle their default', async () => {
    const knap = await created({
      name: 'Meeting notes',
      schedule_type: 'post_meeting_transcription',
      is_active: false,
      visibility: 'public',
      active_by_default: false,
      tool_metadata: { action_description: 'Send notes to Slack', extra: { channel: '#notes' } },
    });
    expect(knap).toMatchObject({
      schedule_type: 'post_meeting_transcription',
      is_active: false,
      visibility: 'public',
      can_toggle_default_active: true,
      active_by_default: false,
      schedule_info: null,
      next_run_at: null,
      tool_metadata: { action_description: 'Send notes to Slack', extra: { channel: '#notes' } },
    });
    expect((await created({ name: 'Org wide', visibility: 'acme' })).can_toggle_default_active).toBe(true);
  });

  test("visibility may name only the caller's own organization", async () => {
    expect(await rejected({ name: 'x', visibility: 'globex' })).toBe(
      "visibility must be 'private', 'public' or your organization's name ('acme')",
    );
  });

  test('scheduled: the English schedule becomes schedule_info and the next run', async () => {
    api.clock.set('2026-11-23T10:00:05Z'); // a Monday
    const knap = await created({
      name: 'Standup prep',
      schedule_type: 'scheduled',
      tool_metadata: { schedule_description: 'every weekday at 9am' },
    });
    expect(knap.schedule_info).toMatchObject({
      schedule_type: 'weekly',
      schedule_time: '09:00',
      days_of_week: [1, 2, 3, 4, 5],
      days_of_month: null,
      weeks_of_month: null,
      months_of_year: null,
      timezone: 'UTC',
    });
    expect(knap.next_run_at).toBe('2026-11-24T09:00:00Z');

    const berlin = await created({
      name: 'Berlin',
      schedule_type: 'scheduled',
      tool_metadata: { schedule_description: 'every day at 8:30', timezone: 'Europe/Berlin' },
    });
    expect(berlin.schedule_info).toMatchObject({ schedule_type: 'daily', schedule_time: '08:30', timezone: 'Europe/Berlin' });
    expect(berlin.next_run_at).toBe('2026-11-24T07:30:00Z');
  });

  test('scheduled without a description, or with one that makes no sense: 400 saying what', async () => {
    expect(await rejected({ name: 'x', schedule_type: 'scheduled' })).toMatch(/schedule_description is required/);
    expect(await rejected({ name: 'x', schedule_type: 'scheduled', tool_metadata: { schedule_description: '  ' } })).toMatch(
      /schedule_description is required/,
    );
    expect(
      await rejected({ name: 'x', schedule_type: 'scheduled', tool_metadata: { schedule_description: 'every blorpday' } }),
    ).toMatch(/blorpday/);
    expect(
      await rejected({ name: 'x', schedule_type: 'scheduled', tool_metadata: { schedule_description: 'daily at 25:00' } }),
    ).toMatch(/25:00/);
    expect(
      await rejected({
        name: 'x',
        schedule_type: 'scheduled',
        tool_metadata: { schedule_description: 'daily', timezone: 'Mars/Olympus' },
      }),
    ).toMatch(/Mars\/Olympus/);
  });

  test.each([
    ['a missing name', {}, /^name is required$/],
    ['an empty name', { name: '' }, /^name must not be empty/],
    ['a blank name', { name: '   ' }, /^name must not be empty/],
    ['a 256-character name', { name: 'x'.repeat(256) }, /^name must be 1 to 255 characters/],
    ['a number for name', { name: 5 }, /^name is required and must be a string/],
    [
      'an unknown schedule_type',
      { name: 'x', schedule_type: 'hourly' },
      /^schedule_type must be one of: manual, scheduled, post_meeting_transcription/,
    ],
    ['a string for is_active', { name: 'x', is_active: 'yes' }, /^is_active must be true or false/],
    ['null for active_by_default', { name: 'x', active_by_default: null }, /^active_by_default must be true or false/],
    ['a number for visibility', { name: 'x', visibility: 1 }, /^visibility must be a string/],
    ['a list for tool_metadata', { name: 'x', tool_metadata: [] }, /^tool_metadata must be an object/],
    [
      'a number for action_description',
      { name: 'x', tool_metadata: { action_description: 1 } },
      /^tool_metadata.action_description must be a string/,
    ],
    [
      'deeply nested metadata',
      { name: 'x', tool_metadata: { a: JSON.parse(`${'['.repeat(40)}${']'.repeat(40)}`) } },
      /nested too deeply/,
    ],
    ['an array body', [{ name: 'x' }], /^Request body must be a JSON object/],
    ['a string body', '"just a string"', /^Request body must be a JSON object/],
    ['null', 'null', /^Request body must be a JSON object/],
    ['malformed JSON', '{"name": ', /^Request body is not valid JSON/],
  ])('%s: 400 naming the problem', async (_, body, message) => {
    expect(await rejected(body)).toMatch(message);
  });

  test('a name of exactly 255 characters (emoji count once) is accepted', async () => {
    expect((await created({ name: '🙂'.repeat(255) })).name).toBe('🙂'.repeat(255));
  });

  test('a body over 1 MB is 413; a non-JSON Content-Type is 415', async () => {
    expect(await rejected({ name: 'x', tool_metadata: { action_description: 'x'.repeat(1024 * 1024) } }, 413)).toMatch(/limit/);
    expect(await rejected('name=x', 415, { 'content-type': 'application/x-www-form-urlencoded' })).toBe(
      'Content-Type must be application/json',
    );
  });

  test('a store failure is a 500 {"detail"} and nothing is stored', async () => {
    const server = await startApiServer({ deps: { ...api.deps, repo: failingRepo(api.deps.repo, 'putKnap') } });
    try {
      const client = await api.newClient({ orgName: 'failing-org' });
      const { access_token } = await getToken(api.url, client);
      const response = await createKnap(server.url, access_token, { name: 'Doomed' });
      expect(response.status).toBe(500);
      expect(await json(response)).toEqual({ detail: 'The Knap could not be created; nothing was stored. Please retry.' });
      const listing = await json(await listKnaps(api.url, access_token));
      expect(listing.my_knaps).toEqual([]);
      expect(api.deps.log.lines.some((line) => line.level === 'error' && line.message === 'Storing a Knap failed')).toBe(true);
    } finally {
      await server.close();
    }
  });
});

describe('GET /api/studio/knap-tools', () => {
  test("mine, my organization's shared and public Knaps, newest first; never another org's or another client's private", async () => {
    const alice = await getToken(api.url, await api.newClient({ orgName: 'initech' }));
    const bob = await getToken(api.url, await api.newClient({ orgName: 'initech' }));
    const mallory = await getToken(api.url, await api.newClient({ orgName: 'umbrella' }));
    const make = async (who: string, name: string, visibility: string) => {
      api.clock.advance(1);
      const response = await createKnap(api.url, who, { name, visibility });
      expect(response.status).toBe(201);
      return (await json(response)).uuid as string;
    };
    const alicePrivate = await make(alice.access_token, 'alice private', 'private');
    const aliceOrg = await make(alice.access_token, 'alice org', 'initech');
    const bobPrivate = await make(bob.access_token, 'bob private', 'private');
    const bobPublic = await make(bob.access_token, 'bob public', 'public');
    const bobOrg = await make(bob.access_token, 'bob org', 'initech');
    await make(mallory.access_token, 'mallory public', 'public');
    await make(mallory.access_token, 'mallory org', 'umbrella');

    const response = await listKnaps(api.url, alice.access_token);
    expect(response.status).toBe(200);
    const body = await json(response);
    expect(v.safeParse(KnapListingSchema, body).issues).toBeUndefined();
    const ids = (knaps: { uuid: string }[]) => knaps.map((knap) => knap.uuid);
    expect(ids(body.my_knaps)).toEqual([aliceOrg, alicePrivate]);
    expect(body.organization_knaps).toEqual([{ org_name: 'initech', knaps: expect.any(Array) }]);
    expect(ids(body.organization_knaps[0].knaps)).toEqual([bobOrg, aliceOrg]);
    expect(ids(body.public_knaps)).toEqual([bobPublic]);
    expect(JSON.stringify(body)).not.toContain(bobPrivate);
    expect(JSON.stringify(body)).not.toContain('mallory');
    expect(body.next_cursor).toBeNull();
  });

  test('pages with limit and next_cursor until the end', async () => {
    const { access_token } = await getToken(api.url, await api.newClient({ orgName: 'paged' }));
    const names: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      api.clock.advance(1);
      names.unshift(`knap ${i}`);
      expect(
        (await createKnap(api.url, access_token, { name: `knap ${i}`, visibility: i % 2 ? 'public' : 'private' })).status,
      ).toBe(201);
    }
    const seen: string[] = [];
    const publicSeen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const query: string = `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
      const page = await json(await listKnaps(api.url, access_token, query));
      expect(page.my_knaps.length).toBeLessThanOrEqual(2);
      seen.push(...page.my_knaps.map((knap: { name: string }) => knap.name));
      publicSeen.push(...page.public_knaps.map((knap: { name: string }) => knap.name));
      cursor = page.next_cursor;
      pages += 1;
    } while (cursor && pages < 10);
    expect(seen).toEqual(names);
    expect(publicSeen).toEqual(['knap 3', 'knap 1']);
    expect(pages).toBeGreaterThanOrEqual(3);
  });

  test.each([
    ['?limit=0', /^limit must be a whole number from 1 to 100/],
    ['?limit=101', /^limit must be a whole number from 1 to 100/],
    ['?limit=abc', /^limit must be a whole number from 1 to 100/],
    ['?cursor=not-a-cursor', /^cursor is not valid/],
    [
      `?cursor=${Buffer.from(JSON.stringify({ mine: 'eyJnc2kxcGsiOiJDUkVBVE9SI290aGVyIiwic2siOiJ4IiwicGsiOiJ5IiwiZ3NpMXNrIjoieiJ9' })).toString('base64url')}`,
      /^cursor is not valid/,
    ],
  ])('bad query %s: 400', async (query, message) => {
    const response = await listKnaps(api.url, token, query);
    expect(response.status).toBe(400);
    expect((await json(response)).detail).toMatch(message);
  });
});
