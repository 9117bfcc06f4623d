import { endOf, units } from '../../../../shared/schedules/families/units.js';
import { readWith } from './read.js';

describe('units and "end of"', () => {
  test.each([
    ['daily', 'day', 1],
    ['every week', 'week', 1],
    ['fortnightly', 'week', 2],
    ['quarterly', 'quarter', 1],
    ['annually', 'year', 1],
  ])('%s', (phrase, unit, interval) => {
    expect(readWith(units, phrase).facts.units).toEqual([expect.objectContaining({ unit, interval })]);
  });

  test('end of the month is its last day, start of it the first', () => {
    expect(readWith(endOf, 'end of every month').facts.monthDays.map((d) => d.value)).toEqual([-1]);
    expect(readWith(endOf, 'start of the quarter').facts.monthDays.map((d) => d.value)).toEqual([1]);
  });
});
