/**
 * Family 2, day-of-month lists: "on days 5 and 20", "day three", "day 12 and the last day",
 * and cron descriptions' "day-of-month 1", "between day 1 and 7", "days 1-7", "days 25 to last".
 * Not after "every" / "each" / a count: "every day 5" is not a day of the month.
 */
import { quote, ScheduleError } from '../errors.js';
import { isWord, type Token } from '../tokens.js';
import { type Claim, claim, type PhraseFamily, type View } from './family.js';
import { countValue, DAY_WORDS, type Item, monthDayFacts, RANGE_WORDS, readDayNumber, text } from './readers.js';

/** "1-7", "1 to 7", "1 and 7" after "between": every day from one to the other. */
function readDayRange(view: View, i: number, between: boolean): { items: Item[]; tokens: Token[] } | null {
  const from = readDayNumber(view.free, i);
  const sep = from ? view.free[i + from.tokens.length] : undefined;
  const isSep = between ? isWord(sep, 'and') : sep?.kind === 'dash' || isWord(sep, ...RANGE_WORDS);
  if (!from || !sep || !isSep || from.value === -1) return null;
  const to = readDayNumber(view.free, i + from.tokens.length + 1);
  if (!to) return null;
  const all = [...from.tokens, sep, ...to.tokens];
  if (to.value !== -1 && to.value < from.value) {
    throw new ScheduleError(`${quote(text(view, all))} is not a range of days of the month (it runs backwards)`);
  }
  // "to last": through the 31st, which covers every month's last day.
  const last = to.value === -1 ? 31 : to.value;
  const items: Item[] = [];
  for (let d = from.value; d <= last; d++) items.push({ value: d, tokens: all });
  return { items, tokens: all };
}

export const dayNumbers: PhraseFamily = {
  name: 'day numbers',
  stage: 'recurrence',
  read(view, i): Claim | null {
    const dayWord = view.free[i];
    const before = view.free[i - 1];
    if (!isWord(dayWord, ...DAY_WORDS) || isWord(before, 'every', 'each') || countValue(before) !== null) return null;
    // crontab.guru's "day-of-month 1": the words after "day" are part of the name.
    const [d1, of, d2, month] = view.free.slice(i + 1, i + 5);
    const cronName = d1?.kind === 'dash' && isWord(of, 'of') && d2?.kind === 'dash' && isWord(month, 'month') ? 4 : 0;
    const between = isWord(before, 'between');
    const range = readDayRange(view, i + 1 + cronName, between);
    if (range) {
      const facts = monthDayFacts(view, range.items);
      return claim(view, i, 1 + cronName + range.tokens.length, facts, between ? [before] : []);
    }
    const items: Item[] = [];
    let j = i + 1 + cronName;
    for (;;) {
      const sep = items.length > 0 && isWord(view.free[j], 'and') ? 1 : 0;
      const the = items.length > 0 && isWord(view.free[j + sep], 'the') ? 1 : 0;
      const item = readDayNumber(view.free, j + sep + the);
      // "last" only after a number: "day last" is not English.
      if (!item || (item.value === -1 && items.length === 0)) break;
      items.push(item);
      j += sep + the + item.tokens.length;
    }
    if (items.length === 0) return null;
    return claim(view, i, j - i, monthDayFacts(view, items));
  },
};
