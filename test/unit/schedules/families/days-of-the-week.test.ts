import { daysOfTheWeek } from '../../../../shared/schedules/families/days-of-the-week.js';
import { weekdays } from '../../../../shared/schedules/families/weekdays.js';
import { readWith } from './read.js';

describe('issue 25, family 3: every day of the week', () => {
  test.each([
    ['each day of the week from Tuesday through Thursday at 7pm', ['each', 'day', 'of', 'the', 'week']],
    ['every day of the week except Sunday', ['every', 'day', 'of', 'the', 'week']],
    ['all days of the week at 9', ['all', 'days', 'of', 'the', 'week']],
    ['every day of week', ['every', 'day', 'of', 'week']],
    ['every day of the month at noon', ['every', 'day', 'of', 'the', 'month']],
    ['7 days a week at 6am', ['7', 'days', 'a', 'week']],
    ['seven days per week', ['seven', 'days', 'per', 'week']],
  ])('%s is the daily unit', (phrase, claimed) => {
    const read = readWith(daysOfTheWeek, phrase);
    expect(read.facts.units).toEqual([expect.objectContaining({ unit: 'day', interval: 1 })]);
    expect(read.claimed).toEqual(claimed);
  });

  test('crontab.guru\'s "every day-of-week" is the daily unit; "every day-of-month from 8 through 14" the days', () => {
    expect(readWith(daysOfTheWeek, 'At 22:00 on every day-of-week from Monday through Friday.').facts.units).toEqual([
      expect.objectContaining({ unit: 'day', interval: 1 }),
    ]);
    const days = readWith(daysOfTheWeek, 'At 04:00 on every day-of-month from 8 through 14.').facts.monthDays.map((d) => d.value);
    expect(days).toEqual([8, 9, 10, 11, 12, 13, 14]);
  });

  test('"every Monday and every Tuesday" is one list of weekdays', () => {
    const read = readWith(weekdays, 'every Monday and every Tuesday');
    expect(read.facts.weekdayGroups).toEqual([{ days: [1, 2], text: 'Monday and every Tuesday' }]);
  });

  test('"every day of the working week" is Monday to Friday', () => {
    const read = readWith(daysOfTheWeek, 'every day of the working week at 8');
    expect(read.facts.weekdayGroups).toEqual([{ days: [1, 2, 3, 4, 5], text: 'every day of the working week' }]);
    expect(read.facts.units).toEqual([]);
  });

  test.each(['every day', 'every day of the fortnight', '7 days a month', 'every Monday of the week', 'days of the week'])(
    '%s: not claimed',
    (phrase) => {
      expect(readWith(daysOfTheWeek, phrase).claimed).toEqual([]);
    },
  );
});
