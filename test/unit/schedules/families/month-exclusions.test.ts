import { ScheduleError } from '../../../../shared/schedules/errors.js';
import type { Facts } from '../../../../shared/schedules/families/index.js';
import { applyMonthExclusions, monthExclusions, monthsLeft } from '../../../../shared/schedules/families/month-exclusions.js';
import type { Recurrence } from '../../../../shared/schedules/resolve.js';
import { readWith } from './read.js';

describe('issue 25, family 7: month exclusions', () => {
  test.each([
    ['on the 5th of every month except August', [8], ['except', 'August']],
    ['every Monday except in July and August', [7, 8], ['except', 'in', 'July', 'and', 'August']],
    ['daily excluding June through August', [6, 7, 8], ['excluding', 'June', 'through', 'August']],
    ['every day but not during December', [12], ['but', 'not', 'during', 'December']],
    ['every day except for the months of May and June', [5, 6], ['except', 'for', 'the', 'months', 'of', 'May', 'and', 'June']],
    ['every day except Nov-Feb', [11, 12, 1, 2], ['except', 'Nov', '-', 'Feb']],
    ['every month but August on the 5th', [8], ['but', 'August']],
    ['every weekday, skipping August', [8], ['skipping', 'August']],
  ])('%s', (phrase, months, claimed) => {
    const read = readWith(monthExclusions, phrase);
    expect(read.facts.excludedMonths).toEqual([expect.objectContaining({ months })]);
    expect(read.claimed).toEqual(claimed);
  });

  test('"except Sunday and August" takes out the weekday and the month', () => {
    const read = readWith(monthExclusions, 'every day except Sunday and August');
    expect(read.facts.excludedWeekdays).toEqual([{ days: [0], text: 'except Sunday' }]);
    expect(read.facts.excludedMonths).toEqual([{ months: [8], text: 'except Sunday and August' }]);
  });

  test.each(['every day except Sunday', 'every day except holidays', 'Mon-Fri but not Wednesday'])(
    '%s: not claimed',
    (phrase) => {
      expect(readWith(monthExclusions, phrase).claimed).toEqual([]);
    },
  );

  test('"but only during June" claims "but": the months are read as named', () => {
    const read = readWith(monthExclusions, 'every Thursday, but only during June');
    expect(read.claimed).toEqual(['but']);
    expect(read.facts.excludedMonths).toEqual([]);
  });

  test('"except August 15" is a date, refused', () => {
    expect(() => readWith(monthExclusions, 'every Monday except August 15')).toThrow(ScheduleError);
    expect(() => readWith(monthExclusions, 'every Monday except August 15')).toThrow('"except August 15" leaves out a date');
  });

  const facts = (months: number[]): Facts => ({
    ...readWith(monthExclusions, '').facts,
    excludedMonths: [{ months, text: `except ${months.join(' ')}` }],
  });
  const r = (x: Partial<Recurrence>): Recurrence => ({
    schedule_type: 'weekly',
    days_of_week: [1],
    days_of_month: null,
    weeks_of_month: null,
    months_of_year: null,
    interval: 1,
    ...x,
  });

  test('applyMonthExclusions leaves every other month', () => {
    expect(applyMonthExclusions(r({}), facts([7, 8])).months_of_year).toEqual([1, 2, 3, 4, 5, 6, 9, 10, 11, 12]);
  });

  test("applyMonthExclusions takes a quarter's month out of the quarter", () => {
    const quarter = r({ schedule_type: 'monthly', days_of_week: null, days_of_month: [1], months_of_year: [1, 4, 7, 10] });
    expect(applyMonthExclusions(quarter, facts([10])).months_of_year).toEqual([1, 4, 7]);
    expect(() => applyMonthExclusions(quarter, facts([8]))).toThrow('contradict');
  });

  test('applyMonthExclusions refuses every N months', () => {
    const everyTwo = r({ schedule_type: 'monthly', days_of_week: null, days_of_month: [1], interval: 2 });
    expect(() => applyMonthExclusions(everyTwo, facts([8]))).toThrow('with an interval of months is not supported');
  });

  test('monthsLeft refuses leaving no month', () => {
    expect(() => monthsLeft([8], 'August', facts([8]))).toThrow('leaves no month to run');
  });
});
