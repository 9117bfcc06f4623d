import { ordinalDays } from '../../../../shared/schedules/families/ordinal-days.js';
import { readWith } from './read.js';

describe('family 6 and days of the month: ordinals', () => {
  test('first Monday', () => {
    const read = readWith(ordinalDays, 'first Monday of the month');
    expect(read.facts.nth).toEqual([expect.objectContaining({ weeks: [1], days: [1], everyOrdinal: null })]);
    expect(read.claimed).toEqual(['first', 'Monday']);
  });

  test('every second Tuesday remembers the "every"', () => {
    expect(readWith(ordinalDays, 'every second Tuesday').facts.nth[0]?.everyOrdinal).toBe(2);
  });

  test('the 1st and 15th', () => {
    const read = readWith(ordinalDays, 'the 1st and 15th');
    expect(read.facts.monthDays.map((d) => d.value)).toEqual([1, 15]);
    expect(read.claimed).toEqual(['1st', 'and', '15th']);
  });

  test('twenty-first and last day', () => {
    const read = readWith(ordinalDays, 'twenty-first and last day');
    expect(read.facts.monthDays.map((d) => d.value)).toEqual([21, -1]);
  });

  test.each([
    ['6th Monday', '"6th Monday" is not a week of the month'],
    ['the 32nd', '"32nd" is not a day of the month'],
    ['first business day', '"first business day" (an nth working day) is not supported'],
  ])('refuses %s', (phrase, detail) => {
    expect(() => readWith(ordinalDays, phrase)).toThrow(detail);
  });
});
