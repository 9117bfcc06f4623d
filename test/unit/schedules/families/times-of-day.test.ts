import { timesOfDay } from '../../../../shared/schedules/families/times-of-day.js';
import { readWith } from './read.js';

describe('family 8: times of day', () => {
  test.each([
    ['daily at 1730 hrs', { hour: 17, minute: 30 }, ['at', '1730', 'hrs']],
    ['seven am daily', { hour: 7, minute: 0 }, ['seven', 'am']],
    ['half past nine daily', { hour: 9, minute: 30 }, ['half', 'past', 'nine']],
    ['quarter to 6 daily', { hour: 5, minute: 45 }, ['quarter', 'to', '6']],
    ['at 12am (midnight) daily', { hour: 0, minute: 0 }, ['at', '12', 'am', 'midnight']],
  ])('%s', (phrase, time, claimed) => {
    const read = readWith(timesOfDay, phrase);
    expect(read.facts.time?.time).toEqual(time);
    expect(read.claimed).toEqual(claimed);
  });

  test.each([
    ['at 9am and 5pm', 'Only one time of day per schedule is supported, found "9am" and "5pm"'],
    ['at 12am (noon)', 'contradict'],
    ['at 25:00', 'Invalid time of day "25:00"'],
  ])('refuses %s', (phrase, detail) => {
    expect(() => readWith(timesOfDay, phrase)).toThrow(detail);
  });
});
