import { timesOfDay } from '../../../../shared/schedules/families/times-of-day.js';
import { readWith } from './read.js';

describe('family 8: times of day', () => {
  test.each([
    ['daily at 1730 hrs', { hour: 17, minute: 30 }, ['at', '1730', 'hrs']],
    ['seven am daily', { hour: 7, minute: 0 }, ['seven', 'am']],
    ['half past nine daily', { hour: 9, minute: 30 }, ['half', 'past', 'nine']],
    ['quarter to 6 daily', { hour: 5, minute: 45 }, ['quarter', 'to', '6']],
    ['at 12am (midnight) daily', { hour: 0, minute: 0 }, ['at', '12', 'am', 'midnight']],
    // Issue 46: "08h30", "at 18h", "9 o clock".
    ['08h30 daily', { hour: 8, minute: 30 }, ['08', 'h', '30']],
    ['daily at 8h05', { hour: 8, minute: 5 }, ['at', '8', 'h', '05']],
    ['at 18h daily', { hour: 18, minute: 0 }, ['at', '18', 'h']],
    ['9 o clock daily', { hour: 9, minute: 0 }, ['9', 'o', 'clock']],
    ['at 9 o clock pm daily', { hour: 21, minute: 0 }, ['at', '9', 'o', 'clock', 'pm']],
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

  test.each(['18h daily', '8 h 30 daily'])('%s: no time (an "h" alone, or apart from its digits)', (phrase) => {
    expect(readWith(timesOfDay, phrase).facts.times).toEqual([]);
  });

  test.each([
    ['at 25:00', 'Invalid time of day "25:00"'],
    ['at 25h30', 'Invalid time of day "25h30"'],
    ['at 9h75', 'Invalid time of day "9h75"'],
  ])('refuses %s', (phrase, detail) => {
    expect(() => readWith(timesOfDay, phrase)).toThrow(detail);
  });
});
