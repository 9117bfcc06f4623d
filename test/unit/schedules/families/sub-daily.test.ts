/**
 * Family 1: what the reader claims, the runs it makes across daylight-saving days, and how it is
 * said back. Whole phrases with their exact schedule_info are in the corpus (corpus.ts, "family 1").
 */
import { subDaily } from '../../../../shared/schedules/families/sub-daily.js';
import { nextRunAt, type ScheduleInfo, sayScheduleInEnglish } from '../../../../shared/schedules/index.js';
import { scheduleInfo } from '../../../support/schedule-info.js';
import { readWith } from './read.js';

describe('family 1: the reader', () => {
  test.each([
    ['every 4 hours', 'hour', 4, ['every', '4', 'hours']],
    ['hourly', 'hour', 1, ['hourly']],
    ['once an hour', 'hour', 1, ['once', 'an', 'hour']],
    ['every other hour', 'hour', 2, ['every', 'other', 'hour']],
    ['every 2nd hour', 'hour', 2, ['every', '2nd', 'hour']],
    ['every 20 minutes', 'minute', 20, ['every', '20', 'minutes']],
    ['every 10 mins', 'minute', 10, ['every', '10', 'mins']],
    ['every half an hour', 'minute', 30, ['every', 'half', 'an', 'hour']],
    ['every quarter hour', 'minute', 15, ['every', 'quarter', 'hour']],
    ['half-hourly', 'minute', 30, ['half', '-', 'hourly']],
  ])('%s', (phrase, unit, interval, claimed) => {
    const read = readWith(subDaily, phrase);
    expect(read.facts.frequencies).toEqual([expect.objectContaining({ unit, interval })]);
    expect(read.claimed).toEqual(claimed);
  });

  test.each([
    ['hourly at :15', 15, ['at', '15']],
    ['every hour at 15 past', 15, ['at', '15', 'past']],
    ['every hour at quarter past the hour', 15, ['at', 'quarter', 'past', 'the', 'hour']],
    ['every hour on the hour', 0, ['on', 'the', 'hour']],
    ['every hour at minute 45', 45, ['at', 'minute', '45']],
  ])('the minute of the hour: %s', (phrase, minute, claimed) => {
    const read = readWith(subDaily, phrase);
    expect(read.facts.minutesOfHour).toEqual([expect.objectContaining({ minute })]);
    expect(read.claimed).toEqual(expect.arrayContaining(claimed));
  });

  test.each([
    ['every 3 hours between 8am and 8pm', 8 * 60, 20 * 60],
    ['every hour from 9:30 to 17:00', 9 * 60 + 30, 17 * 60],
    ['every hour 9am-5pm', 9 * 60, 17 * 60],
    ['every 2 hours between 9 and 17', 9 * 60, 17 * 60],
    ['every hour from noon until 6pm', 12 * 60, 18 * 60],
  ])('the hours: %s', (phrase, start, end) => {
    expect(readWith(subDaily, phrase).facts.windows).toEqual([expect.objectContaining({ start, end })]);
  });

  test('without a frequency, times and "past" are left to the other families', () => {
    expect(readWith(subDaily, 'every day at 15 past 9').claimed).toEqual([]);
    expect(readWith(subDaily, 'weekdays between 9am and 5pm').claimed).toEqual([]);
    expect(readWith(subDaily, 'every second Tuesday').claimed).toEqual([]);
  });

  test('"quarter past 9" is a time of day, not a minute of the hour', () => {
    expect(readWith(subDaily, 'every hour at quarter past 9').facts.minutesOfHour).toEqual([]);
  });

  test.each([
    ['every 30 seconds', 'more often than once a minute'],
    ['every 5 secs', 'more often than once a minute'],
    ['every second', 'more often than once a minute'],
    ['hourly and every 20 minutes', '"hourly" and "every 20 minutes" contradict'],
  ])('refuses %s', (phrase, detail) => {
    expect(() => readWith(subDaily, phrase)).toThrow(detail);
  });
});

const hourly = (x: Partial<ScheduleInfo>) =>
  scheduleInfo({ schedule_type: 'hourly', schedule_time: '00:00', end_time: null, ...x });
const minutely = (x: Partial<ScheduleInfo>) =>
  scheduleInfo({ schedule_type: 'minutely', schedule_time: '00:00', end_time: null, ...x });

function runs(info: ScheduleInfo, from: string, count: number): string[] {
  const out: string[] = [];
  let cursor = new Date(from);
  for (let k = 0; k < count; k++) {
    cursor = nextRunAt(info, cursor);
    out.push(cursor.toISOString().replace('.000', ''));
  }
  return out;
}

describe('family 1: runs across daylight-saving days (real time keeps its pace)', () => {
  test('Berlin springs forward on 2026-03-29: 02:00 does not exist, 23 hourly runs that day', () => {
    const berlin = hourly({ timezone: 'Europe/Berlin' });
    // 00:00 CET, 01:00 CET, then 03:00 CEST: an hour apart in real time.
    expect(runs(berlin, '2026-03-28T22:30:00Z', 4)).toEqual([
      '2026-03-28T23:00:00Z',
      '2026-03-29T00:00:00Z',
      '2026-03-29T01:00:00Z',
      '2026-03-29T02:00:00Z',
    ]);
    const day = runs(berlin, '2026-03-28T22:59:00Z', 30).filter((r) => r < '2026-03-29T22:00:00Z');
    expect(day).toHaveLength(23);
  });

  test('Berlin falls back on 2026-10-25: 02:00 happens twice and runs twice, 25 hourly runs', () => {
    const berlin = hourly({ timezone: 'Europe/Berlin' });
    expect(runs(berlin, '2026-10-24T22:30:00Z', 5)).toEqual([
      '2026-10-24T23:00:00Z', // 01:00 CEST
      '2026-10-25T00:00:00Z', // 02:00 CEST
      '2026-10-25T01:00:00Z', // 02:00 CET
      '2026-10-25T02:00:00Z', // 03:00 CET
      '2026-10-25T03:00:00Z',
    ]);
    const day = runs(berlin, '2026-10-24T21:59:00Z', 30).filter((r) => r < '2026-10-25T23:00:00Z');
    expect(day).toHaveLength(25);
  });

  test('every 30 minutes in New York across 2026-03-08 and 2026-11-01', () => {
    const ny = minutely({ interval: 30, timezone: 'America/New_York' });
    // 01:00 EST, 01:30 EST, then 03:00 EDT: thirty minutes apart.
    expect(runs(ny, '2026-03-08T05:45:00Z', 4)).toEqual([
      '2026-03-08T06:00:00Z',
      '2026-03-08T06:30:00Z',
      '2026-03-08T07:00:00Z',
      '2026-03-08T07:30:00Z',
    ]);
    // 01:00 EDT, 01:30 EDT, 01:00 EST, 01:30 EST, 02:00 EST.
    expect(runs(ny, '2026-11-01T04:45:00Z', 5)).toEqual([
      '2026-11-01T05:00:00Z',
      '2026-11-01T05:30:00Z',
      '2026-11-01T06:00:00Z',
      '2026-11-01T06:30:00Z',
      '2026-11-01T07:00:00Z',
    ]);
  });

  test('a window keeps its wall times: every 3 hours 08:00-20:00 in Berlin, either side of 2026-03-29', () => {
    const window = hourly({ interval: 3, schedule_time: '08:00', end_time: '20:00', timezone: 'Europe/Berlin' });
    expect(runs(window, '2026-03-28T18:00:00Z', 6)).toEqual([
      '2026-03-28T19:00:00Z', // 20:00 CET
      '2026-03-29T06:00:00Z', // 08:00 CEST
      '2026-03-29T09:00:00Z',
      '2026-03-29T12:00:00Z',
      '2026-03-29T15:00:00Z',
      '2026-03-29T18:00:00Z', // 20:00 CEST
    ]);
  });

  test('days filter the runs: every hour 09:00-17:00 on weekdays goes from Friday to Monday', () => {
    const weekdays = hourly({ schedule_time: '09:00', end_time: '17:00', days_of_week: [1, 2, 3, 4, 5] });
    expect(runs(weekdays, '2026-03-06T16:30:00Z', 2)).toEqual(['2026-03-06T17:00:00Z', '2026-03-09T09:00:00Z']);
  });

  test('every minute: 1440 runs a day, one a minute', () => {
    const everyMinute = minutely({});
    expect(runs(everyMinute, '2026-03-04T23:58:30Z', 3)).toEqual([
      '2026-03-04T23:59:00Z',
      '2026-03-05T00:00:00Z',
      '2026-03-05T00:01:00Z',
    ]);
  });
});

describe('family 1: said back', () => {
  test.each([
    [hourly({}), 'Every hour at :00, UTC'],
    [hourly({ interval: 4, schedule_time: '00:30' }), 'Every 4 hours at :30, UTC'],
    [hourly({ interval: 3, schedule_time: '08:00', end_time: '20:00' }), 'Every 3 hours from 08:00 to 20:00, UTC'],
    [minutely({ interval: 20 }), 'Every 20 minutes, UTC'],
    [minutely({ interval: 1, timezone: 'Europe/Berlin' }), 'Every minute, Europe/Berlin'],
    [
      minutely({ interval: 15, schedule_time: '09:00', end_time: '17:45', days_of_week: [1, 2, 3, 4, 5] }),
      'Every 15 minutes from 09:00 to 17:45, every weekday, UTC',
    ],
    [hourly({ interval: 6, days_of_month: [1] }), 'Every 6 hours at :00, on the 1st of every month, UTC'],
    // Shapes the parser does not make: said with the hours, which read back as the same runs.
    [hourly({ interval: 5 }), 'Every 5 hours from 00:00 to 23:59, UTC'],
    [hourly({ interval: 2, schedule_time: '03:00' }), 'Every 2 hours from 03:00 to 23:59, UTC'],
    // Issue 46, family 5: an end before the start is a window across midnight.
    [hourly({ schedule_time: '21:00', end_time: '02:00' }), 'Every hour from 21:00 to 02:00, UTC'],
  ])('%j', (info, sentence) => {
    expect(sayScheduleInEnglish(info)).toBe(sentence);
  });
});

describe('family 1: malformed schedule_info is a ScheduleError', () => {
  test.each([
    ['end_time on a daily schedule', scheduleInfo({ end_time: '17:00' })],
    ['end_time not HH:MM', hourly({ end_time: '25:00' })],
    ['24 hours', hourly({ interval: 24 })],
    ['1440 minutes', minutely({ interval: 1440 })],
  ])('%s', (_name, info) => {
    expect(() => nextRunAt(info, new Date('2026-03-04T10:00:00Z'))).toThrow('Invalid schedule_info');
  });
});
