import { checkTimesPer, frequencyWords, narrowDaily } from '../../../../shared/schedules/families/frequency-words.js';
import type { Facts } from '../../../../shared/schedules/families/index.js';
import type { Recurrence } from '../../../../shared/schedules/resolve.js';
import { readWith } from './read.js';

describe('issue 25, family 5: a frequency word narrowed by a rule', () => {
  test.each([
    ['twice a month, on the 3rd and the 18th', 2, 'month', ['twice', 'a', 'month']],
    ['three times a week on Mon, Wed and Fri', 3, 'week', ['three', 'times', 'a', 'week']],
    ['twice weekly on Tuesdays and Fridays', 2, 'week', ['twice', 'weekly']],
    ['2 times per month on the 10th and 25th', 2, 'month', ['2', 'times', 'per', 'month']],
    ['3x a week on Mon, Wed, Fri', 3, 'week', ['3', 'x', 'a', 'week']],
    ['twice-monthly on the 1st and 15th', 2, 'month', ['twice', '-', 'monthly']],
    ['semi-annually on January 1 and July 1', 2, 'year', ['semi', '-', 'annually']],
    ['biannually on Jan 1 and Jul 1', 2, 'year', ['biannually']],
    ['thrice a year on Jan 1, May 1 and Sep 1', 3, 'year', ['thrice', 'a', 'year']],
    ['semi-monthly on the 1st and 15th', 2, 'month', ['semi', '-', 'monthly']],
    ['semimonthly on the 1st and 15th', 2, 'month', ['semimonthly']],
  ])('%s', (phrase, count, unit, claimed) => {
    const read = readWith(frequencyWords, phrase);
    expect(read.facts.timesPer).toEqual([expect.objectContaining({ count, unit })]);
    expect(read.facts.units).toEqual([expect.objectContaining({ unit, interval: 1 })]);
    expect(read.claimed).toEqual(claimed);
  });

  test.each(['twice an hour', 'twice', '3 times', 'every 2 weeks', 'bi-weekly on Friday'])('%s: not claimed', (phrase) => {
    expect(readWith(frequencyWords, phrase).claimed).toEqual([]);
  });

  test('"twice a day" is the day, with two runs in it (issue 46: the times are checked after resolving)', () => {
    const read = readWith(frequencyWords, 'twice a day');
    expect(read.facts.timesPer).toEqual([expect.objectContaining({ count: 2, unit: 'day' })]);
    expect(read.claimed).toEqual(['twice', 'a', 'day']);
  });

  const facts = (x: Partial<Facts>): Facts => ({ ...readWith(frequencyWords, '').facts, ...x });
  const unit = (u: 'day' | 'month' | 'week', text: string) => ({ unit: u, interval: 1, text });
  const day = { value: 5, token: { kind: 'ord', text: '5th', lower: '5th', start: 0, end: 3, value: 5, used: true } as const };

  test('narrowDaily drops "daily" beside a month unit and days of the month', () => {
    const given = facts({ units: [unit('day', 'daily'), unit('month', 'month')], monthDays: [day] });
    expect(narrowDaily(given).units).toEqual([unit('month', 'month')]);
  });

  test.each([
    ['no month unit ("every day on the 15th")', facts({ units: [unit('day', 'every day')], monthDays: [day] })],
    ['no days of the month ("daily, monthly")', facts({ units: [unit('day', 'daily'), unit('month', 'monthly')] })],
    ['a week unit', facts({ units: [unit('day', 'daily'), unit('week', 'week')], monthDays: [day] })],
  ])('narrowDaily keeps the units with %s', (_name, given) => {
    expect(narrowDaily(given)).toBe(given);
  });

  const monthly = (days: number[]): Recurrence => ({
    schedule_type: 'monthly',
    days_of_week: null,
    days_of_month: days,
    weeks_of_month: null,
    months_of_year: null,
    interval: 1,
  });
  const twice = facts({ timesPer: [{ count: 2, unit: 'month', text: 'twice a month' }], monthDays: [day, day] });

  test('checkTimesPer accepts as many days as runs', () => {
    expect(() => checkTimesPer(twice, monthly([3, 18]))).not.toThrow();
  });

  test.each([
    [[3], '(1 day a month)'],
    [[1, 10, 20], '(3 days a month)'],
  ])('checkTimesPer refuses %j for "twice a month"', (days, detail) => {
    expect(() => checkTimesPer(twice, monthly(days))).toThrow(detail);
  });
});
