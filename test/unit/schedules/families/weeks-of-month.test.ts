import { ScheduleError } from '../../../../shared/schedules/errors.js';
import { weeksAsNth, weeksOfMonth } from '../../../../shared/schedules/families/weeks-of-month.js';
import { readWith } from './read.js';

describe('issue 25, family 8: weeks of the month in other words', () => {
  test.each([
    ['in the first and third week of each month on Mondays', [1, 3], ['first', 'and', 'third', 'week']],
    ['Mondays in the last week of the month', [-1], ['last', 'week']],
    ['in week 2 of every month on Tuesday', [2], ['week', '2']],
    ['in weeks 1 and 3 of the month on Friday', [1, 3], ['weeks', '1', 'and', '3']],
    ['on Friday of the second week of every 2 months', [2], ['second', 'week']],
    ['in the first week of March on Mondays', [1], ['first', 'week']],
    ['every 2nd week of the month on Tuesday', [2], ['every', '2nd', 'week']],
  ])('%s', (phrase, weeks, claimed) => {
    const read = readWith(weeksOfMonth, phrase);
    expect(read.facts.weeksOfMonth).toEqual([expect.objectContaining({ weeks })]);
    expect(read.claimed).toEqual(claimed);
  });

  test.each([
    ['on the 2 Fri of every month', [2], [5], ['2', 'Fri']],
    ['on the 4 Wed monthly', [4], [3], ['4', 'Wed']],
    ['the 1 and 3 Mon of each month', [1, 3], [1], ['1', 'and', '3', 'Mon']],
    ['2 Tue and Thu of every month', [2], [2, 4], ['2', 'Tue', 'and', 'Thu']],
  ])('%s: nth weekdays', (phrase, weeks, days, claimed) => {
    const read = readWith(weeksOfMonth, phrase);
    expect(read.facts.nth).toEqual([expect.objectContaining({ weeks, days })]);
    expect(read.claimed).toEqual(claimed);
  });

  test.each([
    'every second week on Monday',
    'every 2nd week on Monday',
    'first week',
    'the first week of the year on Monday',
    '2 Fri',
    'at 2 Fri',
  ])('%s: not claimed', (phrase) => {
    expect(readWith(weeksOfMonth, phrase).claimed).toEqual([]);
  });

  test.each([
    ['6th week of the month on Monday', '"6th week" is not a week of the month'],
    ['the 6 Fri of every month', '"6 Fri" is not a week of the month'],
  ])('refuses %s', (phrase, detail) => {
    expect(() => readWith(weeksOfMonth, phrase)).toThrow(ScheduleError);
    expect(() => readWith(weeksOfMonth, phrase)).toThrow(detail);
  });

  test('weeksAsNth gives the weeks the weekdays named', () => {
    const nth = weeksAsNth([{ weeks: [3, 1], text: 'first and third week' }], { days: [1], text: 'Mondays' });
    expect(nth).toEqual({ weeks: [1, 3], days: [1], text: 'Mondays first and third week', everyOrdinal: null });
    expect(weeksAsNth([], null)).toBeNull();
  });

  test('weeksAsNth refuses weeks with no weekday', () => {
    expect(() => weeksAsNth([{ weeks: [1], text: 'first week' }], null)).toThrow('Say which day of "first week"');
  });
});
