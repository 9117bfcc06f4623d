import { bareMonthDays, months } from '../../../../shared/schedules/families/calendar-dates.js';
import { readWith } from './read.js';

describe('months and dates', () => {
  test.each([
    ['January, April and July', [1, 4, 7], [], ['January', 'and', 'April', 'July']],
    ['every year on Dec 25', [12], [25], ['Dec', '25']],
    ['Nov-Feb', [11, 12, 1, 2], [], ['Nov', '-', 'Feb']],
  ])('%s', (phrase, monthValues, days, claimed) => {
    const read = readWith(months, phrase);
    expect(read.facts.months.map((m) => m.value)).toEqual(monthValues);
    expect(read.facts.monthDays.map((d) => d.value)).toEqual(days);
    expect([...read.claimed].sort()).toEqual([...claimed].sort());
  });

  test('only in March and April', () => {
    expect(readWith(months, 'only in March and April').facts.onlyInMonths).toBe(true);
  });

  test('"may" the verb is no month', () => {
    expect(readWith(months, 'it may run daily').claimed).toEqual([]);
  });

  test('bare day numbers: "3 March", "the 15 of every month"', () => {
    expect(readWith(bareMonthDays, '3 March').facts.monthDays.map((d) => d.value)).toEqual([3]);
    expect(readWith(bareMonthDays, 'the 15 of every month').claimed).toEqual(['15']);
    expect(readWith(bareMonthDays, 'at 15').claimed).toEqual([]);
  });
});
