/**
 * schedule_info.rrule (issue 46): an independent RFC 5545 engine (the npm package `rrule`, with
 * RFC 5545's reading of local times: rrule-oracle.ts) given the rrule produces exactly
 * next_run_at and the preview's runs; where one RRULE cannot say a schedule, rrule is null.
 */
import fc from 'fast-check';
import type { Deps } from '../../../shared/runtime.js';
import * as Schedules from '../../../shared/schedules/index.js';
import { describeSchedule } from '../../../shared/schedules/index.js';
import { previewSchedule } from '../../../shared/services/schedule-preview.js';
import { occurrencesAfter, offsetAt } from './rrule-oracle.js';

const MAX_RUNS = 50;

/** The preview's runs of the description at `now`, or null when it is refused. */
function preview(description: string, timezone: string, now: Date, count = MAX_RUNS) {
  const deps = { clock: { now: () => now } } as Deps;
  try {
    return previewSchedule(Schedules, deps, { schedule_description: description, timezone, count });
  } catch (error) {
    if (error instanceof Error && 'status' in error && error.status === 400) return null;
    throw error;
  }
}

/** What the oracle reads from the rrule: the runs after now, as many as the preview lists. */
function oracleRuns(rrule: string, now: Date, count: number): string[] {
  const horizon = new Date(now);
  horizon.setUTCFullYear(horizon.getUTCFullYear() + 100);
  return occurrencesAfter(rrule, now, count).filter((iso) => Date.parse(iso) <= horizon.getTime());
}

describe('the rrule, read by the rrule package', () => {
  test('"every weekday at 9am" in Berlin: the local time in the zone, the runs in it', () => {
    const now = new Date('2026-11-25T10:00:00Z');
    const { schedule_info, next_run_at } = describeSchedule('every weekday at 9am', { timezone: 'Europe/Berlin', now });
    expect(schedule_info.rrule).toBe(
      'DTSTART;TZID=Europe/Berlin:20261126T090000\nRRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0;BYSECOND=0',
    );
    expect(next_run_at).toBe('2026-11-26T08:00:00Z');
  });

  test('a schedule in UTC has its DTSTART in UTC, without TZID', () => {
    const now = new Date('2026-11-25T10:00:00Z');
    expect(describeSchedule('every day at 9', { now }).schedule_info.rrule).toBe(
      'DTSTART:20261126T090000Z\nRRULE:FREQ=DAILY;BYHOUR=9;BYMINUTE=0;BYSECOND=0',
    );
  });

  test.each<[string, string, string, string]>([
    // Several times of day that are not a grid of hours and minutes: BYSETPOS picks them.
    ['every day at 9am and 5:30pm', 'Europe/Berlin', '2026-10-20T10:00:00Z', 'BYSETPOS=1,4'],
    // Working days at two times: positions through the month's days times the day's times.
    ['last weekday of every month at 9am and 5pm', 'America/New_York', '2026-10-20T10:00:00Z', 'BYSETPOS=-2,-1'],
    ['first business day of the month at 8:30', 'Australia/Sydney', '2026-03-20T10:00:00Z', 'BYSETPOS=1'],
    ['every other week on Monday and Friday at 10', 'Europe/Berlin', '2026-10-20T10:00:00Z', 'WKST=MO'],
    ['every 2 years on the last Friday of November at 7pm', 'Asia/Kolkata', '2026-10-20T10:00:00Z', 'BYDAY=-1FR'],
    ['tomorrow at 9am and 5pm', 'Europe/Berlin', '2026-10-24T10:00:00Z', 'UNTIL=20261025T160000Z'],
    ['every day at 8 10 times', 'America/New_York', '2026-10-28T10:00:00Z', 'UNTIL=20261106T130000Z'],
    // Every hour around the clock in a DST zone: the same instants as every hour in UTC.
    ['every hour', 'Europe/Berlin', '2026-10-24T20:00:00Z', 'DTSTART:20261024T210000Z\nRRULE:FREQ=HOURLY'],
    ['every 15 minutes', 'America/New_York', '2026-11-01T04:00:00Z', 'RRULE:FREQ=MINUTELY;INTERVAL=15'],
    // Its times never in the repeated hour (02:00-02:59 in Berlin): the local form, DST or not.
    ['every 3 hours between 8am and 8pm', 'Europe/Berlin', '2026-03-27T10:00:00Z', 'BYHOUR=8,11,14,17,20'],
    ['every 30 minutes between 9am and 5pm on weekdays', 'Europe/Berlin', '2026-10-23T10:00:00Z', 'BYSETPOS=1,2,3'],
    // Berlin's clocks go back on Sundays only.
    ['every hour on weekdays', 'Europe/Berlin', '2026-10-23T10:00:00Z', 'BYDAY=MO,TU,WE,TH,FR;BYHOUR=0,1,2,3'],
    ['every hour between 9pm and 2am', 'UTC', '2026-10-23T10:00:00Z', 'BYHOUR=0,1,2,21,22,23'],
    // 02:30 does not exist on 29 March 2026 in Berlin: DTSTART says 02:30, which RFC 5545 reads as 03:30.
    ['every day at 2:30', 'Europe/Berlin', '2026-03-28T12:00:00Z', 'DTSTART;TZID=Europe/Berlin:20260329T023000'],
    // 03:00 EDT (07:00Z) runs before 02:30 moved past the gap (07:30Z): DTSTART is 02:30, so an
    // engine that expands local times from DTSTART does not leave it behind.
    ['at 2:30am and 3am', 'America/New_York', '2026-03-07T12:00:00Z', 'DTSTART;TZID=America/New_York:20260308T023000'],
  ])('"%s" in %s from %s: %s', (description, timezone, at, part) => {
    const now = new Date(at);
    const answer = preview(description, timezone, now);
    const rrule = answer?.schedule_info.rrule;
    expect(rrule).toContain(part);
    expect(oracleRuns(rrule as string, now, MAX_RUNS)).toEqual(answer?.next_runs);
  });

  test.each<[string, string, string]>([
    // The engine runs 02:00 twice when Berlin's clocks go back; RFC 5545 reads 02:00 once.
    ['every 2 hours', 'Europe/Berlin', 'its 02:00 happens twice a year'],
    ['every hour between 9pm and 2am', 'America/New_York', 'its 01:00 happens twice a year'],
    ['every hour on Sundays', 'Australia/Sydney', 'its 02:00 on a Sunday happens twice a year'],
    // Minutes restarting at midnight: each hour has other minutes, no BYHOUR x BYMINUTE grid.
    ['every 7 minutes', 'UTC', 'no grid of hours and minutes'],
    // A window across midnight on some days only: its small hours are on the next day.
    ['every hour between 9pm and 2am on Fridays', 'UTC', 'the window belongs to the day it starts on'],
  ])('"%s" in %s: rrule null (%s)', (description, timezone) => {
    const answer = preview(description, timezone, new Date('2026-10-20T10:00:00Z'));
    expect(answer?.schedule_info).toHaveProperty('rrule', null);
  });
});

const ZONES = ['Europe/Berlin', 'America/New_York', 'Australia/Sydney', 'Asia/Kolkata', 'UTC', 'Australia/Lord_Howe'];

/** Each zone's offset changes from 2026 to 2040, to the minute: the instants `now` is drawn near. */
function changesOf(zone: string): number[] {
  const changes: number[] = [];
  const offset = (t: number) => offsetAt(zone, t);
  let at = Date.UTC(2026, 0, 1);
  while (at < Date.UTC(2041, 0, 1)) {
    const next = at + 7 * 86_400_000;
    if (offset(next) !== offset(at)) {
      let [lo, hi] = [at, next];
      while (hi - lo > 60_000) {
        const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000;
        if (offset(mid) === offset(hi)) hi = mid;
        else lo = mid;
      }
      changes.push(hi);
    }
    at = next;
  }
  return changes;
}

const CHANGES = ZONES.flatMap(changesOf);
const DAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const MONTH_NAMES = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const ORDINALS = ['first', 'second', 'third', 'fourth', 'last'];

const pad = (n: number) => String(n).padStart(2, '0');
/** Times of day, the hours where clocks change weighted up. */
const hour = fc.oneof(fc.integer({ min: 0, max: 4 }), fc.integer({ min: 0, max: 23 }));
const minute = fc.constantFrom(0, 0, 15, 30, 45, 7);
const time = fc.tuple(hour, minute).map(([h, m]) => `${pad(h)}:${pad(m)}`);
const day = fc.constantFrom(...DAY_NAMES);
const days = fc.uniqueArray(day, { minLength: 2, maxLength: 4 }).map((d) => d.join(' and '));
const month = fc.constantFrom(...MONTH_NAMES);
const nth = fc.constantFrom('1st', '2nd', '10th', '15th', '28th', '29th', '30th', '31st', 'last day');
const ordinal = fc.constantFrom(...ORDINALS);
const dayCount = fc.integer({ min: 1, max: 28 });
const divisorOfHour = fc.constantFrom(1, 2, 5, 10, 15, 20, 30);
const subDailyStep = fc.oneof(divisorOfHour, fc.constantFrom(7, 45, 90));

/** Accepted phrases of each family issue 46 and the seed read, with the words that vary drawn. */
const phrase = fc.oneof(
  // One time of day.
  fc.tuple(time).map(([t]) => `every day at ${t}`),
  fc.tuple(time).map(([t]) => `every weekday at ${t}`),
  fc.tuple(days, time).map(([d, t]) => `every ${d} at ${t}`),
  fc.tuple(fc.integer({ min: 2, max: 9 }), time).map(([n, t]) => `every ${n} days at ${t}`),
  fc.tuple(fc.integer({ min: 2, max: 4 }), days, time).map(([n, d, t]) => `every ${n} weeks on ${d} at ${t}`),
  fc.tuple(nth, time).map(([n, t]) => `on the ${n} of every month at ${t}`),
  fc.tuple(fc.integer({ min: 2, max: 6 }), nth, time).map(([k, n, t]) => `every ${k} months on the ${n} at ${t}`),
  fc.tuple(ordinal, day, time).map(([o, d, t]) => `the ${o} ${d} of every month at ${t}`),
  fc.tuple(month, fc.integer({ min: 1, max: 29 }), time).map(([m, d, t]) => `every year on ${m} ${d} at ${t}`),
  fc
    .tuple(fc.integer({ min: 2, max: 3 }), ordinal, day, month)
    .map(([n, o, d, m]) => `every ${n} years on the ${o} ${d} of ${m}`),
  // Working days.
  fc
    .tuple(fc.constantFrom('first business day', 'last weekday', 'last business day'), time)
    .map(([w, t]) => `${w} of the month at ${t}`),
  // Several times a day.
  fc.tuple(time, time).map(([a, b]) => `every day at ${a} and ${b}`),
  fc.tuple(time, time, time).map(([a, b, c]) => `every weekday at ${a}, ${b} and ${c}`),
  fc.tuple(time, time).map(([a, b]) => `first business day of the month at ${a} and ${b}`),
  fc
    .tuple(minute, fc.uniqueArray(hour, { minLength: 2, maxLength: 3 }))
    .map(([m, hs]) => `${m} ${[...hs].sort((x, y) => x - y).join(',')} * * 1-5`),
  // One-offs and ends.
  fc.tuple(time).map(([t]) => `tomorrow at ${t}`),
  fc.tuple(day, time).map(([d, t]) => `next ${d} at ${t}`),
  fc.tuple(time, time).map(([a, b]) => `tomorrow at ${a} and ${b}`),
  fc.tuple(time, fc.integer({ min: 2, max: 30 })).map(([t, n]) => `every day at ${t} ${n} times`),
  fc.tuple(day, time, fc.integer({ min: 1, max: 8 })).map(([d, t, n]) => `every ${d} at ${t} for ${n} weeks`),
  fc.tuple(time, month).map(([t, m]) => `every day at ${t} until ${m} 28`),
  fc.tuple(dayCount).map(([n]) => `every hour ${n} times`),
  // Several times an hour or a day, windows across midnight included.
  fc.tuple(fc.constantFrom(1, 2, 3, 4, 6, 8, 12)).map(([n]) => `every ${n} hours`),
  fc.tuple(subDailyStep).map(([n]) => `every ${n} minutes`),
  fc.tuple(fc.integer({ min: 1, max: 4 }), time, time).map(([n, a, b]) => `every ${n} hours between ${a} and ${b}`),
  fc.tuple(divisorOfHour, time, time).map(([n, a, b]) => `every ${n} minutes between ${a} and ${b}`),
  fc.tuple(fc.constantFrom('hour', '30 minutes', '2 hours'), days).map(([n, d]) => `every ${n} on ${d}`),
  fc.tuple(fc.constantFrom('0 */2', '30 */3', '*/20 *', '0 *')).map(([c]) => `${c} * * *`),
);

const nowNearAChange = fc
  .tuple(fc.constantFrom(...CHANGES), fc.integer({ min: -3 * 24 * 60, max: 24 * 60 }))
  .map(([change, minutes]) => new Date(change + minutes * 60_000));
const anyNow = fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2040, 0, 1) }).map((ms) => new Date(ms));

test('for accepted schedules the rrule package gives exactly next_run_at and the preview runs', () => {
  fc.assert(
    fc.property(
      phrase,
      fc.constantFrom(...ZONES),
      fc.oneof(nowNearAChange, anyNow),
      fc.integer({ min: 1, max: MAX_RUNS }),
      (description, timezone, now, count) => {
        const answer = preview(description, timezone, now, count);
        const rrule = answer?.schedule_info.rrule;
        if (!answer || rrule === null) return;
        expect(typeof rrule).toBe('string');
        expect(oracleRuns(rrule as string, now, count)).toEqual(answer.next_runs);
      },
    ),
    { numRuns: 400 },
  );
});

test('the generator above draws schedules that are accepted and have an rrule', () => {
  // A fixed sample, so this cannot fail by chance: were the phrases refused, or the rrule null,
  // the property would check nothing.
  const sample = fc.sample(fc.tuple(phrase, fc.constantFrom(...ZONES), anyNow), { seed: 46, numRuns: 200 });
  const checked = sample.filter(
    ([description, timezone, now]) => typeof preview(description, timezone, now, 1)?.schedule_info.rrule === 'string',
  );
  expect(checked.length).toBeGreaterThan(120);
});
