import { ScheduleError } from '../../../../shared/schedules/errors.js';
import { startDate } from '../../../../shared/schedules/families/start-date.js';
import { readWith } from './read.js';

describe('family: start date', () => {
  test.each([
    ['every 2 weeks starting Monday 30 November 2026', ['starting', 'Monday', '30', 'November', '2026']],
    ['every 2 weeks starting on 2026-11-30', ['starting', 'on', '2026', '-', '11', '-', '30']],
    ['every 2 weeks starting November 30, 2026', ['starting', 'November', '30', '2026']],
  ])('%s', (phrase, claimed) => {
    const read = readWith(startDate, phrase);
    expect(read.facts.start?.date).toEqual({ year: 2026, month: 11, day: 30 });
    expect(read.claimed).toEqual(claimed);
  });

  test.each([
    ['every 2 weeks starting soon', 'Could not read the date after "starting"'],
    ['every 2 weeks starting Tuesday 30 November 2026', 'is a Monday, not a Tuesday'],
    ['every 2 weeks starting 2026-11-30 starting 2026-12-07', 'Only one start date'],
  ])('refuses %s', (phrase, detail) => {
    expect(() => readWith(startDate, phrase)).toThrow(ScheduleError);
    expect(() => readWith(startDate, phrase)).toThrow(detail);
  });
});
