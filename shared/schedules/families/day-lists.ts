/**
 * Issue 25, family 1, bare lists of day numbers: "3,10,17 of each month", "on 1, 15 monthly",
 * "monthly on 5 and 20", "the 3, 10 and 17 of every month", "15 of each month". Day numbers in
 * digits, joined by commas or "and", with "last" ("1, 15 and last") at the end. A bare number is
 * a day of the month only beside a month: a month unit after the list ("of each month",
 * "monthly", "of every 2 months", "of every quarter") or before it ("monthly on 1, 15"); a single
 * number also needs "of" after it or "on" / "the" before it ("on 15 monthly").
 */
import { isWord, type Token } from '../tokens.js';
import { UNIT_WORDS } from '../vocabulary.js';
import { claim, type PhraseFamily, type View } from './family.js';
import { countValue, DAY_WORDS, type Item, isDayNumber, monthDayFacts } from './readers.js';

const LINK_WORDS = ['of', 'the', 'each', 'every', 'a', 'per', 'in'];

const isMonthUnit = (t: Token | undefined): boolean => {
  const unit = t?.kind === 'word' ? UNIT_WORDS.get(t.lower)?.unit : undefined;
  return unit === 'month' || unit === 'quarter';
};

/** "of each month", "monthly", "of every 2 months", "of every other month", "of the quarter". */
function monthAfter(free: readonly Token[], j: number): boolean {
  let k = j;
  while (isWord(free[k], ...LINK_WORDS)) k++;
  if (isMonthUnit(free[k])) return true;
  return countValue(free[k]) !== null && isWord(free[k + 1], 'months');
}

/** "monthly on", "every month on the". */
function monthBefore(free: readonly Token[], i: number): boolean {
  let k = i - 1;
  while (isWord(free[k], 'on', 'the', 'days')) k--;
  return isMonthUnit(free[k]);
}

/** Whether the text between two tokens is a comma (the tokenizer skips commas). */
const commaBetween = (description: string, a: Token, b: Token): boolean => description.slice(a.end, b.start).includes(',');

/** "3,10,17", "1, 15 and last", "5 and 20": the items and every token covered. */
function readList(view: View, i: number): { items: Item[]; tokens: Token[] } {
  const { free, description } = view;
  const items: Item[] = [];
  const tokens: Token[] = [];
  for (let j = i; ; ) {
    const prev = tokens[tokens.length - 1];
    const and = items.length > 0 && isWord(free[j], 'and') ? 1 : 0;
    const next: Token | undefined = free[j + and];
    if (!next || (prev && !and && !commaBetween(description, prev, next))) break;
    // "3, 10, 17th": an ordinal may end the list (or sit in it).
    if (next.kind === 'ord' ? items.length > 0 : isDayNumber(next)) {
      items.push({ value: next.value, tokens: [next] });
      tokens.push(...free.slice(j, j + and + 1));
      j += and + 1;
      continue;
    }
    // "1, 15 and last", "1, 15 and the last day": "last" ends the list.
    const the = isWord(next, 'the') ? 1 : 0;
    if (items.length > 0 && isWord(free[j + and + the], 'last')) {
      const day = isWord(free[j + and + the + 1], ...DAY_WORDS) ? 1 : 0;
      const last = free.slice(j, j + and + the + 1 + day);
      items.push({ value: -1, tokens: last.slice(and) });
      tokens.push(...last);
    }
    break;
  }
  return { items, tokens };
}

export const dayLists: PhraseFamily = {
  name: 'bare day-number lists',
  stage: 'recurrence',
  read(view, i) {
    const { free } = view;
    const before = free[i - 1];
    // "every 3 months", "day 5", "at 9": the number is something else there.
    if (!isDayNumber(free[i]) || isWord(before, 'every', 'each', 'at', ...DAY_WORDS) || countValue(before) !== null) return null;
    const { items, tokens } = readList(view, i);
    const after = i + tokens.length;
    const single = items.length === 1;
    if (single && !isWord(free[after], 'of') && !isWord(before, 'on', 'the')) return null;
    if (!monthAfter(free, after) && !monthBefore(free, i)) return null;
    return claim(view, i, tokens.length, monthDayFacts(view, items));
  },
};
