/** Bad input only ever yields a ScheduleError, quickly; good input yields consistent results. */
import fc from 'fast-check';
import {
  describeSchedule,
  MAX_DESCRIPTION_LENGTH,
  nextRunAt,
  parseSchedule,
  ScheduleError,
} from '../../../shared/schedules/index.js';

const NOW = new Date('2026-03-04T10:00:00Z');

/** Runs fn and reports anything thrown that is not a ScheduleError. */
function onlyScheduleErrors(fn: () => unknown): boolean {
  try {
    fn();
    return true;
  } catch (err) {
    if (err instanceof ScheduleError) return true;
    throw err;
  }
}

const WORDS = [
  'every',
  'each',
  'other',
  'day',
  'days',
  'week',
  'weeks',
  'month',
  'year',
  'quarter',
  'daily',
  'weekly',
  'monday',
  'fri',
  'weekday',
  'weekends',
  'first',
  'last',
  'second',
  'the',
  'of',
  'and',
  'at',
  'on',
  'in',
  'noon',
  'midnight',
  'morning',
  'evening',
  'night',
  'half',
  'quarter',
  'past',
  'to',
  'am',
  'pm',
  'march',
  'feb',
  'dec',
  '1st',
  '15th',
  '31st',
  '29',
  '9',
  '12',
  '25',
  '0930',
  '9:30',
  '17:45',
  '25:00',
  'utc',
  'pst',
  'Europe/Berlin',
  'Mars/Olympus',
  'UTC+2',
  '-',
  '&',
  '@',
  "o'clock",
  'twenty',
  'first',
  'end',
  'from',
];

describe('robustness', () => {
  test('arbitrary strings never throw anything but ScheduleError', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 600 }), (text) => onlyScheduleErrors(() => describeSchedule(text, { now: NOW }))),
      { numRuns: 500 },
    );
  });

  test('random sentences built from schedule words never throw anything but ScheduleError', () => {
    const sentence = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 12 }).map((w) => w.join(' '));
    fc.assert(
      fc.property(sentence, (text) => onlyScheduleErrors(() => describeSchedule(text, { now: NOW }))),
      { numRuns: 2000 },
    );
  });

  test('accepted random sentences give a schedule whose next run is after now and reproducible', () => {
    const sentence = fc.array(fc.constantFrom(...WORDS), { minLength: 1, maxLength: 8 }).map((w) => w.join(' '));
    fc.assert(
      fc.property(sentence, (text) => {
        let result: ReturnType<typeof describeSchedule> | undefined;
        try {
          result = describeSchedule(text, { now: NOW });
        } catch (err) {
          if (err instanceof ScheduleError) return true;
          throw err;
        }
        const next = new Date(result.next_run_at);
        expect(next.getTime()).toBeGreaterThan(NOW.getTime());
        expect(nextRunAt(result.schedule_info, NOW).getTime()).toBe(next.getTime());
        expect(result.next_run_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:00Z$/);
        return true;
      }),
      { numRuns: 2000 },
    );
  });

  test.each([
    ['digits', '9'.repeat(MAX_DESCRIPTION_LENGTH)],
    ['ordinal list', '1st and '.repeat(62)],
    ['letters', 'a'.repeat(MAX_DESCRIPTION_LENGTH)],
    ['colons', '1:'.repeat(250)],
    ['slashes', `a${'/a'.repeat(249)}`],
    ['zone-like', `Europe${'/x_'.repeat(160)}`],
    ['dashes', 'mon-'.repeat(125)],
    ['every', 'every '.repeat(83)],
    ['a.m.', 'a.m.'.repeat(125)],
    ['mixed', 'every other first last day of the month at 9 '.repeat(11)],
  ])('pathological input (%s) is answered fast', (_name, text) => {
    const started = performance.now();
    expect(onlyScheduleErrors(() => describeSchedule(text.slice(0, MAX_DESCRIPTION_LENGTH), { now: NOW }))).toBe(true);
    expect(performance.now() - started).toBeLessThan(500);
  });

  test('over-long input is rejected before any parsing', () => {
    expect(() => parseSchedule('every day '.repeat(60), { now: NOW })).toThrow(/too long/);
  });

  test('length is counted in characters, as the request schema counts it, not UTF-16 units', () => {
    const emoji = '\u{1F600}'.repeat(MAX_DESCRIPTION_LENGTH);
    expect(() => parseSchedule(emoji, { now: NOW })).not.toThrow(/too long/);
    expect(() => parseSchedule(`${emoji}!`, { now: NOW })).toThrow(`too long (${MAX_DESCRIPTION_LENGTH + 1} characters`);
  });

  test('parseSchedule works without options (now defaults to the current time)', () => {
    const info = parseSchedule('every day at 9');
    expect(info.schedule_time).toBe('09:00');
    expect(info.timezone).toBe('UTC');
  });

  test('a null options.timezone counts as absent', () => {
    const options = { now: NOW, timezone: null as unknown as string };
    expect(parseSchedule('every day', options).timezone).toBe('UTC');
  });

  test('describeSchedule rejects a missing or invalid now with a ScheduleError', () => {
    expect(() => describeSchedule('every day', { now: new Date('nope') })).toThrow(ScheduleError);
    expect(() => describeSchedule('every day', undefined as unknown as { now: Date })).toThrow(ScheduleError);
  });

  test('schedule_info keys come in a fixed order', () => {
    expect(Object.keys(parseSchedule('every day', { now: NOW }))).toEqual([
      'schedule_type',
      'schedule_time',
      'days_of_week',
      'days_of_month',
      'weeks_of_month',
      'months_of_year',
      'interval',
      'timezone',
      'anchor_date',
    ]);
  });

  test('ScheduleError is an Error with a name and a detail', () => {
    const err = new ScheduleError('x');
    expect(err).toBeInstanceOf(Error);
    expect(err.name).toBe('ScheduleError');
    expect(err.detail).toBe('x');
  });
});
