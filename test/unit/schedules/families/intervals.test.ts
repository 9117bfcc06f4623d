import { intervals } from '../../../../shared/schedules/families/intervals.js';
import { readWith } from './read.js';

describe('intervals', () => {
  test.each([
    ['every 3 days', 'day', 3, ['every', '3', 'days']],
    ['every other week', 'week', 2, ['every', 'other', 'week']],
    ['every second month', 'month', 2, ['every', 'second', 'month']],
    ['every other Friday', 'week', 2, ['every', 'other']],
  ])('%s', (phrase, unit, interval, claimed) => {
    const read = readWith(intervals, phrase);
    expect(read.facts.units).toEqual([expect.objectContaining({ unit, interval })]);
    expect(read.claimed).toEqual(claimed);
  });

  test.each([
    ['every 0 days', '"every 0 days" is not a supported interval'],
    ['every 400 days', 'days: 1 to 365'],
    ['every 2 quarters', '"every 2 quarters" is not supported'],
  ])('refuses %s', (phrase, detail) => {
    expect(() => readWith(intervals, phrase)).toThrow(detail);
  });
});
