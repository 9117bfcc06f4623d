import { ScheduleError } from '../../../../shared/schedules/errors.js';
import { dayLists } from '../../../../shared/schedules/families/day-lists.js';
import { readWith } from './read.js';

const days = (read: ReturnType<typeof readWith>) => read.facts.monthDays.map((d) => d.value);

describe('issue 25, family 1: bare lists of day numbers', () => {
  test.each([
    ['3,10,17 of each month at 08:00', [3, 10, 17], ['3', '10', '17']],
    ['on 1, 15 monthly', [1, 15], ['1', '15']],
    ['monthly on 5 and 20', [5, 20], ['5', 'and', '20']],
    ['the 3, 10 and 17 of every month', [3, 10, 17], ['3', '10', 'and', '17']],
    ['1, 15 and last of every month', [1, 15, -1], ['1', '15', 'and', 'last']],
    ['1, 15 and the last day of every month', [1, 15, -1], ['1', '15', 'and', 'the', 'last', 'day']],
    ['3,10,17 of every 2 months', [3, 10, 17], ['3', '10', '17']],
    ['1, 15 of every quarter', [1, 15], ['1', '15']],
    ['15 of each month', [15], ['15']],
    ['3, 10, 17th of each month', [3, 10, 17], ['3', '10', '17th']],
    ['on 15 monthly', [15], ['15']],
  ])('%s', (phrase, values, claimed) => {
    const read = readWith(dayLists, phrase);
    expect(days(read)).toEqual(values);
    expect(read.claimed).toEqual(claimed);
  });

  test.each([
    ['3, 10, 17', 'no month beside the list'],
    ['3,10,17 of each week', 'a week is no month'],
    ['1, 15 of every 2 weeks', 'weeks are no months'],
    ['every 3 months', 'a count after "every"'],
    ['15 monthly', 'a single number needs "of" after it or "on" before it'],
    ['3 10 of each month', 'no comma or "and" between the numbers: only 10 is read'],
  ])('%s: not a list of days (%s)', (phrase) => {
    const read = readWith(dayLists, phrase);
    expect(read.claimed.length).toBeLessThanOrEqual(1);
    if (read.claimed.length === 1) expect(read.claimed).toEqual(['10']);
  });

  test.each([
    ['0, 15 of each month', '"0" is not a day of the month'],
    ['5, 32 of each month', '"32" is not a day of the month'],
  ])('refuses %s', (phrase, detail) => {
    expect(() => readWith(dayLists, phrase)).toThrow(ScheduleError);
    expect(() => readWith(dayLists, phrase)).toThrow(detail);
  });
});
