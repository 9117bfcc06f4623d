import { subDaily } from '../../../../shared/schedules/families/sub-daily.js';
import { windowLead, windowSeparator } from '../../../../shared/schedules/families/window-words.js';
import { tokenize } from '../../../../shared/schedules/tokens.js';
import { readWith } from './read.js';

describe('issue 25, family 10: windows of the day in words', () => {
  test.each([
    ['every 30 minutes from 8:15 am until 5:15 pm on weekdays', 8 * 60 + 15, 17 * 60 + 15, 'from 8:15 am until 5:15 pm'],
    ['starting at 9 and finishing at 17 every 2 hours', 9 * 60, 17 * 60, 'starting at 9 and finishing at 17'],
    ['every hour beginning 8am, ending 6pm', 8 * 60, 18 * 60, 'beginning 8am, ending 6pm'],
    ['every 2 hours between the hours of 8am and 6pm', 8 * 60, 18 * 60, 'between the hours of 8am and 6pm'],
    [
      'every 20 minutes starting at 9:10 and stopping at 11:50',
      9 * 60 + 10,
      11 * 60 + 50,
      'starting at 9:10 and stopping at 11:50',
    ],
    ['every hour from 9 and ending at 5', 9 * 60, 17 * 60, 'from 9 and ending at 5'],
    ['every hour between 9 to 5', 9 * 60, 17 * 60, 'between 9 to 5'],
    // No am/pm and an end before the start: the end is in the afternoon.
    ['every hour from 9 to 5', 9 * 60, 17 * 60, 'from 9 to 5'],
    ['every 15 minutes between 10 and 2', 10 * 60, 14 * 60, 'between 10 and 2'],
    ['every 2 hours, 8 to 8', 8 * 60, 20 * 60, '8 to 8'],
    // With am/pm or a 24-hour end, the end is as written (refused later: it runs backwards).
    ['every hour from 9 to 5am', 9 * 60, 5 * 60, 'from 9 to 5am'],
    ['every hour from 18 to 6', 18 * 60, 6 * 60, 'from 18 to 6'],
    ['every hour 9-17', 9 * 60, 17 * 60, '9-17'],
    ['every hour during 9am-5pm', 9 * 60, 17 * 60, 'during 9am-5pm'],
    [
      'every 30 minutes from 9 in the morning until 5 in the afternoon',
      9 * 60,
      17 * 60,
      'from 9 in the morning until 5 in the afternoon',
    ],
    ['every hour from 8am to 8 at night', 8 * 60, 20 * 60, 'from 8am to 8 at night'],
    // "through" a bare hour takes in that hour (crontab.guru's "from 9 through 17").
    ['every hour from 9 through 17', 9 * 60, 17 * 60 + 59, 'from 9 through 17'],
    ['every hour from 9am through 5pm', 9 * 60, 17 * 60, 'from 9am through 5pm'],
  ])('%s', (phrase, start, end, text) => {
    expect(readWith(subDaily, phrase).facts.windows).toEqual([{ start, end, text }]);
  });

  test('"starting at 9" alone is half a window (refused when the timing is worked out)', () => {
    expect(readWith(subDaily, 'every hour starting at 9').facts.windows).toEqual([
      { start: 540, end: null, text: 'starting at 9' },
    ]);
  });

  test('without a frequency no window is read', () => {
    expect(readWith(subDaily, 'starting at 9 and finishing at 17').facts.windows).toEqual([]);
  });

  test.each([
    ['between 9', 1],
    ['starting at 9', 2],
    ['between the hours of 8am', 4],
    ['at 9', 0],
  ])('windowLead(%s) is %d', (phrase, length) => {
    expect(windowLead(tokenize(phrase), 0)).toBe(length);
  });

  test.each([
    ['and finishing at 17', false, 3],
    ['ending 6pm', false, 1],
    ['and 17', true, 1],
    ['and 17', false, 0],
    ['until 5', false, 1],
    ['to 5', true, 1],
    ['- 5', false, 1],
    ['17', false, 0],
  ])('windowSeparator(%s, between: %s) is %d', (phrase, between, length) => {
    expect(windowSeparator(tokenize(phrase), 0, between)).toBe(length);
  });
});
