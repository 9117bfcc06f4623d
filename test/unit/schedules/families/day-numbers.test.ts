import { dayNumbers } from '../../../../shared/schedules/families/day-numbers.js';
import { readWith } from './read.js';

describe('family 2: day-of-month lists', () => {
  test.each([
    ['on days 5 and 20', [5, 20], ['days', '5', 'and', '20']],
    ['on day three of each month', [3], ['day', 'three']],
    ['day 12 and the last day', [12, -1], ['day', '12', 'and', 'the', 'last', 'day']],
    ['between day 1 and 3', [1, 2, 3], ['between', 'day', '1', 'and', '3']],
    ['on day-of-month 1', [1], ['day', '-', 'of', '-', 'month', '1']],
  ])('%s', (phrase, days, claimed) => {
    const read = readWith(dayNumbers, phrase);
    expect(read.facts.monthDays.map((d) => d.value)).toEqual(days);
    expect(read.claimed).toEqual(claimed);
  });

  test('not after "every": "every day 5"', () => {
    expect(readWith(dayNumbers, 'every day 5').claimed).toEqual([]);
  });

  test.each([
    ['day 32', '"32" is not a day of the month'],
    ['days 7-1', '"7-1" is not a range of days of the month'],
  ])('refuses %s', (phrase, detail) => {
    expect(() => readWith(dayNumbers, phrase)).toThrow(detail);
  });
});
