/** Focused tests of nextRunAt on hand-built schedules; expected instants worked out by hand. */
import { nextRunAt, nextRunOrNull, runSearch, ScheduleError, type ScheduleInfo } from '../../../shared/schedules/index.js';
import { scheduleInfo as info } from '../../support/schedule-info.js';

const at = (iso: string) => new Date(iso);
const next = (i: ScheduleInfo, after: string) => nextRunAt(i, at(after)).toISOString();

/** Follows a schedule run after run, from `after`. */
function runs(i: ScheduleInfo, after: string, count: number): string[] {
  const out: string[] = [];
  let cursor = at(after);
  for (let k = 0; k < count; k++) {
    cursor = nextRunAt(i, cursor);
    out.push(cursor.toISOString());
  }
  return out;
}

describe('nextRunAt: strictly after', () => {
  const daily = info({});

  test('a run exactly at `after` is not returned', () => {
    expect(next(daily, '2026-03-04T09:00:00.000Z')).toBe('2026-03-05T09:00:00.000Z');
  });

  test('one millisecond before a run returns that run', () => {
    expect(next(daily, '2026-03-04T08:59:59.999Z')).toBe('2026-03-04T09:00:00.000Z');
  });

  test('runs always land on whole minutes', () => {
    expect(next(info({ schedule_time: '17:45' }), '2026-03-04T17:44:30.500Z')).toBe('2026-03-04T17:45:00.000Z');
  });
});

describe('nextRunAt: daylight saving time', () => {
  const ny = (time: string) => info({ schedule_time: time, timezone: 'America/New_York' });
  const berlin = (time: string) => info({ schedule_time: time, timezone: 'Europe/Berlin' });

  test('New York spring-forward: 02:30 does not exist and runs at 03:30 EDT, then 02:30 EDT', () => {
    expect(runs(ny('02:30'), '2026-03-07T12:00:00Z', 3)).toEqual([
      '2026-03-08T07:30:00.000Z',
      '2026-03-09T06:30:00.000Z',
      '2026-03-10T06:30:00.000Z',
    ]);
  });

  test('New York spring-forward: asking from inside the new hour still finds the shifted run', () => {
    // 07:00Z is 03:00 EDT; the 02:30 run was moved to 03:30 EDT, which is still ahead.
    expect(next(ny('02:30'), '2026-03-08T07:00:00Z')).toBe('2026-03-08T07:30:00.000Z');
  });

  test('New York fall-back: 01:30 runs once, at the first (EDT) occurrence', () => {
    expect(runs(ny('01:30'), '2026-10-31T12:00:00Z', 3)).toEqual([
      '2026-11-01T05:30:00.000Z',
      '2026-11-02T06:30:00.000Z',
      '2026-11-03T06:30:00.000Z',
    ]);
  });

  test('New York fall-back: from between the two 01:30s the next run is the next day', () => {
    // 06:00Z is 01:00 EST, i.e. the repeated hour; 01:30 EST must not run again.
    expect(next(ny('01:30'), '2026-11-01T06:00:00Z')).toBe('2026-11-02T06:30:00.000Z');
  });

  test('Berlin spring-forward and fall-back at 02:30', () => {
    expect(next(berlin('02:30'), '2026-03-28T12:00:00Z')).toBe('2026-03-29T01:30:00.000Z');
    expect(runs(berlin('02:30'), '2026-10-24T12:00:00Z', 2)).toEqual(['2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z']);
  });

  test('southern hemisphere: Sydney leaves DST on 2026-04-05, 02:30 runs at the first (AEDT) one', () => {
    const sydney = info({ schedule_time: '02:30', timezone: 'Australia/Sydney' });
    expect(runs(sydney, '2026-04-04T00:00:00Z', 2)).toEqual(['2026-04-04T15:30:00.000Z', '2026-04-05T16:30:00.000Z']);
  });

  test('a 45-minute offset zone (Asia/Kathmandu, UTC+05:45)', () => {
    expect(next(info({ timezone: 'Asia/Kathmandu' }), '2026-03-04T00:00:00Z')).toBe('2026-03-04T03:15:00.000Z');
  });

  test('a negative half-hour zone (America/St_Johns, UTC-03:30)', () => {
    expect(next(info({ timezone: 'America/St_Johns' }), '2026-01-15T00:00:00Z')).toBe('2026-01-15T12:30:00.000Z');
  });

  test('a half-hour DST shift (Australia/Lord_Howe): 01:45 occurs twice on 2026-04-05 and runs at the first', () => {
    const lordHowe = info({ schedule_time: '01:45', timezone: 'Australia/Lord_Howe' });
    expect(runs(lordHowe, '2026-04-04T00:00:00Z', 2)).toEqual(['2026-04-04T14:45:00.000Z', '2026-04-05T15:15:00.000Z']);
  });

  test('a weekly run keeps its local time across the change', () => {
    const sundays = info({ schedule_type: 'weekly', days_of_week: [0], timezone: 'America/New_York' });
    expect(runs(sundays, '2026-03-01T00:00:00Z', 2)).toEqual(['2026-03-01T14:00:00.000Z', '2026-03-08T13:00:00.000Z']);
  });
});

describe('nextRunAt: month ends and leap years', () => {
  test('the 31st skips months without one', () => {
    const the31st = info({ schedule_type: 'monthly', days_of_month: [31] });
    expect(runs(the31st, '2026-04-01T00:00:00Z', 4)).toEqual([
      '2026-05-31T09:00:00.000Z',
      '2026-07-31T09:00:00.000Z',
      '2026-08-31T09:00:00.000Z',
      '2026-10-31T09:00:00.000Z',
    ]);
  });

  test('the last day of the month (-1) never skips', () => {
    const last = info({ schedule_type: 'monthly', days_of_month: [-1] });
    expect(runs(last, '2027-01-31T10:00:00Z', 4)).toEqual([
      '2027-02-28T09:00:00.000Z',
      '2027-03-31T09:00:00.000Z',
      '2027-04-30T09:00:00.000Z',
      '2027-05-31T09:00:00.000Z',
    ]);
    expect(next(last, '2028-02-01T00:00:00Z')).toBe('2028-02-29T09:00:00.000Z');
  });

  test('February 29 runs only in leap years, and not in 2100', () => {
    const leapDay = info({ schedule_type: 'yearly', months_of_year: [2], days_of_month: [29] });
    expect(next(leapDay, '2028-02-29T09:00:00Z')).toBe('2032-02-29T09:00:00.000Z');
    expect(next(leapDay, '2096-02-29T09:00:00Z')).toBe('2104-02-29T09:00:00.000Z');
  });

  test('a fifth weekday skips months that lack one', () => {
    const fifthFriday = info({ schedule_type: 'monthly', days_of_week: [5], weeks_of_month: [5] });
    // April 2026 has Fridays 3, 10, 17, 24; May 2026 starts on a Friday.
    expect(next(fifthFriday, '2026-04-01T00:00:00Z')).toBe('2026-05-29T09:00:00.000Z');
  });

  test('the last Monday of February 2027 is the 22nd', () => {
    const lastMonday = info({ schedule_type: 'monthly', days_of_week: [1], weeks_of_month: [-1] });
    expect(next(lastMonday, '2027-02-01T00:00:00Z')).toBe('2027-02-22T09:00:00.000Z');
  });

  test('year end rolls into January', () => {
    expect(next(info({ schedule_time: '00:00' }), '2026-12-31T23:59:59Z')).toBe('2027-01-01T00:00:00.000Z');
  });
});

describe('nextRunAt: intervals keep their anchor', () => {
  test('every 3 days', () => {
    const i = info({ interval: 3, anchor_date: '2026-03-05' });
    expect(runs(i, '2026-03-05T09:00:00Z', 2)).toEqual(['2026-03-08T09:00:00.000Z', '2026-03-11T09:00:00.000Z']);
    expect(next(i, '2026-03-06T00:00:00Z')).toBe('2026-03-08T09:00:00.000Z');
  });

  test('every 2 weeks on Monday and Thursday, anchored on a Thursday', () => {
    const i = info({ schedule_type: 'weekly', days_of_week: [1, 4], interval: 2, anchor_date: '2026-03-05' });
    // ISO weeks: 2-8 March (runs Thu 5), 9-15 skipped, 16-22 runs Mon 16 and Thu 19, 23-29 skipped.
    expect(runs(i, '2026-03-05T09:00:00Z', 3)).toEqual([
      '2026-03-16T09:00:00.000Z',
      '2026-03-19T09:00:00.000Z',
      '2026-03-30T09:00:00.000Z',
    ]);
  });

  test('nothing runs before the anchor, even in the anchor week', () => {
    const i = info({ schedule_type: 'weekly', days_of_week: [1, 4], interval: 2, anchor_date: '2026-03-05' });
    expect(next(i, '2026-03-01T00:00:00Z')).toBe('2026-03-05T09:00:00.000Z');
  });

  test('every 2 months on the 31st skips months without one but keeps the parity', () => {
    const i = info({ schedule_type: 'monthly', days_of_month: [31], interval: 2, anchor_date: '2026-05-31' });
    // May, Jul, Sep (30 days), Nov (30 days), Jan.
    expect(runs(i, '2026-05-31T09:00:00Z', 2)).toEqual(['2026-07-31T09:00:00.000Z', '2027-01-31T09:00:00.000Z']);
  });

  test('every 2 years on March 3', () => {
    const i = info({ schedule_type: 'yearly', months_of_year: [3], days_of_month: [3], interval: 2, anchor_date: '2027-03-03' });
    expect(next(i, '2027-03-03T09:00:00Z')).toBe('2029-03-03T09:00:00.000Z');
  });

  test('every other Sunday across the New York fall-back', () => {
    const i = info({
      schedule_type: 'weekly',
      days_of_week: [0],
      schedule_time: '01:30',
      timezone: 'America/New_York',
      interval: 2,
      anchor_date: '2026-11-01',
    });
    expect(runs(i, '2026-10-31T12:00:00Z', 2)).toEqual(['2026-11-01T05:30:00.000Z', '2026-11-15T06:30:00.000Z']);
  });
});

describe('nextRunAt: invalid schedules are ScheduleErrors', () => {
  test.each<[string, Partial<ScheduleInfo>]>([
    ['bad time', { schedule_time: '25:00' }],
    ['time without padding', { schedule_time: '9:00' }],
    ['unknown zone', { timezone: 'Mars/Olympus' }],
    ['interval without anchor', { interval: 2 }],
    ['bad anchor', { interval: 2, anchor_date: '2026-02-30' }],
    ['zero interval', { interval: 0 }],
    ['weekly without days', { schedule_type: 'weekly' }],
    ['monthly without days', { schedule_type: 'monthly' }],
    ['yearly without months', { schedule_type: 'yearly', days_of_month: [1] }],
    ['day of week out of range', { schedule_type: 'weekly', days_of_week: [7] }],
    ['day of month out of range', { schedule_type: 'monthly', days_of_month: [32] }],
    ['weeks without weekdays', { schedule_type: 'monthly', weeks_of_month: [1] }],
    ['unknown type', { schedule_type: 'fortnightly' as ScheduleInfo['schedule_type'] }],
  ])('%s', (_name, x) => {
    expect(() => nextRunAt(info(x), at('2026-03-04T00:00:00Z'))).toThrow(ScheduleError);
  });

  test('an invalid Date', () => {
    expect(() => nextRunAt(info({}), new Date('not a date'))).toThrow(ScheduleError);
  });

  test('a schedule that can never run', () => {
    const never = info({ schedule_type: 'yearly', months_of_year: [2], days_of_month: [30] });
    expect(() => nextRunAt(never, at('2026-03-04T00:00:00Z'))).toThrow(ScheduleError);
  });
});

describe('runSearch: nextRunAt compiled once', () => {
  const schedules: ScheduleInfo[] = [
    info({ schedule_type: 'weekly', days_of_week: [1, 2, 3, 4, 5], timezone: 'Europe/Berlin' }),
    info({ schedule_type: 'monthly', days_of_week: [1], weeks_of_month: [1], schedule_time: '08:30', timezone: 'Asia/Tokyo' }),
    info({ schedule_type: 'minutely', schedule_time: '00:00', end_time: null, interval: 15, timezone: 'America/New_York' }),
    info({ schedule_type: 'yearly', months_of_year: [2], days_of_month: [29], interval: 3, anchor_date: '2028-02-29' }),
  ];

  test.each(schedules)('the same runs, one after another, as nextRunAt ($schedule_type)', (schedule) => {
    const nextRun = runSearch(schedule);
    let cursor = at('2026-03-07T12:00:00Z');
    for (let k = 0; k < 40; k += 1) {
      const run = nextRun(cursor);
      expect(run).toEqual(nextRunAt(schedule, cursor));
      cursor = run;
    }
  });

  test('a malformed schedule_info is refused when the search is made', () => {
    expect(() => runSearch(info({ schedule_time: '25:00' }))).toThrow(ScheduleError);
  });

  test('an invalid Date, or no run for centuries, as nextRunAt', () => {
    expect(() => runSearch(info({}))(new Date('not a date'))).toThrow(ScheduleError);
    const never = info({ schedule_type: 'yearly', months_of_year: [2], days_of_month: [30] });
    expect(() => runSearch(never)(at('2026-03-04T00:00:00Z'))).toThrow(ScheduleError);
  });
});

describe('nextRunAt: several times a day (issue 46, schedule_times)', () => {
  const times = (list: string[], x: Partial<ScheduleInfo> = {}) =>
    info({ schedule_time: list[0] as string, schedule_times: list, ...x });

  test('each time of each day, in order', () => {
    expect(runs(times(['09:00', '17:00']), '2026-03-04T10:00:00Z', 4)).toEqual([
      '2026-03-04T17:00:00.000Z',
      '2026-03-05T09:00:00.000Z',
      '2026-03-05T17:00:00.000Z',
      '2026-03-06T09:00:00.000Z',
    ]);
  });

  test('on the days the other fields allow: weekdays, Friday to Monday', () => {
    const weekdays = times(['09:00', '17:00'], { schedule_type: 'weekly', days_of_week: [1, 2, 3, 4, 5] });
    expect(runs(weekdays, '2026-03-06T10:00:00Z', 3)).toEqual([
      '2026-03-06T17:00:00.000Z',
      '2026-03-09T09:00:00.000Z',
      '2026-03-09T17:00:00.000Z',
    ]);
  });

  test('New York springs forward: 02:30 runs at 03:30 EDT, after 03:00 EDT, and each runs once', () => {
    const ny = times(['01:30', '02:30', '03:00'], { timezone: 'America/New_York' });
    expect(runs(ny, '2026-03-08T05:00:00Z', 4)).toEqual([
      '2026-03-08T06:30:00.000Z', // 01:30 EST
      '2026-03-08T07:00:00.000Z', // 03:00 EDT
      '2026-03-08T07:30:00.000Z', // 02:30, moved past the gap: 03:30 EDT
      '2026-03-09T05:30:00.000Z', // 01:30 EDT
    ]);
  });

  test('two times that land on one instant in the gap run once', () => {
    const ny = times(['02:30', '03:30'], { timezone: 'America/New_York' });
    expect(runs(ny, '2026-03-08T05:00:00Z', 2)).toEqual(['2026-03-08T07:30:00.000Z', '2026-03-09T06:30:00.000Z']);
  });

  test('Berlin falls back: 02:30 runs at its first instant only, then 03:30 CET', () => {
    const berlin = times(['02:30', '03:30'], { timezone: 'Europe/Berlin' });
    expect(runs(berlin, '2026-10-24T23:00:00Z', 3)).toEqual([
      '2026-10-25T00:30:00.000Z', // 02:30 CEST
      '2026-10-25T02:30:00.000Z', // 03:30 CET; not 02:30 CET (01:30Z)
      '2026-10-26T01:30:00.000Z',
    ]);
  });

  test('an interval counts days from the anchor, each with all its times', () => {
    const everyOther = times(['09:00', '21:00'], { interval: 2, anchor_date: '2026-03-04' });
    expect(runs(everyOther, '2026-03-04T10:00:00Z', 3)).toEqual([
      '2026-03-04T21:00:00.000Z',
      '2026-03-06T09:00:00.000Z',
      '2026-03-06T21:00:00.000Z',
    ]);
  });

  test('a stored schedule_info without schedule_times (every Knap before issue 46) runs as before', () => {
    const stored = info({ schedule_time: '09:00' });
    delete (stored as Partial<ScheduleInfo>).schedule_times;
    expect(next(stored, '2026-03-04T10:00:00Z')).toBe('2026-03-05T09:00:00.000Z');
    expect(next({ ...stored, schedule_times: null } as unknown as ScheduleInfo, '2026-03-04T10:00:00Z')).toBe(
      '2026-03-05T09:00:00.000Z',
    );
  });

  test.each<[Partial<ScheduleInfo>, string]>([
    [{ schedule_times: ['09:00'] }, 'at least two'],
    [{ schedule_times: ['17:00', '09:00'] }, 'ascending'],
    [{ schedule_times: ['09:00', '09:00'] }, 'ascending'],
    [{ schedule_times: ['09:00', '25:00'] }, 'HH:MM'],
    [{ schedule_time: '08:00', schedule_times: ['09:00', '17:00'] }, 'first of schedule_times'],
    [{ schedule_type: 'hourly', end_time: null, schedule_times: ['00:00', '12:00'], schedule_time: '00:00' }, 'daily to yearly'],
  ])('refuses a malformed schedule_times: %j', (x, detail) => {
    expect(() => nextRunAt(info(x), at('2026-03-04T10:00:00Z'))).toThrow(ScheduleError);
    expect(() => nextRunAt(info(x), at('2026-03-04T10:00:00Z'))).toThrow(detail);
  });
});

describe('nextRunAt: working days of the month (issue 46, set_positions)', () => {
  const WORKWEEK = [1, 2, 3, 4, 5];
  const positions = (set_positions: number[], x: Partial<ScheduleInfo> = {}) =>
    info({ schedule_type: 'monthly', days_of_week: WORKWEEK, set_positions, ...x });

  // 2026: 1 Aug is a Saturday, 31 May a Sunday, 1 Nov a Sunday, 31 Oct a Saturday.
  test('the first business day skips a weekend at the start of the month', () => {
    expect(runs(positions([1]), '2026-07-15T00:00:00Z', 4)).toEqual([
      '2026-08-03T09:00:00.000Z',
      '2026-09-01T09:00:00.000Z',
      '2026-10-01T09:00:00.000Z',
      '2026-11-02T09:00:00.000Z',
    ]);
  });

  test('the last business day skips a weekend at the end of the month', () => {
    expect(runs(positions([-1]), '2026-05-01T00:00:00Z', 6)).toEqual([
      '2026-05-29T09:00:00.000Z',
      '2026-06-30T09:00:00.000Z',
      '2026-07-31T09:00:00.000Z',
      '2026-08-31T09:00:00.000Z',
      '2026-09-30T09:00:00.000Z',
      '2026-10-30T09:00:00.000Z',
    ]);
  });

  test('first and last, within the months given', () => {
    expect(runs(positions([1, -1], { months_of_year: [2] }), '2027-01-01T00:00:00Z', 3)).toEqual([
      '2027-02-01T09:00:00.000Z', // 1 February 2027 is a Monday
      '2027-02-26T09:00:00.000Z', // 28 February 2027 is a Sunday
      '2028-02-01T09:00:00.000Z',
    ]);
  });

  test('a position a month lacks is skipped (the 23rd weekday: 23 weekdays in a month)', () => {
    // March 2026 has 22 weekdays, April 22, June 22; July 2026 has 23: its last, Friday the 31st.
    expect(next(positions([23]), '2026-03-01T00:00:00Z')).toBe('2026-07-31T09:00:00.000Z');
  });

  test('every 2 months from the anchor', () => {
    expect(runs(positions([1], { interval: 2, anchor_date: '2026-04-01' }), '2026-03-04T10:00:00Z', 3)).toEqual([
      '2026-04-01T09:00:00.000Z',
      '2026-06-01T09:00:00.000Z',
      '2026-08-03T09:00:00.000Z',
    ]);
  });

  test('New York falls back on Sunday 1 November: the first weekend day at 01:30 runs once, at 01:30 EDT', () => {
    const weekend = info({
      schedule_type: 'monthly',
      days_of_week: [0, 6],
      set_positions: [1],
      schedule_time: '01:30',
      timezone: 'America/New_York',
    });
    expect(runs(weekend, '2026-10-20T00:00:00Z', 2)).toEqual(['2026-11-01T05:30:00.000Z', '2026-12-05T06:30:00.000Z']);
  });

  test.each<[Partial<ScheduleInfo>, string]>([
    [{ schedule_type: 'monthly', set_positions: [1], days_of_month: [1] }, 'set_positions needs days_of_week'],
    [{ schedule_type: 'monthly', days_of_week: WORKWEEK, set_positions: [0] }, 'set_positions'],
    [{ schedule_type: 'monthly', days_of_week: WORKWEEK, set_positions: [] }, 'set_positions'],
    [{ schedule_type: 'monthly', days_of_week: WORKWEEK, set_positions: [32] }, 'set_positions'],
  ])('refuses a malformed set_positions: %j', (x, detail) => {
    expect(() => nextRunAt(info(x), at('2026-03-04T10:00:00Z'))).toThrow(detail);
  });
});

describe('nextRunAt: one-off runs and ends (issue 46)', () => {
  const once = info({ schedule_type: 'once', anchor_date: '2026-03-06', schedule_time: '15:00' });

  test('a once schedule runs on its date, then never again', () => {
    expect(next(once, '2026-03-04T10:00:00Z')).toBe('2026-03-06T15:00:00.000Z');
    expect(nextRunOrNull(once, at('2026-03-06T15:00:00Z'))).toBeNull();
    expect(() => nextRunAt(once, at('2026-03-06T15:00:00Z'))).toThrow('This schedule has ended');
    // Reactivated a year later: still no run.
    expect(nextRunOrNull(once, at('2027-03-06T00:00:00Z'))).toBeNull();
  });

  test('a once schedule with several times runs each, in its zone, across a DST change', () => {
    const ny = info({
      schedule_type: 'once',
      anchor_date: '2026-11-01',
      schedule_time: '01:30',
      schedule_times: ['01:30', '09:00'],
      timezone: 'America/New_York',
    });
    const runs = [nextRunOrNull(ny, at('2026-10-31T00:00:00Z'))];
    runs.push(nextRunOrNull(ny, runs[0] as Date));
    runs.push(nextRunOrNull(ny, runs[1] as Date));
    expect(runs.map((r) => r?.toISOString() ?? null)).toEqual(['2026-11-01T05:30:00.000Z', '2026-11-01T14:00:00.000Z', null]);
  });

  test('until is inclusive, and no run comes after it', () => {
    const daily = info({ until: '2026-03-06T09:00:00Z' });
    expect(runs(daily, '2026-03-04T10:00:00Z', 2)).toEqual(['2026-03-05T09:00:00.000Z', '2026-03-06T09:00:00.000Z']);
    expect(nextRunOrNull(daily, at('2026-03-06T09:00:00Z'))).toBeNull();
    expect(nextRunOrNull(daily, at('2030-01-01T00:00:00Z'))).toBeNull();
  });

  test('an hourly schedule stops at its until, within the day', () => {
    const hourly = info({ schedule_type: 'hourly', schedule_time: '00:00', end_time: null, until: '2026-03-04T12:30:00Z' });
    expect(next(hourly, '2026-03-04T11:00:00Z')).toBe('2026-03-04T12:00:00.000Z');
    expect(nextRunOrNull(hourly, at('2026-03-04T12:00:00Z'))).toBeNull();
  });

  test('a stored schedule_info without until or count (every Knap before issue 46) never ends', () => {
    expect(next(info({}), '2300-01-01T00:00:00Z')).toBe('2300-01-01T09:00:00.000Z');
  });

  test.each<[Partial<ScheduleInfo>, string]>([
    [{ schedule_type: 'once', anchor_date: null }, 'anchor_date'],
    [{ schedule_type: 'once', anchor_date: '2026-03-06', days_of_week: [1] }, 'no day fields'],
    [{ schedule_type: 'once', anchor_date: '2026-03-06', interval: 2 }, 'interval 1'],
    [{ until: '31 December 2026' }, 'until must be an ISO 8601 UTC instant'],
    [{ until: '2026-12-31T23:59:59Z', count: 0 }, 'count must be a positive integer'],
  ])('refuses a malformed end or one-off: %j', (x, detail) => {
    expect(() => nextRunAt(info(x), at('2026-03-04T10:00:00Z'))).toThrow(detail);
  });
});

describe('nextRunAt: windows across midnight (issue 46)', () => {
  const night = (x: Partial<ScheduleInfo> = {}) =>
    info({ schedule_type: 'hourly', schedule_time: '21:00', end_time: '02:00', ...x });

  test('the evening, then the small hours of the next day, then the next evening', () => {
    expect(runs(night(), '2026-03-04T20:30:00Z', 7)).toEqual([
      '2026-03-04T21:00:00.000Z',
      '2026-03-04T22:00:00.000Z',
      '2026-03-04T23:00:00.000Z',
      '2026-03-05T00:00:00.000Z',
      '2026-03-05T01:00:00.000Z',
      '2026-03-05T02:00:00.000Z',
      '2026-03-05T21:00:00.000Z',
    ]);
  });

  test('the small hours belong to the day the window starts on', () => {
    const fridays = night({ days_of_week: [5] });
    // Thursday 5 March 00:30: Wednesday's window, not a Friday's.
    expect(next(fridays, '2026-03-05T00:30:00Z')).toBe('2026-03-06T21:00:00.000Z');
    // Saturday 7 March 00:30: Friday's window goes on.
    expect(next(fridays, '2026-03-07T00:30:00Z')).toBe('2026-03-07T01:00:00.000Z');
  });

  test('a step that does not land on midnight keeps its pace across it', () => {
    const every90 = info({ schedule_type: 'minutely', schedule_time: '22:00', end_time: '03:00', interval: 90 });
    expect(runs(every90, '2026-03-04T21:00:00Z', 5)).toEqual([
      '2026-03-04T22:00:00.000Z',
      '2026-03-04T23:30:00.000Z',
      '2026-03-05T01:00:00.000Z',
      '2026-03-05T02:30:00.000Z',
      '2026-03-05T22:00:00.000Z',
    ]);
  });

  test('New York falls back in the window: 01:00 runs twice (EDT, then EST), as hourly series do', () => {
    const ny = night({ timezone: 'America/New_York' });
    expect(runs(ny, '2026-11-01T04:30:00Z', 4)).toEqual([
      '2026-11-01T05:00:00.000Z', // 01:00 EDT
      '2026-11-01T06:00:00.000Z', // 01:00 EST
      '2026-11-01T07:00:00.000Z', // 02:00 EST
      '2026-11-02T02:00:00.000Z', // 21:00 EST
    ]);
  });
});
