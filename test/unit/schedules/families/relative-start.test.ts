import type { Facts } from '../../../../shared/schedules/families/index.js';
import { dayFromStart, relativeDate, relativeStart } from '../../../../shared/schedules/families/relative-start.js';
import type { Recurrence } from '../../../../shared/schedules/resolve.js';
import { readWith } from './read.js';

describe('issue 25, family 9: starts relative to today', () => {
  test.each([
    ['every other week starting next Tuesday', { kind: 'weekday', day: 2, after: true }, ['starting', 'next', 'Tuesday']],
    ['daily beginning tomorrow at 6', { kind: 'day', offset: 1 }, ['beginning', 'tomorrow']],
    ['every weekday from tomorrow onwards', { kind: 'day', offset: 1 }, ['from', 'tomorrow', 'onwards']],
    ['every 3 days starting today', { kind: 'day', offset: 0 }, ['starting', 'today']],
    ['every 2 weeks starting Monday', { kind: 'weekday', day: 1, after: false }, ['starting', 'Monday']],
    ['every 2 weeks starting this Friday', { kind: 'weekday', day: 5, after: false }, ['starting', 'this', 'Friday']],
    ['every Friday as of next week', { kind: 'week' }, ['as', 'of', 'next', 'week']],
    ['every Monday with effect from next week', { kind: 'week' }, ['with', 'effect', 'from', 'next', 'week']],
    ['starting in 2 weeks, every Monday', { kind: 'day', offset: 14 }, ['starting', 'in', '2', 'weeks']],
    ['every 2 weeks starting in three days', { kind: 'day', offset: 3 }, ['starting', 'in', 'three', 'days']],
    ['monthly effective next month', { kind: 'month' }, ['effective', 'next', 'month']],
    [
      'yearly starting on the coming Monday',
      { kind: 'weekday', day: 1, after: false },
      ['starting', 'on', 'the', 'coming', 'Monday'],
    ],
    [
      'starting this coming Monday, every week',
      { kind: 'weekday', day: 1, after: false },
      ['starting', 'this', 'coming', 'Monday'],
    ],
    [
      'every 2 weeks starting on the 1st of next month',
      { kind: 'dayOfNextMonth', day: 1 },
      ['starting', 'on', 'the', '1st', 'of', 'next', 'month'],
    ],
  ])('%s', (phrase, relative, claimed) => {
    const read = readWith(relativeStart, phrase);
    expect(read.facts.start).toEqual(expect.objectContaining({ date: null, relative }));
    expect(read.claimed).toEqual(claimed);
  });

  test.each([
    ['every day starting now', ['starting', 'now']],
    ['every day effective immediately', ['effective', 'immediately']],
  ])('%s: no start at all', (phrase, claimed) => {
    const read = readWith(relativeStart, phrase);
    expect(read.facts.start).toBeNull();
    expect(read.claimed).toEqual(claimed);
  });

  test.each([
    'every 2 weeks starting Monday 30 November 2026',
    'every Monday from Monday to Friday',
    'every 2 weeks from Monday',
    'every hour starting at 9',
    'every 2 weeks starting soon',
    'starting Mondays',
  ])('%s: not claimed', (phrase) => {
    expect(readWith(relativeStart, phrase).claimed).toEqual([]);
  });

  // Wednesday 4 March 2026.
  const today = { year: 2026, month: 3, day: 4 };
  test.each([
    [{ kind: 'day', offset: 0 } as const, { year: 2026, month: 3, day: 4 }],
    [{ kind: 'day', offset: 1 } as const, { year: 2026, month: 3, day: 5 }],
    [{ kind: 'weekday', day: 2, after: true } as const, { year: 2026, month: 3, day: 10 }],
    [{ kind: 'weekday', day: 3, after: true } as const, { year: 2026, month: 3, day: 11 }],
    // Next week's Friday and Sunday, not this week's.
    [{ kind: 'weekday', day: 5, after: true } as const, { year: 2026, month: 3, day: 13 }],
    [{ kind: 'weekday', day: 0, after: true } as const, { year: 2026, month: 3, day: 15 }],
    [{ kind: 'weekday', day: 3, after: false } as const, { year: 2026, month: 3, day: 4 }],
    [{ kind: 'weekday', day: 5, after: false } as const, { year: 2026, month: 3, day: 6 }],
    [{ kind: 'week' } as const, { year: 2026, month: 3, day: 9 }],
    [{ kind: 'month' } as const, { year: 2026, month: 4, day: 1 }],
    [{ kind: 'year' } as const, { year: 2027, month: 1, day: 1 }],
  ])('relativeDate(%j) from Wednesday 4 March 2026', (day, date) => {
    expect(relativeDate(day, today)).toEqual(date);
  });

  test('relativeDate: next month from December is January', () => {
    expect(relativeDate({ kind: 'month' }, { year: 2026, month: 12, day: 31 })).toEqual({ year: 2027, month: 1, day: 1 });
  });

  test('relativeDate: on a Sunday, next Monday is tomorrow (a new week)', () => {
    expect(relativeDate({ kind: 'weekday', day: 1, after: true }, { year: 2026, month: 3, day: 8 })).toEqual({
      year: 2026,
      month: 3,
      day: 9,
    });
  });

  test('relativeDate: the 15th of next month', () => {
    expect(relativeDate({ kind: 'dayOfNextMonth', day: 15 }, today)).toEqual({ year: 2026, month: 4, day: 15 });
  });

  const none: Facts = readWith(relativeStart, '').facts;
  const weekly: Recurrence = {
    schedule_type: 'weekly',
    days_of_week: [1],
    days_of_month: null,
    weeks_of_month: null,
    months_of_year: null,
    interval: 2,
  };
  const tuesday = { year: 2026, month: 3, day: 10 };

  test("dayFromStart: with no day named, the start's day is the day", () => {
    expect(dayFromStart(weekly, none, tuesday).days_of_week).toEqual([2]);
    const monthly = { ...weekly, schedule_type: 'monthly' as const, days_of_week: null, days_of_month: [1] };
    expect(dayFromStart(monthly, none, tuesday).days_of_month).toEqual([10]);
    const yearly = { ...monthly, schedule_type: 'yearly' as const, months_of_year: [1] };
    expect(dayFromStart(yearly, none, tuesday)).toMatchObject({ days_of_month: [10], months_of_year: [3] });
  });

  test('dayFromStart keeps a day named and a quarter', () => {
    const named = { ...none, weekdayGroups: [{ days: [1], text: 'Monday' }] };
    expect(dayFromStart(weekly, named, tuesday)).toBe(weekly);
    const quarter = {
      ...weekly,
      schedule_type: 'monthly' as const,
      days_of_week: null,
      days_of_month: [1],
      months_of_year: [1, 4, 7, 10],
    };
    expect(dayFromStart(quarter, none, tuesday)).toBe(quarter);
  });
});
