/**
 * Issue 25, family 8, weeks of the month in other words: "in the first and third week of each
 * month on Mondays", "the last week of the month on Friday", "week 2 of every month", "on the 2
 * Fri of every month", "on the 4 Wed monthly". A week of the month is read as cron and RFC 5545
 * read "the second Friday": the month's days 8 to 14, so "Monday of the first week" is the first
 * Monday (days 1 to 7), not the Monday of the calendar week that holds the 1st. The weeks take
 * the weekdays named elsewhere in the description (weeksAsNth, when resolving).
 */
import { contradiction, quote, ScheduleError } from '../errors.js';
import { isWord, type Token } from '../tokens.js';
import { MONTHS, UNIT_WORDS } from '../vocabulary.js';
import { claim, type Fact, type NthMention, type PhraseFamily, type View, type WeeksMention } from './family.js';
import type { DaySetMention } from './index.js';
import { countValue, type Item, readOrdinalList, readWeekdayList, text } from './readers.js';

const WEEK_WORDS = ['week', 'weeks'];

function checkWeeks(view: View, items: readonly Item[], after: Token[]): number[] {
  return items.map((it) => {
    if (it.value === 0 || it.value > 5) {
      throw new ScheduleError(
        `${quote(text(view, [...it.tokens, ...after]))} is not a week of the month (first to fifth, or last)`,
      );
    }
    return it.value;
  });
}

/** "of each month", "of the month", "of every 2 months", "of March", "monthly", "of every quarter". */
function monthAfter(free: readonly Token[], j: number): boolean {
  const first = free[j];
  const unitOf = (t: Token | undefined) => (t?.kind === 'word' ? UNIT_WORDS.get(t.lower)?.unit : undefined);
  const monthly = (t: Token | undefined) => unitOf(t) === 'month' || unitOf(t) === 'quarter';
  if (monthly(first)) return true;
  if (!isWord(first, 'of', 'in')) return false;
  let k = j + 1;
  while (isWord(free[k], 'the', 'each', 'every', 'a')) k++;
  if (countValue(free[k]) !== null) k++;
  return monthly(free[k]) || MONTHS.has(free[k]?.lower ?? '');
}

/** Day numbers 0-9 in digits joined by "and" or commas: "2", "1 and 3". */
function readBareWeeks(free: readonly Token[], i: number): { items: Item[]; tokens: Token[] } {
  const items: Item[] = [];
  const tokens: Token[] = [];
  for (let j = i; ; ) {
    const and = items.length > 0 && isWord(free[j], 'and') ? 1 : 0;
    const t = free[j + and];
    if (t?.kind !== 'num' || t.text.length !== 1) break;
    items.push({ value: t.value, tokens: [t] });
    tokens.push(...free.slice(j, j + and + 1));
    j += and + 1;
  }
  return { items, tokens };
}

/** "first and third week", "last week", "week 2", "weeks 1 and 3": the weeks, before "of ... month". */
function readWeeks(view: View, i: number): { weeks: number[]; length: number } | null {
  const { free } = view;
  if (isWord(free[i], ...WEEK_WORDS)) {
    const { items, tokens } = readBareWeeks(free, i + 1);
    if (items.length === 0 || !monthAfter(free, i + 1 + tokens.length)) return null;
    return { weeks: checkWeeks(view, items, []), length: 1 + tokens.length };
  }
  const { items, tokens } = readOrdinalList(free, i);
  const week = free[i + tokens.length];
  if (items.length === 0 || !isWord(week, ...WEEK_WORDS) || !monthAfter(free, i + tokens.length + 1)) return null;
  return { weeks: checkWeeks(view, items, [week]), length: tokens.length + 1 };
}

/** "the 2 Fri", "the 1 and 3 Mon": a digit before weekdays, with "the" before or a month after. */
function readBareNth(view: View, i: number): { fact: Fact; length: number } | null {
  const { free } = view;
  const { items, tokens } = readBareWeeks(free, i);
  if (items.length === 0) return null;
  const day = readWeekdayList(view, i + tokens.length);
  if (!day) return null;
  if (!isWord(free[i - 1], 'the') && !monthAfter(free, i + tokens.length + day.length)) return null;
  const weeks = checkWeeks(view, items, day.tokens);
  const nth: NthMention = { weeks, days: day.days, text: text(view, [...tokens, ...day.tokens]), everyOrdinal: null };
  return { fact: { kind: 'nth', nth }, length: tokens.length + day.length };
}

export const weeksOfMonth: PhraseFamily = {
  name: 'weeks of the month',
  stage: 'recurrence',
  read(view, i) {
    // "every second week" is every two weeks (intervals); "every 2nd week of the month" is not.
    const every = view.free[i - 1];
    const weeks = readWeeks(view, i);
    if (weeks) {
      const mention: WeeksMention = { weeks: weeks.weeks, text: text(view, view.free.slice(i, i + weeks.length)) };
      return claim(
        view,
        i,
        weeks.length,
        [{ kind: 'weeksOfMonth', weeks: mention }],
        isWord(every, 'every', 'each') ? [every] : [],
      );
    }
    if (isWord(every, 'every', 'each')) return null;
    const nth = readBareNth(view, i);
    return nth ? claim(view, i, nth.length, [nth.fact]) : null;
  },
};

/** The weeks of the month with the weekdays named elsewhere, as nth weekdays ("first and third Monday"). */
export function weeksAsNth(mentions: readonly WeeksMention[], weekdays: DaySetMention | null): NthMention | null {
  const [first, ...rest] = mentions;
  if (!first) return null;
  const text = mentions.map((m) => m.text).join(' ');
  if (!weekdays)
    throw new ScheduleError(`Say which day of ${quote(text)} to run, e.g. "on Mondays in the first week of the month"`);
  const weeks = new Set(first.weeks);
  for (const m of rest) for (const w of m.weeks) weeks.add(w);
  if (weekdays.days.length === 7) throw contradiction(weekdays.text, text);
  const sorted = [...weeks].sort((a, b) => (a === -1 ? 99 : a) - (b === -1 ? 99 : b));
  return { weeks: sorted, days: weekdays.days, text: `${weekdays.text} ${text}`, everyOrdinal: null };
}
