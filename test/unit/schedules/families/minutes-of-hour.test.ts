import { ScheduleError } from '../../../../shared/schedules/errors.js';
import { subDaily } from '../../../../shared/schedules/families/sub-daily.js';
import { readWith } from './read.js';

/** The minute of the hour is read by the sub-daily family, beside a frequency. */
describe('issue 25, family 6: minutes within the hour', () => {
  test.each([
    ['at twenty past every hour', 20, undefined, 'at twenty past'],
    ['every hour on the hour', 0, undefined, 'on the hour'],
    ['hourly at :45', 45, undefined, 'at :45'],
    ['every hour at quarter to', 45, true, 'at quarter to'],
    ['at ten to every hour', 50, true, 'at ten to'],
    ['every hour at 5 minutes to the hour', 55, true, 'at 5 minutes to the hour'],
    ['every hour on the half hour', 30, undefined, 'on the half hour'],
    ['every hour on the half-hour', 30, undefined, 'on the half-hour'],
    ['every hour, at the half hour', 30, undefined, 'at the half hour'],
    ['every hour at xx:30', 30, undefined, 'at xx:30'],
    ['hourly at HH:05', 5, undefined, 'at HH:05'],
    ['at the 15th minute of every hour', 15, undefined, '15th minute'],
    ['At minute 15 past every hour.', 15, undefined, 'At minute 15 past'],
    ['every hour at the top of the hour', 0, undefined, 'at the top of the hour'],
    ['hourly at the bottom of the hour', 30, undefined, 'at the bottom of the hour'],
    ['every hour at 45', 45, undefined, 'at 45'],
    ['every hour at the 30 minute mark', 30, undefined, '30 minute mark'],
  ])('%s', (phrase, minute, toHour, text) => {
    const read = readWith(subDaily, phrase);
    const expected = { minute, text, ...(toHour ? { toHour } : {}) };
    expect(read.facts.minutesOfHour).toEqual([expected]);
  });

  test.each([
    ['every hour at 9', 'a single digit after "at" stays a time of day'],
    ['every day at quarter to 6', 'no frequency: "quarter to 6" is a time of day'],
    ['every hour at quarter to 6', '"quarter to 6" is a time of day'],
  ])('%s: no minute of the hour (%s)', (phrase) => {
    expect(readWith(subDaily, phrase).facts.minutesOfHour).toEqual([]);
  });

  test.each([
    ['every hour at half to', '"half to" is not a minute of the hour'],
    ['every hour at 75', '"75" is not a minute of the hour'],
  ])('refuses %s', (phrase, detail) => {
    expect(() => readWith(subDaily, phrase)).toThrow(ScheduleError);
    expect(() => readWith(subDaily, phrase)).toThrow(detail);
  });
});
