/**
 * Issue 25, family 7, months left out: "on the 5th of every month except August", "every Monday
 * except in July and August", "daily excluding June through August", "every day except Sunday and
 * August" (and the other side, "but only during June"). schedule_info holds them as
 * months_of_year: the months that are left (applyMonthExclusions, when resolving). A day in the
 * month ("except August 15") is a date, which schedule_info cannot leave out, and is refused.
 */
import { contradiction, quote, ScheduleError } from '../errors.js';
import type { Recurrence } from '../resolve.js';
import { isWord, type Token } from '../tokens.js';
import { MONTH_NAMES, MONTHS } from '../vocabulary.js';
import { claim, type Fact, type PhraseFamily, type View } from './family.js';
import type { Facts } from './index.js';
import { isDayNumber, isMonthAt, RANGE_WORDS, readWeekdayList, text } from './readers.js';

/** "August", "July and August", "June through August", "Nov-Feb" (wraps over the new year). */
function readMonthList(free: readonly Token[], i: number): { months: number[]; length: number } | null {
  const months: number[] = [];
  let j = i;
  while (isMonthAt(free, j) || (months.length > 0 && isWord(free[j], 'and') && isMonthAt(free, j + 1))) {
    if (isWord(free[j], 'and')) j++;
    const from = MONTHS.get((free[j] as Token).lower) as number;
    const sep = free[j + 1];
    const isRange = (sep?.kind === 'dash' || isWord(sep, ...RANGE_WORDS)) && isMonthAt(free, j + 2);
    const to = isRange ? (MONTHS.get((free[j + 2] as Token).lower) as number) : from;
    for (let m = from; ; m = (m % 12) + 1) {
      if (!months.includes(m)) months.push(m);
      if (m === to) break;
    }
    j += isRange ? 3 : 1;
  }
  return months.length ? { months, length: j - i } : null;
}

/** The words that start an exclusion and how many tokens they take: "except in", "but not during", "excluding". */
function exclusionLead(free: readonly Token[], i: number): number {
  const t = free[i];
  let n = 0;
  if (isWord(t, 'except', 'excluding', 'excl', 'skipping', 'skip', 'without')) n = 1;
  // "every month but August": "but" right before the months.
  else if (isWord(t, 'but') && isMonthAt(free, i + 1)) n = 1;
  else if (isWord(t, 'but', 'apart') && isWord(free[i + 1], 'not', 'from')) n = 2;
  else if (isWord(t, 'other') && isWord(free[i + 1], 'than')) n = 2;
  else if (isWord(t, 'not') && isWord(free[i + 1], 'in', 'during')) n = 1;
  if (n === 0) return 0;
  while (isWord(free[i + n], 'in', 'during', 'for', 'the', 'months', 'month', 'of', 'on')) n++;
  return n;
}

export const monthExclusions: PhraseFamily = {
  name: 'month exclusions',
  stage: 'recurrence',
  read(view: View, i) {
    const { free } = view;
    // "every Thursday, but only during June, July and August": the positive side; "only" is filler.
    if (isWord(free[i], 'but') && isWord(free[i + 1], 'only')) return claim(view, i, 1, []);
    const lead = exclusionLead(free, i);
    if (lead === 0) return null;
    // "except Sunday and August": the weekdays go with the exclusions family's fact, here.
    const weekdays = readWeekdayList(view, i + lead);
    const and = weekdays && isWord(free[i + lead + weekdays.length], 'and') ? 1 : 0;
    const at = i + lead + (weekdays ? weekdays.length + and : 0);
    const list = readMonthList(free, at);
    if (!list || (weekdays && !and)) return null;
    const length = at - i + list.length;
    const phrase = text(view, free.slice(i, i + length));
    const day: Token | undefined = free[i + length];
    if (day?.kind === 'ord' || isDayNumber(day)) {
      const what = text(view, free.slice(i, i + length + 1));
      throw new ScheduleError(
        `${quote(what)} leaves out a date, which is not supported: schedule_info can leave out whole months only`,
      );
    }
    const facts: Fact[] = [{ kind: 'excludedMonths', months: { months: list.months, text: phrase } }];
    if (weekdays) {
      const excluded = { days: weekdays.days, text: text(view, free.slice(i, i + lead + weekdays.length)) };
      facts.push({ kind: 'excluded', days: excluded });
    }
    return claim(view, i, length, facts);
  },
};

/** The months left once `excluded` are taken out of `from`: each must be there, and one must be left. */
export function monthsLeft(from: readonly number[], fromText: string, facts: Facts): number[] {
  let left = [...from];
  for (const e of facts.excludedMonths) {
    const missing = e.months.find((m) => !from.includes(m));
    if (missing !== undefined) throw contradiction(fromText || MONTH_NAMES[missing] || '', e.text);
    left = left.filter((m) => !e.months.includes(m));
  }
  const text = facts.excludedMonths.map((e) => e.text).join(' ');
  if (left.length === 0) throw new ScheduleError(`${quote(`${fromText} ${text}`.trim())} leaves no month to run`);
  return left.sort((a, b) => a - b);
}

const ALL_MONTHS = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12];

/**
 * A recurrence with no month named, resolved without the exclusions, loses the months left out:
 * every month (or its quarter's months) but those. Every N months would skip them unevenly.
 */
export function applyMonthExclusions(r: Recurrence, facts: Facts): Recurrence {
  const [first] = facts.excludedMonths;
  if (!first) return r;
  if (r.schedule_type === 'monthly' && r.interval > 1) {
    throw new ScheduleError(`${quote(first.text)} with an interval of months is not supported: name the months to run instead`);
  }
  if (r.schedule_type === 'yearly') throw contradiction('every year', first.text);
  const from = r.months_of_year ?? ALL_MONTHS;
  const fromText = r.months_of_year ? 'every quarter' : '';
  return { ...r, months_of_year: monthsLeft(from, fromText, facts) };
}
