/**
 * Issue 23, defects 5 and 8, over HTTP on the local server: an inactive Knap has no next run
 * (and old items that kept one read as null); a tool_metadata member named `__proto__` is refused
 * and never touches other fields; a schedule preview stops at its 100-year horizon.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dispatchDueRuns } from '../../shared/services/dispatcher.js';
import { key } from '../../shared/store/keys.js';
import { bearer, createKnap, listKnaps, startTestApi, type TestApi, tokenAt } from '../support/api.js';
import { body as json } from '../support/json.js';

let api: TestApi;
let client: { clientId: string; clientSecret: string };
let token = '';

const clockAt = async (time: string) => {
  token = await tokenAt(api, client, time);
};

beforeAll(async () => {
  api = await startTestApi();
  client = await api.newClient({ orgName: 'acme', rateLimit: 10_000 });
  await clockAt('2026-11-23T10:00:05Z'); // a Monday
});
afterAll(() => api.close());

const knapUrl = (uuid: string) => `${api.url}/api/studio/knap-tools/${uuid}`;
const getKnap = (uuid: string) => fetch(knapUrl(uuid), { headers: bearer(token) });
/** `patch` as raw JSON text when a string: a `__proto__` member must reach the server as sent. */
const patchKnap = (uuid: string, patch: unknown) =>
  fetch(knapUrl(uuid), {
    method: 'PATCH',
    headers: { ...bearer(token), 'content-type': 'application/merge-patch+json' },
    body: typeof patch === 'string' ? patch : JSON.stringify(patch),
  });
const newKnap = async (body: unknown) => {
  const response = await createKnap(api.url, token, body);
  expect(response.status).toBe(201);
  return json(response);
};
const itemOf = (uuid: string) => api.table.item(key.knap('acme', uuid));
const listed = async (uuid: string) =>
  (await json(await listKnaps(api.url, token, '?limit=100'))).my_knaps.find((knap: { uuid: string }) => knap.uuid === uuid);

const daily = (extra: Record<string, unknown> = {}) => ({
  name: 'Daily',
  schedule_type: 'scheduled',
  tool_metadata: { schedule_description: 'every day at 11am' },
  ...extra,
});

describe('defect 5: an inactive Knap has next_run_at null; activated, it is recomputed from now', () => {
  test('created inactive: schedule_info parsed, next_run_at null, not in the due index', async () => {
    await clockAt('2026-11-23T10:00:05Z');
    const knap = await newKnap(daily({ is_active: false }));
    expect(knap.is_active).toBe(false);
    expect(knap.schedule_info).toMatchObject({ schedule_type: 'daily', schedule_time: '11:00' });
    expect(knap.next_run_at).toBeNull();
    expect((await json(await getKnap(knap.uuid))).next_run_at).toBeNull();
    expect((await listed(knap.uuid)).next_run_at).toBeNull();
    const item = await itemOf(knap.uuid);
    expect(item?.gsi3pk).toBeUndefined();

    await clockAt('2026-11-25T12:00:00Z');
    const active = await json(await patchKnap(knap.uuid, { is_active: true }));
    expect(active.next_run_at).toBe('2026-11-26T11:00:00Z');
    expect((await itemOf(knap.uuid))?.gsi3sk).toBe(`2026-11-26T11:00:00Z#${knap.uuid}`);
  });

  test('deactivated by a PATCH: null and out of the due index; a new description keeps it null', async () => {
    await clockAt('2026-11-26T10:00:00Z');
    const knap = await newKnap(daily());
    expect(knap.next_run_at).toBe('2026-11-26T11:00:00Z');
    expect((await itemOf(knap.uuid))?.gsi3pk).toEqual(expect.any(String));

    const paused = await json(await patchKnap(knap.uuid, { is_active: false }));
    expect(paused).toMatchObject({ is_active: false, next_run_at: null });
    expect(paused.schedule_info).toEqual(knap.schedule_info);
    expect((await json(await getKnap(knap.uuid))).next_run_at).toBeNull();
    const item = await itemOf(knap.uuid);
    expect(item?.next_run_at ?? null).toBeNull();
    expect(item?.gsi3pk).toBeUndefined();

    const moved = await json(await patchKnap(knap.uuid, { tool_metadata: { schedule_description: 'every day at 3pm' } }));
    expect(moved.schedule_info).toMatchObject({ schedule_time: '15:00' });
    expect(moved.next_run_at).toBeNull();

    await clockAt('2026-11-30T16:00:00Z');
    await dispatchDueRuns(api.deps);
    expect((await json(await fetch(`${knapUrl(knap.uuid)}/runs`, { headers: bearer(token) }))).runs).toEqual([]);
    const resumed = await json(await patchKnap(knap.uuid, { is_active: true }));
    expect(resumed.next_run_at).toBe('2026-12-01T15:00:00Z');
  });

  test('an item stored inactive with a past next_run_at (before the fix) reads as null everywhere', async () => {
    await clockAt('2026-12-01T10:00:00Z');
    const knap = await newKnap(daily());
    expect(knap.next_run_at).toBe('2026-12-01T11:00:00Z');
    // What a PATCH { is_active: false } used to write: the item left the due index, its next_run_at stayed.
    await api.table.documents.send(
      new UpdateCommand({
        TableName: api.table.tableName,
        Key: key.knap('acme', knap.uuid),
        UpdateExpression: 'SET is_active = :false REMOVE gsi3pk, gsi3sk',
        ExpressionAttributeValues: { ':false': false },
      }),
    );
    await clockAt('2026-12-09T10:00:00Z');
    expect((await json(await getKnap(knap.uuid))).next_run_at).toBeNull();
    expect((await listed(knap.uuid)).next_run_at).toBeNull();

    const renamed = await json(await patchKnap(knap.uuid, { name: 'Still paused' }));
    expect(renamed).toMatchObject({ name: 'Still paused', is_active: false, next_run_at: null });
    expect((await itemOf(knap.uuid))?.next_run_at ?? null).toBeNull();

    const resumed = await json(await patchKnap(knap.uuid, { is_active: true }));
    expect(resumed.next_run_at).toBe('2026-12-09T11:00:00Z');
    expect((await itemOf(knap.uuid))?.gsi3sk).toBe(`2026-12-09T11:00:00Z#${knap.uuid}`);
  });
});

describe('defect 8: a tool_metadata member named __proto__ is refused, at any depth, on create and PATCH', () => {
  const refused = async (response: Response) => {
    expect(response.status).toBe(400);
    const answer = await json(response);
    expect(Object.keys(answer)).toEqual(['detail']);
    expect(answer.detail).toContain('__proto__');
    return answer.detail as string;
  };

  test('create: 400 {"detail"} and nothing stored', async () => {
    await clockAt('2026-12-10T10:00:00Z');
    const before = (await json(await listKnaps(api.url, token, '?limit=100'))).my_knaps.length;
    expect(
      await refused(
        await createKnap(
          api.url,
          token,
          '{"name": "Proto", "tool_metadata": {"__proto__": {"action_description": "x"}, "a": 1}}',
        ),
      ),
    ).toBe('tool_metadata must not have a member named "__proto__" (at tool_metadata.__proto__)');
    expect(
      await refused(await createKnap(api.url, token, '{"name": "Proto", "tool_metadata": {"extra": [{"__proto__": 1}]}}')),
    ).toBe('tool_metadata must not have a member named "__proto__" (at tool_metadata.extra.0.__proto__)');
    await refused(
      await createKnap(
        api.url,
        token,
        '{"name": "Proto", "schedule_type": "scheduled", "tool_metadata": {"__proto__": {"schedule_description": "daily"}}}',
      ),
    );
    expect((await json(await listKnaps(api.url, token, '?limit=100'))).my_knaps).toHaveLength(before);
  });

  test('PATCH: 400, and the Knap keeps its schedule, metadata and ETag', async () => {
    const knap = await newKnap(daily({ tool_metadata: { schedule_description: 'every day at 11am', nested: { a: 1 } } }));
    const etag = (await getKnap(knap.uuid)).headers.get('etag');
    // Merged as a prototype, this one used to move the Knap to Berlin time and reschedule it.
    await refused(await patchKnap(knap.uuid, '{"tool_metadata": {"__proto__": {"timezone": "Europe/Berlin"}}}'));
    await refused(await patchKnap(knap.uuid, '{"tool_metadata": {"__proto__": {"schedule_description": "every day at 5pm"}}}'));
    await refused(await patchKnap(knap.uuid, '{"tool_metadata": {"nested": {"__proto__": {"b": 2}}}}'));
    await refused(await patchKnap(knap.uuid, '{"tool_metadata": {"__proto__": null}}'));
    const after = await getKnap(knap.uuid);
    expect(after.headers.get('etag')).toBe(etag);
    expect(await json(after)).toEqual(knap);
  });

  test('PATCH: a schedule hidden in __proto__ never schedules a manual Knap', async () => {
    const knap = await newKnap({ name: 'Manual' });
    // This one used to answer 200 with a Knap scheduled every day at 17:00.
    await refused(
      await patchKnap(
        knap.uuid,
        '{"schedule_type": "scheduled", "tool_metadata": {"__proto__": {"schedule_description": "every day at 5pm"}}}',
      ),
    );
    expect(await json(await getKnap(knap.uuid))).toEqual(knap);
  });

  test('members named constructor and prototype are ordinary data: kept on create, merged by PATCH', async () => {
    const knap = await newKnap({
      name: 'Plain data',
      tool_metadata: { constructor: 'Ada', prototype: { version: 2 }, toString: 'text', hasOwnProperty: false },
    });
    expect(knap.tool_metadata).toEqual({
      constructor: 'Ada',
      prototype: { version: 2 },
      toString: 'text',
      hasOwnProperty: false,
    });
    const patched = await json(await patchKnap(knap.uuid, { tool_metadata: { constructor: null, prototype: { draft: true } } }));
    expect(patched.tool_metadata).toEqual({ prototype: { version: 2, draft: true }, toString: 'text', hasOwnProperty: false });
    expect(await json(await getKnap(knap.uuid))).toEqual(patched);
  });

  test('a __proto__ field at the top of a create body is refused like any unknown field', async () => {
    const response = await createKnap(
      api.url,
      token,
      '{"name": "Top", "__proto__": {"is_active": false, "visibility": "public"}}',
    );
    expect(response.status).toBe(400);
    expect((await json(response)).detail).toMatch(/^Unknown field "__proto__"/);
  });
});

describe('defect 8: a schedule preview stops at its 100-year horizon', () => {
  const preview = (body: unknown) =>
    fetch(`${api.url}/api/studio/schedules/preview`, {
      method: 'POST',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  const FOUR_DIGIT_YEAR = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

  test('runs beyond 100 years from now are left out, never a year like +011860', async () => {
    await clockAt('2026-12-10T10:00:00Z');
    const response = await preview({ schedule_description: 'every 5 years on the fifth Wednesday of February', count: 50 });
    expect(response.status).toBe(200);
    const body = await json(response);
    // Leap years whose February has five Wednesdays, 5 years apart: 2040, then 2260.
    expect(body.next_runs).toEqual(['2040-02-29T09:00:00Z']);
    expect(body.schedule_info).toMatchObject({ schedule_type: 'yearly', interval: 5, anchor_date: '2040-02-29' });
  });

  test('fewer runs than count come back; every one within the horizon, with a 4-digit year', async () => {
    const body = await json(await preview({ schedule_description: 'every year on Feb 29', count: 50 }));
    // 2028 ... 2096, then 2104 ... 2124: 2100 is no leap year, 2128 is past 2126-12-10.
    expect(body.next_runs).toHaveLength(24);
    expect(body.next_runs[0]).toBe('2028-02-29T09:00:00Z');
    expect(body.next_runs.at(-1)).toBe('2124-02-29T09:00:00Z');
    for (const run of body.next_runs) expect(run).toMatch(FOUR_DIGIT_YEAR);
  });

  test('a schedule whose later runs are centuries away is previewed, not refused', async () => {
    // After 2072 the next fifth Monday of February 7 years apart lies more than 400 years on.
    const response = await preview({ schedule_description: 'every 7 years on the fifth Monday of February', count: 5 });
    expect(response.status).toBe(200);
    expect((await json(response)).next_runs).toEqual(['2044-02-29T09:00:00Z', '2072-02-29T09:00:00Z']);
  });

  test('ordinary schedules still give count runs', async () => {
    const body = await json(await preview({ schedule_description: 'every day at 8am', count: 50 }));
    expect(body.next_runs).toHaveLength(50);
    expect(body.next_runs[0]).toBe('2026-12-11T08:00:00Z');
  });
});
