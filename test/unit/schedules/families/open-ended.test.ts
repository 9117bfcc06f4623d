import { ScheduleError } from '../../../../shared/schedules/errors.js';
import { openEnded } from '../../../../shared/schedules/families/open-ended.js';
import { readWith } from './read.js';

describe('issue 25, family 2: open-ended tails', () => {
  test.each([
    ['every other Tuesday, indefinitely', ['indefinitely']],
    ['weekly on Fridays - forever', ['forever']],
    ['every day until further notice', ['until', 'further', 'notice']],
    ['every weekday from now on', ['from', 'now', 'on']],
    ['daily, never-ending', ['never', '-', 'ending']],
    ['every Monday with no end date', ['with', 'no', 'end', 'date']],
    ['monthly until cancelled', ['until', 'cancelled']],
    ['daily until I cancel', ['until', 'I', 'cancel']],
    ['every day on an ongoing basis', ['ongoing', 'basis']],
    ['every Monday, open-ended', ['open', '-', 'ended']],
    ['daily including weekends', ['including', 'weekends']],
  ])('%s claims the tail and finds nothing', (phrase, claimed) => {
    const read = readWith(openEnded, phrase);
    expect(read.claimed).toEqual(claimed);
    expect(read.facts).toMatchObject({ start: null, units: [], weekdayGroups: [], months: [] });
  });

  test.each([
    'Monday until Friday',
    'from June until August',
    'days 1 through 7',
    'every hour from 9am until 5pm',
    'every day at 1900 hrs',
    'three times a week',
    'weekdays including weekends',
  ])('%s is no end and no count: nothing claimed', (phrase) => {
    expect(readWith(openEnded, phrase).claimed).toEqual([]);
  });

  test.each([
    ['every day until 31 December 2026', 'An end date ("until 31 December 2026")'],
    ['every Monday until December', 'An end date ("until December")'],
    ['weekly on Friday through the end of the year', 'An end date ("through the end of the year")'],
    ['every day until next Friday', 'An end date ("until next Friday")'],
    ['daily ending on 1 May 2027', 'An end date ("ending on 1 May 2027")'],
    ['every Monday for 6 weeks', 'A number of runs ("for 6 weeks")'],
    ['daily for the next three months', 'A number of runs ("for the next three months")'],
    ['every day 10 times', 'A number of runs ("10 times")'],
    ['every Friday, 5 occurrences', 'A number of runs ("5 occurrences")'],
  ])('refuses %s', (phrase, detail) => {
    expect(() => readWith(openEnded, phrase)).toThrow(ScheduleError);
    expect(() => readWith(openEnded, phrase)).toThrow(detail);
  });
});
