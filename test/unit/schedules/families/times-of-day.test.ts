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

  test('several times are several facts (issue 46: several-times.ts settles them)', () => {
    const read = readWith(timesOfDay, 'at 9am and 5pm');
    expect(read.facts.times.map((t) => t.time)).toEqual([
      { hour: 9, minute: 0 },
      { hour: 17, minute: 0 },
    ]);
    expect(read.claimed).toEqual(['at', '9', 'am', '5', 'pm']);
  });

  test('a time in brackets right after another restates it', () => {
    const read = readWith(timesOfDay, 'at 12am (midnight) daily');
    expect(read.facts.times.map((t) => t.text)).toEqual(['12am']);
  });

  test.each([['at 25:00', 'Invalid time of day "25:00"']])('refuses %s', (phrase, detail) => {
    expect(() => readWith(timesOfDay, phrase)).toThrow(detail);
  });
});
