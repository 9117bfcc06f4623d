/**
 * Hourly and minutely Knaps over HTTP (issue 9, family 1): created, read back, previewed, and
 * advanced by the dispatcher one interval at a time, on the local server with a moved clock.
 */
import { dispatchDueRuns } from '../../shared/services/dispatcher.js';
import { bearer, createKnap, startTestApi, type TestApi, tokenAt } from '../support/api.js';
import { body as json } from '../support/json.js';
import { scheduleInfo } from '../support/schedule-info.js';

let api: TestApi;
let client: { clientId: string; clientSecret: string };
let token = '';

const clockAt = async (time: string) => {
  token = await tokenAt(api, client, time);
};

beforeAll(async () => {
  api = await startTestApi();
  client = await api.newClient({ orgName: 'hourly', rateLimit: 100_000 });
  await clockAt('2026-03-04T10:00:05Z'); // a Wednesday
});
afterAll(() => api.close());

const scheduled = (description: string, timezone?: string) => ({
  name: description,
  schedule_type: 'scheduled',
  tool_metadata: { schedule_description: description, ...(timezone ? { timezone } : {}) },
});
const newKnap = async (description: string, timezone?: string) => {
  const response = await createKnap(api.url, token, scheduled(description, timezone));
  expect(response.status).toBe(201);
  return await json(response);
};
const getKnap = async (uuid: string) => json(await fetch(`${api.url}/api/studio/knap-tools/${uuid}`, { headers: bearer(token) }));
const runsOf = async (uuid: string) =>
  (await json(await fetch(`${api.url}/api/studio/knap-tools/${uuid}/runs?limit=100`, { headers: bearer(token) }))).runs as Array<{
    scheduled_for: string;
  }>;
const preview = async (body: unknown) =>
  fetch(`${api.url}/api/studio/schedules/preview`, {
    method: 'POST',
    headers: { ...bearer(token), 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

const everyThreeHours = scheduleInfo({
  schedule_type: 'hourly',
  schedule_time: '08:00',
  end_time: '20:00',
  interval: 3,
  timezone: 'Europe/Berlin',
});

describe('hourly Knaps', () => {
  test('created and read back with schedule_type hourly, end_time and the next run', async () => {
    const knap = await newKnap('every 3 hours between 8am and 8pm', 'Europe/Berlin');
    // 11:00 CET is 10:00Z, not after now; 14:00 CET is 13:00Z.
    // rrule (issue 46): from the first run, in Berlin's local time.
    const created = {
      ...everyThreeHours,
      rrule: 'DTSTART;TZID=Europe/Berlin:20260304T140000\nRRULE:FREQ=DAILY;BYHOUR=8,11,14,17,20;BYMINUTE=0;BYSECOND=0',
    };
    expect(knap.schedule_info).toEqual(created);
    expect(knap.next_run_at).toBe('2026-03-04T13:00:00Z');
    const read = await getKnap(knap.uuid);
    expect(read.schedule_info).toEqual(created);
    // end_time right after schedule_time: answers list the fields in the schema's order.
    expect(Object.keys(read.schedule_info as object)).toEqual([
      'schedule_type',
      'schedule_time',
      'end_time',
      'days_of_week',
      'days_of_month',
      'weeks_of_month',
      'months_of_year',
      'interval',
      'timezone',
      'anchor_date',
      'rrule',
    ]);
  });

  test('the dispatcher runs each occurrence and moves next_run_at on by the interval', async () => {
    const knap = await newKnap('every 4 hours');
    expect(knap.next_run_at).toBe('2026-03-04T12:00:00Z');
    await clockAt('2026-03-04T12:00:20Z');
    await dispatchDueRuns(api.deps);
    expect((await getKnap(knap.uuid)).next_run_at).toBe('2026-03-04T16:00:00Z');
    await clockAt('2026-03-04T16:00:20Z');
    await dispatchDueRuns(api.deps);
    expect((await getKnap(knap.uuid)).next_run_at).toBe('2026-03-04T20:00:00Z');
    expect((await runsOf(knap.uuid)).map((r) => r.scheduled_for).sort()).toEqual([
      '2026-03-04T12:00:00Z',
      '2026-03-04T16:00:00Z',
    ]);
  });

  test('a minutely Knap advances by its minutes', async () => {
    await clockAt('2026-03-04T16:05:00Z');
    const knap = await newKnap('every 15 minutes');
    expect(knap.schedule_info).toEqual(
      scheduleInfo({
        schedule_type: 'minutely',
        schedule_time: '00:00',
        end_time: null,
        interval: 15,
        rrule: 'DTSTART:20260304T161500Z\nRRULE:FREQ=MINUTELY;INTERVAL=15',
      }),
    );
    expect(knap.next_run_at).toBe('2026-03-04T16:15:00Z');
    await clockAt('2026-03-04T16:15:30Z');
    await dispatchDueRuns(api.deps);
    expect((await getKnap(knap.uuid)).next_run_at).toBe('2026-03-04T16:30:00Z');
  });

  test('previewed: the runs of one day and the schedule said back', async () => {
    const response = await preview({
      schedule_description: 'every 3 hours between 8am and 8pm',
      timezone: 'Europe/Berlin',
      count: 6,
    });
    expect(response.status).toBe(200);
    expect(await json(response)).toEqual({
      schedule_info: {
        ...everyThreeHours,
        rrule: 'DTSTART;TZID=Europe/Berlin:20260304T200000\nRRULE:FREQ=DAILY;BYHOUR=8,11,14,17,20;BYMINUTE=0;BYSECOND=0',
      },
      // Now 16:15Z (17:15 CET): 20:00 CET, then the next day from 08:00.
      next_runs: [
        '2026-03-04T19:00:00Z',
        '2026-03-05T07:00:00Z',
        '2026-03-05T10:00:00Z',
        '2026-03-05T13:00:00Z',
        '2026-03-05T16:00:00Z',
        '2026-03-05T19:00:00Z',
      ],
      description: 'Every 3 hours from 08:00 to 20:00, Europe/Berlin',
    });
  });

  test('finer than a minute, or a step that does not divide the day: 400 with the reason', async () => {
    for (const [description, detail] of [
      ['every 30 seconds', 'more often than once a minute'],
      ['every 5 hours', 'does not divide the day'],
    ]) {
      const response = await createKnap(api.url, token, scheduled(description as string));
      expect(response.status).toBe(400);
      expect((await json(response)).detail).toContain(detail);
    }
  });
});
