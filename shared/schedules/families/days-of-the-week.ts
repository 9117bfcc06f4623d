/**
 * Issue 25, family 3, "every day of the week": "each day of the week from Tuesday through
 * Thursday", "every day of the week except Sunday", "7 days a week", "every day of the month".
 * The phrase is the daily unit as one mention, so "week" (or "month") in it is no second repeat
 * unit; weekdays named beside it narrow it as they narrow "every day" ("daily on weekdays").
 */
import { isWord, type Token } from '../tokens.js';
import { claim, type PhraseFamily } from './family.js';
import { DAY_WORDS, text } from './readers.js';

const PERIODS = ['week', 'month', 'year'];

export const daysOfTheWeek: PhraseFamily = {
  name: 'every day of the week',
  stage: 'recurrence',
  read(view, i) {
    const { free } = view;
    const [day, of] = [free[i], free[i + 1]];
    const every = free[i - 1];
    if (!isWord(day, ...DAY_WORDS)) return null;
    // "every day of the week", "each day of the month", "all days of the week"
    if (isWord(every, 'every', 'each', 'all') && isWord(of, 'of')) {
      const the = isWord(free[i + 2], 'the') ? 1 : 0;
      // "every day of the working week": Monday to Friday.
      const work = isWord(free[i + 2 + the], 'working', 'work', 'business') && isWord(free[i + 3 + the], 'week') ? 1 : 0;
      if (work) {
        const tokens = [every, ...free.slice(i, i + 4 + the)];
        const days = { days: [1, 2, 3, 4, 5], text: text(view, tokens) };
        return claim(view, i, 4 + the, [{ kind: 'weekdays', days }], [every]);
      }
      const period = free[i + 2 + the];
      if (!isWord(period, ...PERIODS)) return null;
      const tokens = [every, ...free.slice(i, i + 3 + the)];
      return claim(view, i, 3 + the, [{ kind: 'unit', unit: { unit: 'day', interval: 1, text: text(view, tokens) } }], [every]);
    }
    // "7 days a week", "seven days a week"
    const seven = every;
    if ((seven?.kind === 'num' && seven.value === 7) || isWord(seven, 'seven')) {
      if (!isWord(of, 'a', 'per', 'each', 'every') || !isWord(free[i + 2], 'week')) return null;
      const tokens = [seven as Token, ...free.slice(i, i + 3)];
      return claim(
        view,
        i,
        3,
        [{ kind: 'unit', unit: { unit: 'day', interval: 1, text: text(view, tokens) } }],
        [seven as Token],
      );
    }
    return null;
  },
};
