import { weekdays } from '../../../../shared/schedules/families/weekdays.js';
import { readWith } from './read.js';

describe('weekdays', () => {
  test.each([
    ['Mondays and Thursdays', [1, 4]],
    ['mon/wed/fri', [1, 3, 5]],
    ['from Monday to Friday', [1, 2, 3, 4, 5]],
    ['Friday to Monday', [0, 1, 5, 6]],
    ['business days', [1, 2, 3, 4, 5]],
    ['weekends', [0, 6]],
  ])('%s', (phrase, days) => {
    expect(readWith(weekdays, phrase).facts.weekdayGroups).toEqual([expect.objectContaining({ days })]);
  });

  test('claims the words of the list', () => {
    expect(readWith(weekdays, 'from Monday to Friday at 9').claimed).toEqual(['from', 'Monday', 'to', 'Friday']);
  });
});
