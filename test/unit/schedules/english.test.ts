/** sayScheduleInEnglish: exact sentences, and every sentence read back by the parser. */
import { isDeepStrictEqual } from 'node:util';
import fc from 'fast-check';
import { zoneInWords } from '../../../shared/schedules/english.js';
import {
  describeSchedule,
  nextRunAt,
  parseSchedule,
  ScheduleError,
  type ScheduleInfo,
  SUB_DAILY_KINDS,
  sayScheduleInEnglish,
} from '../../../shared/schedules/index.js';
import { scheduleInfo as info } from '../../support/schedule-info.js';
import { accepted } from './corpus.js';

const RUNS = 20;

/** The next `count` runs after `from`, followed run after run; cut short where none is left. */
function runs(schedule: ScheduleInfo, from: Date, count = RUNS): string[] {
  const out: string[] = [];
  let cursor = from;
  for (let k = 0; k < count; k++) {
    try {
      cursor = nextRunAt(schedule, cursor);
    } catch (err) {
      if (!(err instanceof ScheduleError)) throw err;
      out.push('no further run');
      break;
    }
    out.push(cursor.toISOString());
  }
  return out;
}

/** The parser's reading of the sentence is the same schedule_info, or one with the same runs. */
function expectReadBack(original: ScheduleInfo, back: ScheduleInfo, from: Date): void {
  if (isDeepStrictEqual(back, original)) return;
  expect(runs(back, from)).toEqual(runs(original, from));
}

const weekly = (days: number[], x: Partial<ScheduleInfo> = {}) => info({ schedule_type: 'weekly', days_of_week: days, ...x });
const monthly = (x: Partial<ScheduleInfo>) => info({ schedule_type: 'monthly', ...x });
const yearly = (months: number[], x: Partial<ScheduleInfo>) => info({ schedule_type: 'yearly', months_of_year: months, ...x });

/** Shapes the parser produces, so each sentence must read back too. */
const sentences: Array<[ScheduleInfo, string]> = [
  [info(), 'Every day at 09:00, UTC'],
  [weekly([1, 2, 3, 4, 5], { timezone: 'Europe/Berlin' }), 'Every weekday at 09:00, Europe/Berlin'],
  [weekly([1, 3, 5], { schedule_time: '08:30' }), 'Every Monday, Wednesday and Friday at 08:30, UTC'],
  [
    weekly([1], { schedule_time: '10:00', interval: 2, anchor_date: '2026-11-30' }),
    'Every 2 weeks on Monday at 10:00, starting Monday 30 November 2026, UTC',
  ],
  [
    monthly({ schedule_time: '16:00', days_of_week: [5], weeks_of_month: [-1] }),
    'On the last Friday of every month at 16:00, UTC',
  ],
  [monthly({ days_of_month: [1, 15] }), 'On the 1st and 15th of every month at 09:00, UTC'],
  [monthly({ days_of_month: [-1], schedule_time: '23:59' }), 'On the last day of every month at 23:59, UTC'],
  [yearly([12], { days_of_month: [25] }), 'Every year on 25 December at 09:00, UTC'],
  [info({ months_of_year: [3, 4] }), 'Every day in March and April at 09:00, UTC'],
  [weekly([1], { months_of_year: [4, 5, 6, 7] }), 'Every Monday in April, May, June and July at 09:00, UTC'],
  [weekly([0, 6]), 'Every Saturday and Sunday at 09:00, UTC'],
  [weekly([0, 1, 5, 6]), 'Every Monday, Friday, Saturday and Sunday at 09:00, UTC'],
  [weekly([0, 1, 2, 3, 4, 5, 6]), 'Every Monday, Tuesday, Wednesday, Thursday, Friday, Saturday and Sunday at 09:00, UTC'],
  [
    weekly([1, 2, 3, 4, 5], { interval: 2, anchor_date: '2026-03-05' }),
    'Every 2 weeks on weekdays at 09:00, starting Thursday 5 March 2026, UTC',
  ],
  [monthly({ days_of_month: [1, 15, -1] }), 'On the 1st, 15th and last day of every month at 09:00, UTC'],
  [
    monthly({ days_of_month: [2, 3, 11, 12, 13, 21, 22, 23, 31] }),
    'On the 2nd, 3rd, 11th, 12th, 13th, 21st, 22nd, 23rd and 31st of every month at 09:00, UTC',
  ],
  [
    monthly({ days_of_week: [1, 3], weeks_of_month: [1, 3] }),
    'On the first and third Monday and Wednesday of every month at 09:00, UTC',
  ],
  [monthly({ days_of_week: [5], weeks_of_month: [1, -1] }), 'On the first and last Friday of every month at 09:00, UTC'],
  [monthly({ days_of_month: [1], months_of_year: [1, 4, 7, 10] }), 'On the 1st of every quarter at 09:00, UTC'],
  [monthly({ days_of_month: [-1], months_of_year: [3, 6, 9, 12] }), 'On the last day of every quarter at 09:00, UTC'],
  [
    monthly({ days_of_week: [5], weeks_of_month: [-1], months_of_year: [3, 6, 9, 12] }),
    'On the last Friday of every quarter at 09:00, UTC',
  ],
  // Not the parser's quarter (that would be January, April...): said as the months.
  [
    monthly({ days_of_month: [15], months_of_year: [3, 6, 9, 12] }),
    'Every year on the 15th of March, June, September and December at 09:00, UTC',
  ],
  [yearly([1, 7], { days_of_month: [1] }), 'Every year on the 1st of January and July at 09:00, UTC'],
  [yearly([3], { days_of_month: [1, 15] }), 'Every year on the 1st and 15th of March at 09:00, UTC'],
  [yearly([2], { days_of_month: [-1] }), 'Every year on the last day of February at 09:00, UTC'],
  [yearly([11], { days_of_week: [4], weeks_of_month: [4] }), 'Every year on the fourth Thursday of November at 09:00, UTC'],
  [
    yearly([3], { days_of_month: [3], interval: 2, anchor_date: '2027-03-03' }),
    'Every 2 years on 3 March at 09:00, starting Wednesday 3 March 2027, UTC',
  ],
  [
    info({ interval: 3, anchor_date: '2026-03-05', schedule_time: '00:00' }),
    'Every 3 days at 00:00, starting Thursday 5 March 2026, UTC',
  ],
  [
    info({ interval: 2, anchor_date: '2026-05-04', months_of_year: [5] }),
    'Every 2 days in May at 09:00, starting Monday 4 May 2026, UTC',
  ],
  [
    monthly({ days_of_week: [1], weeks_of_month: [1], interval: 2, anchor_date: '2026-04-06' }),
    'Every 2 months on the first Monday at 09:00, starting Monday 6 April 2026, UTC',
  ],
  [
    monthly({ days_of_month: [1, -1], interval: 3, anchor_date: '2026-03-31' }),
    'Every 3 months on the 1st and last day at 09:00, starting Tuesday 31 March 2026, UTC',
  ],
  [
    weekly([1], { interval: 3, anchor_date: '2026-12-07', months_of_year: [12] }),
    'Every 3 weeks on Monday in December at 09:00, starting Monday 7 December 2026, UTC',
  ],
  // Issue 46: working days of the month (set_positions).
  [monthly({ days_of_week: [1, 2, 3, 4, 5], set_positions: [1] }), 'On the first weekday of every month at 09:00, UTC'],
  [
    monthly({ days_of_week: [1, 2, 3, 4, 5], set_positions: [1], months_of_year: [1, 4, 7, 10] }),
    'On the first weekday of every quarter at 09:00, UTC',
  ],
  [monthly({ days_of_week: [0, 6], set_positions: [-1] }), 'On the last weekend day of every month at 09:00, UTC'],
  [
    yearly([1], { days_of_week: [1, 2, 3, 4, 5], set_positions: [1] }),
    'Every year on the first weekday of January at 09:00, UTC',
  ],
  [
    monthly({ days_of_week: [1, 2, 3, 4, 5], set_positions: [6], interval: 3, anchor_date: '2026-03-09' }),
    'Every 3 months on the 6th weekday at 09:00, starting Monday 9 March 2026, UTC',
  ],
  // Issue 46: one-off runs and ends.
  [
    info({ schedule_type: 'once', anchor_date: '2026-03-06', schedule_time: '15:00' }),
    'Once on Friday 6 March 2026 at 15:00, UTC',
  ],
  [info({ until: '2026-12-31T23:59:59Z' }), 'Every day at 09:00, UTC, until Thursday 31 December 2026'],
  [
    info({ timezone: 'Europe/Berlin', until: '2026-12-31T22:59:59Z' }),
    'Every day at 09:00, Europe/Berlin, until Thursday 31 December 2026',
  ],
  [info({ until: '2026-03-14T09:00:00Z', count: 10 }), 'Every day at 09:00, UTC, 10 times'],
  // Issue 46: several times of day, each said.
  [info({ schedule_times: ['09:00', '17:00'] }), 'Every day at 09:00 and 17:00, UTC'],
  [
    weekly([1, 2, 3, 4, 5], { schedule_time: '08:30', schedule_times: ['08:30', '12:30', '16:30'] }),
    'Every weekday at 08:30, 12:30 and 16:30, UTC',
  ],
  [
    info({ schedule_times: ['09:00', '21:00'], interval: 2, anchor_date: '2026-03-04' }),
    'Every 2 days at 09:00 and 21:00, starting Wednesday 4 March 2026, UTC',
  ],
  // Issue 46: IANA's fixed offsets, whose POSIX sign reads backwards, as UTC offsets.
  [info({ timezone: 'Etc/GMT-2' }), 'Every day at 09:00, UTC+02:00'],
  [info({ timezone: 'Etc/GMT+5' }), 'Every day at 09:00, UTC-05:00'],
  [info({ timezone: 'Etc/GMT+12' }), 'Every day at 09:00, UTC-12:00'],
  [info({ timezone: 'Etc/GMT-14' }), 'Every day at 09:00, UTC+14:00'],
  [info({ timezone: 'Etc/GMT' }), 'Every day at 09:00, Etc/GMT'],
  // Issue 46: minutes that do not divide the day restart at midnight, and say so.
  [
    info({ schedule_type: 'minutely', schedule_time: '00:00', end_time: null, interval: 7 }),
    'Every 7 minutes, restarting at midnight, UTC',
  ],
  [info({ timezone: 'US/Eastern' }), 'Every day at 09:00, US/Eastern'],
  [info({ timezone: 'America/Argentina/Buenos_Aires' }), 'Every day at 09:00, America/Argentina/Buenos_Aires'],
  // The first run, not the anchor as stored, when the anchor is no run date: Sunday 8 March
  // anchors the ISO week of 2 March, whose Monday is before it, so the first run is 16 March.
  [
    weekly([1], { interval: 2, anchor_date: '2026-03-08' }),
    'Every 2 weeks on Monday at 09:00, starting Monday 16 March 2026, UTC',
  ],
  // Interval 1: the fields decide the runs, whatever schedule_type says.
  [info({ days_of_week: [1] }), 'Every Monday at 09:00, UTC'],
  // Issue 25, family 7: nine to eleven months are said by the ones left out.
  [
    monthly({ days_of_month: [5], months_of_year: [1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12] }),
    'On the 5th of every month except August at 09:00, UTC',
  ],
  [weekly([1], { months_of_year: [1, 2, 3, 4, 5, 6, 9, 10, 11, 12] }), 'Every Monday except in July and August at 09:00, UTC'],
  [info({ months_of_year: [1, 2, 3, 4, 5, 9, 10, 11, 12] }), 'Every day except in June, July and August at 09:00, UTC'],
  [
    monthly({ days_of_week: [5], weeks_of_month: [-1], months_of_year: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11] }),
    'On the last Friday of every month except December at 09:00, UTC',
  ],
  // Eight months are still listed.
  [
    info({ months_of_year: [1, 2, 3, 4, 5, 6, 7, 8] }),
    'Every day in January, February, March, April, May, June, July and August at 09:00, UTC',
  ],
  [
    info({
      schedule_type: 'hourly',
      schedule_time: '00:00',
      end_time: null,
      months_of_year: [1, 2, 3, 4, 5, 6, 7, 9, 10, 11, 12],
    }),
    'Every hour at :00, every day except in August, UTC',
  ],
  [monthly({ days_of_month: [1], months_of_year: [1, 7] }), 'Every year on the 1st of January and July at 09:00, UTC'],
];

const NOW = new Date('2026-03-04T10:00:00Z');
const FROM = new Date('2026-01-01T00:00:00Z');

test('issue 46: set positions among other days than weekdays (no description makes them) are said truthfully', () => {
  expect(sayScheduleInEnglish(monthly({ days_of_week: [1, 3], set_positions: [2] }))).toBe(
    'On the second of the Mondays and Wednesdays of every month at 09:00, UTC',
  );
});

describe('sayScheduleInEnglish: exact sentences', () => {
  test.each(sentences)('%j', (schedule, sentence) => {
    expect(sayScheduleInEnglish(schedule)).toBe(sentence);
  });

  test.each(sentences)('read back: %j', (schedule) => {
    expectReadBack(schedule, parseSchedule(sayScheduleInEnglish(schedule), { now: NOW }), FROM);
  });
});

/** Shapes no description produces: still said truthfully, with clauses the parser does not read. */
const onlyClauses: Array<[ScheduleInfo, string]> = [
  [monthly({ days_of_month: [13], days_of_week: [5] }), 'On the 13th of every month at 09:00, only on Fridays, UTC'],
  [
    monthly({ days_of_month: [1], months_of_year: [3, 4], interval: 2, anchor_date: '2026-03-01' }),
    'Every 2 months on the 1st at 09:00, only in March and April, starting Sunday 1 March 2026, UTC',
  ],
  [
    info({ days_of_week: [1, 4], interval: 3, anchor_date: '2026-03-02' }),
    'Every 3 days at 09:00, only on Mondays and Thursdays, starting Monday 2 March 2026, UTC',
  ],
  [
    weekly([1], { weeks_of_month: [1], interval: 2, anchor_date: '2026-03-02' }),
    'Every 2 weeks on Monday at 09:00, only on the first Monday of the month, starting Monday 2 March 2026, UTC',
  ],
  [
    monthly({ days_of_week: [1], weeks_of_month: [1], days_of_month: [1] }),
    'On the first Monday of every month at 09:00, only on the 1st of the month, UTC',
  ],
  // The parser refuses several days in several months, but the sentence is plain enough.
  [yearly([1, 7], { days_of_month: [1, 15] }), 'Every year on the 1st and 15th of January and July at 09:00, UTC'],
];

describe('sayScheduleInEnglish: shapes the parser cannot produce', () => {
  test.each(onlyClauses)('%j', (schedule, sentence) => {
    expect(sayScheduleInEnglish(schedule)).toBe(sentence);
  });

  test('a schedule with no run for centuries says its anchor as stored', () => {
    const never = yearly([2], { days_of_month: [29], interval: 2, anchor_date: '2025-02-01' });
    expect(sayScheduleInEnglish(never)).toBe('Every 2 years on 29 February at 09:00, starting Saturday 1 February 2025, UTC');
  });

  test.each([
    ['interval 2 without anchor_date', info({ interval: 2 })],
    ['a weekday 7', weekly([7])],
    ['a weekly schedule without days', info({ schedule_type: 'weekly' })],
    ['a time of 24:00', info({ schedule_time: '24:00' })],
    ['an unknown zone', info({ timezone: 'Mars/Olympus' })],
  ])('%s is a ScheduleError, as for nextRunAt', (_name, schedule) => {
    expect(() => sayScheduleInEnglish(schedule)).toThrow(ScheduleError);
  });
});

describe('sayScheduleInEnglish: every accepted corpus phrase, said back and read again', () => {
  test.each(accepted)('[$group] "$phrase"', ({ info: original, now }) => {
    const sentence = sayScheduleInEnglish(original);
    expect(sentence).toMatch(/^[A-Z]/);
    // The zone as stored, a fixed offset as "UTC+02:00" (issue 46).
    // An end (issue 46) follows the zone: ", until Thursday 31 December 2026", ", 10 times".
    const withoutEnd = sentence.replace(/, (until [^,]*|\d+ times)$/, '');
    expect(withoutEnd.endsWith(`, ${zoneInWords(original.timezone)}`)).toBe(true);
    if (original.until) expect(sentence).toMatch(/, (until [^,]*|\d+ times)$/);
    if (SUB_DAILY_KINDS.includes(original.schedule_type)) {
      // "Every 4 hours at :00", "Every 20 minutes", "Every 3 hours from 08:00 to 20:00": no anchor.
      expect(sentence).toMatch(/^Every (hour|minute|\d+ (hours|minutes))\b/);
      expect(sentence).not.toContain(', starting ');
    } else {
      expect(sentence).toContain(` at ${original.schedule_time}`);
      if (original.interval > 1) expect(sentence).toContain(', starting ');
    }
    // The sentence stands alone: it names its zone, so the caller's default does not matter.
    const options = { now: new Date(now), timezone: 'Asia/Tokyo' };
    expectReadBack(original, describeSchedule(sentence, options).schedule_info, new Date(now));
  });
});

// ---- random schedules of every shape the parser produces --------------------------------------

const ZONES = ['UTC', 'Europe/Berlin', 'America/New_York', 'Asia/Kolkata', 'Australia/Sydney', 'Etc/GMT+5', 'US/Eastern'];
const MAX_DAYS = [0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

const subset = (values: number[]) =>
  fc.uniqueArray(fc.constantFrom(...values), { minLength: 1, maxLength: values.length }).map((v) => [...v].sort((a, b) => a - b));
const lastAtEnd = (v: number[]) => [...v.filter((d) => d !== -1), ...v.filter((d) => d === -1)];
const weekdaySet = subset([0, 1, 2, 3, 4, 5, 6]);
const monthSet = subset([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
const monthDaySet = subset([...Array.from({ length: 31 }, (_, k) => k + 1), -1]).map(lastAtEnd);
const weekSet = subset([1, 2, 3, 4, 5, -1]).map(lastAtEnd);
const time = fc
  .tuple(fc.integer({ min: 0, max: 23 }), fc.integer({ min: 0, max: 59 }))
  .map(([h, m]) => `${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`);
const anchor = fc.date({ min: new Date('2026-01-01T00:00:00Z'), max: new Date('2028-12-31T00:00:00Z'), noInvalidDate: true });
/** Issue 46: positions among the working days (or weekend days) of each month. */
const setPositions = fc.record({
  days_of_week: fc.constantFrom([1, 2, 3, 4, 5], [0, 6]).map((d) => [...d]),
  set_positions: fc
    .uniqueArray(fc.constantFrom(1, 2, 3, 4, 5, 8, -1), { minLength: 1, maxLength: 2 })
    .map((v) => [...v].sort((a, b) => (a === -1 ? 99 : a) - (b === -1 ? 99 : b))),
});
/** Days of a month (days_of_month), nth weekdays (weeks_of_month with days_of_week) or set positions. */
const monthDays = fc.oneof(
  monthDaySet.map((days) => ({ days_of_month: days })),
  fc.record({ weeks_of_month: weekSet, days_of_week: weekdaySet }),
  setPositions,
);

const shapes = fc.oneof(
  fc.record({
    schedule_type: fc.constant('daily' as const),
    months_of_year: fc.option(monthSet),
    interval: fc.integer({ min: 1, max: 40 }),
  }),
  fc.record({
    schedule_type: fc.constant('weekly' as const),
    days_of_week: weekdaySet,
    months_of_year: fc.option(monthSet),
    interval: fc.integer({ min: 1, max: 52 }),
  }),
  fc
    .tuple(monthDays, fc.integer({ min: 1, max: 24 }))
    .map(([days, interval]) => ({ schedule_type: 'monthly' as const, ...days, interval })),
  // The parser's quarters: the first months, or the last ones when every mark is "last".
  monthDays
    .filter((days) => {
      const marks =
        'days_of_month' in days ? days.days_of_month : 'set_positions' in days ? days.set_positions : days.weeks_of_month;
      return marks.every((m) => m === -1) || !marks.includes(-1);
    })
    .map((days) => {
      const marks =
        'days_of_month' in days ? days.days_of_month : 'set_positions' in days ? days.set_positions : days.weeks_of_month;
      const months = marks.every((m) => m === -1) ? [3, 6, 9, 12] : [1, 4, 7, 10];
      return { schedule_type: 'monthly' as const, ...days, months_of_year: months, interval: 1 };
    }),
  fc
    .tuple(monthSet, monthDays, fc.integer({ min: 1, max: 10 }))
    // As the parser: one day in several months or several days in one, each date possible.
    .filter(([months, days]) => {
      if (!('days_of_month' in days)) return true;
      if (months.length > 1 && days.days_of_month.length > 1) return false;
      return months.every((m) => days.days_of_month.every((d) => d <= (MAX_DAYS[m] ?? 0)));
    })
    .map(([months, days, interval]) => ({ schedule_type: 'yearly' as const, ...days, months_of_year: months, interval })),
  // Issue 25, family 7: every month but one to three ("on the 5th of every month except August").
  fc.tuple(fc.uniqueArray(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 3 }), monthDays).map(([out, days]) => ({
    schedule_type: 'monthly' as const,
    ...days,
    months_of_year: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].filter((m) => !out.includes(m)),
    interval: 1,
  })),
);

const schedules = fc.tuple(shapes, time, fc.constantFrom(...ZONES), anchor).map(([shape, schedule_time, timezone, date]) =>
  info({
    ...shape,
    schedule_time,
    timezone,
    anchor_date: shape.interval > 1 ? date.toISOString().slice(0, 10) : null,
  }),
);

describe('sayScheduleInEnglish: random schedules', () => {
  test('read back, each gives the same next 20 runs', () => {
    fc.assert(
      fc.property(schedules, (schedule) => {
        const from = new Date('2025-12-01T00:00:00Z');
        const expected = runs(schedule, from);
        // A random anchor can rule out every run ("every 2 years on 29 February" from 2027).
        fc.pre(expected[0] !== 'no further run');
        const back = parseSchedule(sayScheduleInEnglish(schedule), { now: NOW });
        expect(runs(back, from)).toEqual(expected);
      }),
      { numRuns: 300, seed: 25 },
    );
  });
});

// ---- random hourly and minutely schedules, as the parser makes them ----------------------------

const hhmm = (minutes: number) => `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
/** A window of the day [start, end] that fits at least two runs `step` minutes apart. */
const windowFor = (step: number) =>
  fc
    .integer({ min: 0, max: 24 * 60 - 1 - step })
    .chain((start) => fc.integer({ min: start + step, max: 24 * 60 - 1 }).map((end) => ({ start, end })));
const subDailyShapes = fc.oneof(
  // From midnight, a step that divides the day, the minute of the hour for hourly ones.
  fc
    .tuple(fc.constantFrom(1, 2, 3, 4, 6, 8, 12), fc.integer({ min: 0, max: 59 }))
    .map(([interval, minute]) => ({ schedule_type: 'hourly' as const, interval, schedule_time: hhmm(minute), end_time: null })),
  // Issue 25, family 6: "every N hours at quarter to", a series that starts late and runs to midnight.
  fc.tuple(fc.constantFrom(2, 3, 4, 6, 8, 12), fc.integer({ min: 1, max: 59 })).map(([interval, minute]) => ({
    schedule_type: 'hourly' as const,
    interval,
    schedule_time: hhmm((interval - 1) * 60 + minute),
    end_time: null,
  })),
  fc
    .constantFrom(1, 2, 5, 7, 10, 11, 15, 20, 30, 45, 90, 100, 120, 360)
    .map((interval) => ({ schedule_type: 'minutely' as const, interval, schedule_time: '00:00', end_time: null })),
  // Within the hours of a window, any step that fits in it twice.
  fc.integer({ min: 1, max: 11 }).chain((interval) =>
    windowFor(interval * 60).map(({ start, end }) => ({
      schedule_type: 'hourly' as const,
      interval,
      schedule_time: hhmm(start),
      end_time: hhmm(end),
    })),
  ),
  fc.integer({ min: 1, max: 240 }).chain((interval) =>
    windowFor(interval).map(({ start, end }) => ({
      schedule_type: 'minutely' as const,
      interval,
      schedule_time: hhmm(start),
      end_time: hhmm(end),
    })),
  ),
);
/** Issue 46: windows across midnight, from the evening into the small hours, two runs at least. */
const acrossMidnight = fc
  .tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 18 * 60, max: 24 * 60 - 1 }), fc.integer({ min: 0, max: 6 * 60 }))
  .filter(([hours, start, end]) => end + 24 * 60 - start >= hours * 60)
  .map(([interval, start, end]) => ({
    schedule_type: 'hourly' as const,
    interval,
    schedule_time: hhmm(start),
    end_time: hhmm(end),
  }));
const subDailyDays = fc.oneof(
  fc.constant({}),
  weekdaySet.map((days) => ({ days_of_week: days })),
  monthSet.map((months) => ({ months_of_year: months })),
  monthDaySet.map((days) => ({ days_of_month: days })),
);
const subDailySchedules = fc
  .tuple(fc.oneof(subDailyShapes, acrossMidnight), subDailyDays, fc.constantFrom(...ZONES))
  .map(([shape, days, timezone]) => info({ ...shape, ...days, timezone }));

describe('sayScheduleInEnglish: random hourly and minutely schedules', () => {
  test('read back, each gives the same next 20 runs (DST days included)', () => {
    fc.assert(
      fc.property(
        subDailySchedules,
        fc.constantFrom('2026-03-07T12:00:00Z', '2026-03-28T12:00:00Z', '2026-10-24T20:00:00Z'),
        (schedule, at) => {
          const from = new Date(at);
          const back = parseSchedule(sayScheduleInEnglish(schedule), { now: NOW });
          expect(runs(back, from)).toEqual(runs(schedule, from));
        },
      ),
      { numRuns: 100, seed: 25 },
    );
  });
});

// ---- issue 46: random schedules with several times of day ---------------------------------------

const timeSet = fc
  .uniqueArray(
    fc.integer({ min: 0, max: 24 * 60 - 1 }).map((m) => hhmm(m)),
    { minLength: 2, maxLength: 4 },
  )
  .map((times) => [...times].sort());
const severalTimesSchedules = fc.tuple(shapes, timeSet, fc.constantFrom(...ZONES), anchor).map(([shape, times, timezone, date]) =>
  info({
    ...shape,
    schedule_time: times[0] as string,
    schedule_times: times,
    timezone,
    anchor_date: shape.interval > 1 ? date.toISOString().slice(0, 10) : null,
  }),
);

describe('sayScheduleInEnglish: random schedules at several times of day (issue 46)', () => {
  test('read back, each gives the same next 20 runs (DST days included)', () => {
    fc.assert(
      fc.property(
        severalTimesSchedules,
        fc.constantFrom('2026-03-07T12:00:00Z', '2026-03-28T12:00:00Z', '2026-10-24T20:00:00Z'),
        (schedule, at) => {
          const from = new Date(at);
          const expected = runs(schedule, from);
          fc.pre(expected[0] !== 'no further run');
          const back = parseSchedule(sayScheduleInEnglish(schedule), { now: NOW });
          expect(runs(back, from)).toEqual(expected);
        },
      ),
      { numRuns: 200, seed: 46 },
    );
  });
});
