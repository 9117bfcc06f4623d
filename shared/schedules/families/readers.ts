/**
 * Small readers shared by several phrase families: counts, ordinals, day numbers, months and
 * weekday lists. Each returns what it read and the tokens it covers; none claims anything.
 */
import { quote, ScheduleError } from '../errors.js';
import { isWeekdaySlashList } from '../timezones.js';
import { isWord, spanText, type Token } from '../tokens.js';
import { CARDINAL_WORDS, MONTHS, ORDINAL_TENS, ORDINAL_UNITS, ORDINAL_WORDS, WEEKDAYS } from '../vocabulary.js';
import type { Fact, View } from './family.js';

export const DAY_WORDS = ['day', 'days'];
export const RANGE_WORDS = ['to', 'through', 'thru', 'till', 'until'];

export const WEEKDAY_GROUP_WORDS: ReadonlyMap<string, number[]> = new Map([
  ['weekday', [1, 2, 3, 4, 5]],
  ['weekdays', [1, 2, 3, 4, 5]],
  ['workday', [1, 2, 3, 4, 5]],
  ['workdays', [1, 2, 3, 4, 5]],
  ['weekend', [0, 6]],
  ['weekends', [0, 6]],
]);
// "business day", "working days", "week day", "weekend days": a qualifier and then "day(s)".
export const DAY_QUALIFIERS: ReadonlyMap<string, number[]> = new Map([
  ['business', [1, 2, 3, 4, 5]],
  ['working', [1, 2, 3, 4, 5]],
  ['work', [1, 2, 3, 4, 5]],
  ['week', [1, 2, 3, 4, 5]],
  ['weekend', [0, 6]],
]);

export function text(view: View, tokens: Token[]): string {
  return spanText(view.description, tokens);
}

/** "3", "three", "other" (2): how many units an "every ..." counts. */
export function countValue(t: Token | undefined): number | null {
  if (!t) return null;
  if (t.kind === 'num') return t.value;
  if (t.kind !== 'word') return null;
  if (t.lower === 'other') return 2;
  return CARDINAL_WORDS.get(t.lower) ?? null;
}

export interface Item {
  value: number;
  tokens: Token[];
}

export function isDayNumber(t: Token | undefined): t is Token {
  return t !== undefined && t.kind === 'num' && t.text.length <= 2;
}

export function readOrdinal(free: readonly Token[], i: number): Item | null {
  const t = free[i];
  if (!t) return null;
  if (t.kind === 'ord') return { value: t.value, tokens: [t] };
  if (t.kind !== 'word') return null;
  const simple = ORDINAL_WORDS.get(t.lower);
  if (simple !== undefined) return { value: simple, tokens: [t] };
  const tens = ORDINAL_TENS.get(t.lower);
  if (tens === undefined) return null;
  // "twenty-first" / "twenty first"
  const hasDash = free[i + 1]?.kind === 'dash';
  const unitWord = free[i + (hasDash ? 2 : 1)];
  const unit = ORDINAL_UNITS.get(unitWord?.lower ?? '');
  if (unit === undefined || !unitWord) return null;
  const dash = free[i + 1];
  return { value: tens + unit, tokens: hasDash && dash ? [t, dash, unitWord] : [t, unitWord] };
}

export interface ItemList {
  items: Item[];
  /** Tokens covered, separators included. */
  tokens: Token[];
}

/** "1st and 15th", "first, third and fifth", "1st and 15" (bare numbers only after an ordinal). */
export function readOrdinalList(free: readonly Token[], i: number): ItemList {
  const list: ItemList = { items: [], tokens: [] };
  for (let j = i; ; ) {
    const sep = list.items.length > 0 && isWord(free[j], 'and') ? 1 : 0;
    const next = free[j + sep];
    const bare = list.items.length > 0 && isDayNumber(next) ? { value: next.value, tokens: [next] } : null;
    const item = readOrdinal(free, j + sep) ?? bare;
    if (!item) return list;
    list.items.push(item);
    list.tokens.push(...free.slice(j, j + sep), ...item.tokens);
    j += sep + item.tokens.length;
  }
}

const TEEN_WORDS: ReadonlyMap<string, number> = new Map([
  ['thirteen', 13],
  ['fourteen', 14],
  ['fifteen', 15],
  ['sixteen', 16],
  ['seventeen', 17],
  ['eighteen', 18],
  ['nineteen', 19],
]);
const TENS_WORDS: ReadonlyMap<string, number> = new Map([
  ['twenty', 20],
  ['thirty', 30],
]);

/** A day number in digits or words: "5", "three", "twenty-one", "thirty one"; "last" is -1. */
export function readDayNumber(free: readonly Token[], i: number): Item | null {
  const t = free[i];
  if (t?.kind === 'num') return t.text.length <= 2 ? { value: t.value, tokens: [t] } : null;
  if (t?.kind !== 'word') return null;
  if (t.lower === 'last') return { value: -1, tokens: isWord(free[i + 1], ...DAY_WORDS) ? [t, free[i + 1] as Token] : [t] };
  const simple = CARDINAL_WORDS.get(t.lower) ?? TEEN_WORDS.get(t.lower);
  if (simple !== undefined) return { value: simple, tokens: [t] };
  const tens = TENS_WORDS.get(t.lower);
  if (tens === undefined) return null;
  const hasDash = free[i + 1]?.kind === 'dash';
  const unitWord = free[i + (hasDash ? 2 : 1)];
  const unit = CARDINAL_WORDS.get(unitWord?.lower ?? '');
  if (unit === undefined || unit > 9 || !unitWord) return { value: tens, tokens: [t] };
  return { value: tens + unit, tokens: [t, ...(hasDash ? [free[i + 1] as Token] : []), unitWord] };
}

function isMonth(t: Token | undefined): t is Token {
  return t !== undefined && t.kind === 'word' && MONTHS.has(t.lower);
}

/** "may" is also a verb ("it may run daily"): a month only next to a day or after "in", "of"... */
export function isMonthAt(free: readonly Token[], i: number): boolean {
  const t = free[i];
  if (!isMonth(t)) return false;
  if (t.lower !== 'may') return true;
  const [prev, next] = [free[i - 1], free[i + 1]];
  const nearDay = (n: Token | undefined) => n?.kind === 'ord' || isDayNumber(n);
  // A month before it: "April, May, June and July", "March to May".
  if (nearDay(prev) || nearDay(next) || isWord(next, 'the', 'and') || isMonth(prev)) return true;
  const dash = free[i - 1]?.kind === 'dash';
  if (dash || isWord(prev, ...RANGE_WORDS)) return isMonth(free[i - 2]);
  return isWord(prev, 'in', 'of', 'every', 'each', 'and', 'the', 'from', 'except', 'excluding');
}

export interface WeekdayItem {
  days: number[];
  tokens: Token[];
}

/** "Mon-Fri", "Monday to Friday", "Friday through Monday" (wraps over the weekend). */
export function readWeekdayRange(free: readonly Token[], i: number): WeekdayItem | null {
  const [from, sep, to] = [free[i], free[i + 1], free[i + 2]];
  const a = WEEKDAYS.get(from?.lower ?? '');
  const b = WEEKDAYS.get(to?.lower ?? '');
  if (a === undefined || b === undefined || !from || !sep || !to) return null;
  if (sep.kind !== 'dash' && !isWord(sep, ...RANGE_WORDS)) return null;
  const days = [a];
  for (let d = a; d !== b; ) {
    d = (d + 1) % 7;
    days.push(d);
  }
  return { days, tokens: [from, sep, to] };
}

export function readWeekdayItem(free: readonly Token[], i: number): WeekdayItem | null {
  const t = free[i];
  if (t && isWeekdaySlashList(t)) return { days: t.lower.split('/').map((d) => WEEKDAYS.get(d) as number), tokens: [t] };
  if (t?.kind !== 'word') return null;
  const range = readWeekdayRange(free, i);
  if (range) return range;
  const day = WEEKDAYS.get(t.lower);
  if (day !== undefined) return { days: [day], tokens: [t] };
  const group = WEEKDAY_GROUP_WORDS.get(t.lower);
  const dayWord = free[i + 1];
  if (group) return { days: group, tokens: isWord(dayWord, ...DAY_WORDS) ? [t, dayWord] : [t] };
  const qualified = DAY_QUALIFIERS.get(t.lower);
  if (qualified && isWord(dayWord, ...DAY_WORDS)) return { days: qualified, tokens: [t, dayWord] };
  return null;
}

export function isWeekdayGroupStart(free: readonly Token[], i: number): boolean {
  const t = free[i];
  if (t?.kind !== 'word') return false;
  return WEEKDAY_GROUP_WORDS.has(t.lower) || (DAY_QUALIFIERS.has(t.lower) && isWord(free[i + 1], ...DAY_WORDS));
}

export interface WeekdayList {
  days: number[];
  tokens: Token[];
  text: string;
  length: number;
}

/** "Mondays and Thursdays", "Tue, Wed", "Mon-Fri", "weekdays", "business days". */
export function readWeekdayList(view: View, i: number): WeekdayList | null {
  const days = new Set<number>();
  const tokens: Token[] = [];
  let j = i;
  for (;;) {
    // "Mondays and Thursdays"; "every Monday and every Tuesday" is one list too (issue 25).
    const and = tokens.length > 0 && isWord(view.free[j], 'and') ? 1 : 0;
    const sep = and && isWord(view.free[j + 1], 'every', 'each', 'on') && readWeekdayItem(view.free, j + 2) ? 2 : and;
    const item = readWeekdayItem(view.free, j + sep);
    if (!item) break;
    for (const d of item.days) days.add(d);
    tokens.push(...view.free.slice(j, j + sep), ...item.tokens);
    j += sep + item.tokens.length;
  }
  if (tokens.length === 0) return null;
  return { days: [...days].sort((a, b) => a - b), tokens, text: text(view, tokens), length: j - i };
}

/** Days of the month as facts; refuses numbers that are no day of a month. */
export function monthDayFacts(view: View, items: readonly Item[]): Fact[] {
  return items.map((it) => {
    const last = it.tokens[it.tokens.length - 1] as Token;
    if (it.value === 0 || it.value > 31) {
      throw new ScheduleError(`${quote(text(view, it.tokens))} is not a day of the month (1st to 31st, or last)`);
    }
    return { kind: 'monthDay', day: { value: it.value, token: last } };
  });
}
