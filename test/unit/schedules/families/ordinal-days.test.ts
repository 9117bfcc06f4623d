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

  test.each([
    ['first business day', [1], [1, 2, 3, 4, 5], ['first', 'business', 'day']],
    ['last weekday', [-1], [1, 2, 3, 4, 5], ['last', 'weekday']],
    ['the 3rd working day', [3], [1, 2, 3, 4, 5], ['3rd', 'working', 'day']],
    ['first and last weekday', [1, -1], [1, 2, 3, 4, 5], ['first', 'and', 'last', 'weekday']],
    ['last weekend day', [-1], [0, 6], ['last', 'weekend', 'day']],
  ])('issue 46: %s is a position among the working days', (phrase, positions, days, claimed) => {
    const read = readWith(ordinalDays, phrase);
    expect(read.facts.nth).toEqual([expect.objectContaining({ weeks: positions, days, setPositions: true })]);
    expect(read.claimed).toEqual(claimed);
  });

  test('twenty-first and last day', () => {
    const read = readWith(ordinalDays, 'twenty-first and last day');
    expect(read.facts.monthDays.map((d) => d.value)).toEqual([21, -1]);
  });

  test.each([
    ['6th Monday', '"6th Monday" is not a week of the month'],
    ['the 32nd', '"32nd" is not a day of the month'],
    ['the 21st business day', '"21st business day" is not a weekday every month has'],
    ['every second working day', '"every second working day" is not clear'],
  ])('refuses %s', (phrase, detail) => {
    expect(() => readWith(ordinalDays, phrase)).toThrow(detail);
  });
});
