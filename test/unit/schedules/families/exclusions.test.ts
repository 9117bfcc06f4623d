import { exclusions } from '../../../../shared/schedules/families/exclusions.js';
import { readWith } from './read.js';

describe('family 5: exclusions', () => {
  test.each([
    ['every day except Sunday', [0], ['except', 'Sunday']],
    ['weekdays but not Mondays', [1], ['but', 'not', 'Mondays']],
    ['daily excluding Saturdays and Sundays', [0, 6], ['excluding', 'Saturdays', 'and', 'Sundays']],
    // Issue 25: "but" right before the weekdays.
    ['every day of the week but Sunday', [0], ['but', 'Sunday']],
  ])('%s', (phrase, days, claimed) => {
    const read = readWith(exclusions, phrase);
    expect(read.facts.excludedWeekdays).toEqual([expect.objectContaining({ days })]);
    expect(read.claimed).toEqual(claimed);
  });

  test('"except weekends" is refused: name the days to run', () => {
    expect(() => readWith(exclusions, 'every day except weekends')).toThrow('"except" before "weekends" is not supported');
  });

  test('"except holidays" claims nothing', () => {
    expect(readWith(exclusions, 'every day except holidays').claimed).toEqual([]);
  });
});
