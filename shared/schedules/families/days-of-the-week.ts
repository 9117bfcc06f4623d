/**
 * Issue 25, family 3, "every day of the week": "each day of the week from Tuesday through
 * Thursday", "every day of the week except Sunday", "7 days a week", "every day of the month".
 * The phrase is the daily unit as one mention, so "week" (or "month") in it is no second repeat
 * unit; weekdays named beside it narrow it as they narrow "every day" ("daily on weekdays").
 */
import { isWord, type Token } from '../tokens.js';
import { type Claim, claim, type PhraseFamily, type View } from './family.js';
import { DAY_WORDS, monthDayFacts, text } from './readers.js';

const PERIODS = ['week', 'month', 'year'];

/**
 * crontab.guru's names with dashes: "every day-of-week" is every day (the weekdays after it narrow
 * it), "every day-of-month from 8 through 14" the days of the month 8 to 14.
 */
function cronName(view: View, i: number): Claim | null {
  const { free } = view;
  const [d1, of, d2, period] = free.slice(i + 1, i + 5);
  if (d1?.kind !== 'dash' || !isWord(of, 'of') || d2?.kind !== 'dash' || !isWord(period, 'week', 'month')) return null;
  const every = free[i - 1] as Token;
  const tokens = [every, ...free.slice(i, i + 5)];
  if (period.lower === 'week') {
    return claim(view, i, 5, [{ kind: 'unit', unit: { unit: 'day', interval: 1, text: text(view, tokens) } }], [every]);
  }
  const [from, a, through, b] = free.slice(i + 5, i + 9);
  const isDay = (t: Token | undefined): t is Token => t?.kind === 'num' && t.text.length <= 2;
  if (!isWord(from, 'from') || !isDay(a) || !isWord(through, 'through', 'to') || !isDay(b)) return null;
  if (b.value < a.value) return null;
  const items = [];
  for (let d = a.value; d <= b.value; d++) items.push({ value: d, tokens: [a, through, b] });
  return claim(view, i, 9, monthDayFacts(view, items), [every]);
}

export const daysOfTheWeek: PhraseFamily = {
  name: 'every day of the week',
  stage: 'recurrence',
  read(view, i) {
    const { free } = view;
    const [day, of] = [free[i], free[i + 1]];
    const every = free[i - 1];
    if (!isWord(day, ...DAY_WORDS)) return null;
    // crontab.guru: "on every day-of-week from Monday through Friday", "every day-of-month from 8 through 14".
    const cron = cronName(view, i);
    if (cron && isWord(every, 'every', 'each')) return cron;
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
