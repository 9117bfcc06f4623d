/**
 * Issue 25, family 9, starts relative to today: "starting next Tuesday", "beginning tomorrow",
 * "from today onwards", "effective next month", "starting this Friday", "starting now". The start
 * fixes the first run, and with an interval its phase (anchor_date), as an absolute start date
 * does (start-date.ts); the date is worked out in parse.ts from `now` in the schedule's zone
 * (startDateOf). "next Tuesday" is the Tuesday of next week (Monday to Sunday, as chrono-node
 * reads it), "this Tuesday" / "Tuesday" the first on or after today, "next week" its Monday,
 * "next month" / "next year" their first day.
 * Read in the start stage, before one-offs.ts would refuse "tomorrow" and "next Tuesday" alone.
 */
import { type CivilDate, civilDate, dayNumber, weekdayOf } from '../calendar.js';
import type { Recurrence } from '../resolve.js';
import { isWord, type Token } from '../tokens.js';
import { CARDINAL_WORDS, MONTHS, WEEKDAYS } from '../vocabulary.js';
import { claim, type PhraseFamily } from './family.js';
import type { Facts } from './index.js';
import { text } from './readers.js';

export type RelativeDay =
  | { kind: 'day'; offset: number }
  | { kind: 'weekday'; day: number; after: boolean }
  | { kind: 'week' | 'month' | 'year' }
  /** "the 1st of next month": days 1 to 28, which every month has. */
  | { kind: 'dayOfNextMonth'; day: number };

const LEADS = ['starting', 'beginning', 'commencing', 'effective', 'start', 'starts', 'begins', 'from'];
const PICKERS = ['next', 'this', 'coming', 'upcoming'];

/** "as of", "as from", "starting", "starting on", "beginning from": the lead's length, or 0. */
function leadLength(free: readonly Token[], i: number): number {
  let n = 0;
  if (isWord(free[i], 'as') && isWord(free[i + 1], 'of', 'from')) n = 2;
  else if (isWord(free[i], 'with') && isWord(free[i + 1], 'effect') && isWord(free[i + 2], 'from')) n = 3;
  else if (isWord(free[i], ...LEADS)) n = 1;
  if (n === 0) return 0;
  return isWord(free[i + n], 'on', 'from') && !isWord(free[i], 'from') ? n + 1 : n;
}

const isSingularWeekday = (t: Token | undefined): number | undefined =>
  t?.kind === 'word' && !t.lower.endsWith('days') ? WEEKDAYS.get(t.lower) : undefined;

/** What follows the lead: the relative day and how many tokens it takes; null for "now". */
function readRelative(
  free: readonly Token[],
  j: number,
  bareWeekday: boolean,
): { day: RelativeDay | null; length: number } | null {
  const t = free[j];
  if (isWord(t, 'today')) return { day: { kind: 'day', offset: 0 }, length: 1 };
  if (isWord(t, 'tomorrow', 'tmrw', 'tmr')) return { day: { kind: 'day', offset: 1 }, length: 1 };
  if (isWord(t, 'now', 'immediately')) return { day: null, length: 1 };
  if (isWord(t, 'right') && isWord(free[j + 1], 'now', 'away')) return { day: null, length: 2 };
  const the =
    (isWord(t, 'the') && isWord(free[j + 1], 'coming', 'next')) || (isWord(t, 'this') && isWord(free[j + 1], 'coming')) ? 1 : 0;
  const picker = free[j + the];
  if (isWord(picker, ...PICKERS)) {
    const after = picker.lower === 'next';
    const weekday = isSingularWeekday(free[j + the + 1]);
    if (weekday !== undefined) return { day: { kind: 'weekday', day: weekday, after }, length: the + 2 };
    const unit = free[j + the + 1];
    if (after && isWord(unit, 'week', 'month', 'year'))
      return { day: { kind: unit.lower as 'week' | 'month' | 'year' }, length: the + 2 };
    return null;
  }
  // "in 3 days", "in 2 weeks", "in a week"
  if (isWord(t, 'in')) {
    const n: Token | undefined = free[j + 1];
    const count =
      n?.kind === 'num' && n.text.length <= 3
        ? n.value
        : isWord(n, 'a', 'one')
          ? 1
          : (CARDINAL_WORDS.get(free[j + 1]?.lower ?? '') ?? null);
    const unit = free[j + 2];
    if (count === null || !isWord(unit, 'day', 'days', 'week', 'weeks')) return null;
    const offset = unit.lower.startsWith('week') ? count * 7 : count;
    return { day: { kind: 'day', offset }, length: 3 };
  }
  // "the 1st of next month"
  const at = isWord(t, 'the') ? j + 1 : j;
  const ord = free[at];
  if (ord?.kind === 'ord' && isWord(free[at + 1], 'of') && isWord(free[at + 2], 'next') && isWord(free[at + 3], 'month')) {
    if (ord.value < 1 || ord.value > 28) return null;
    return { day: { kind: 'dayOfNextMonth', day: ord.value }, length: at - j + 4 };
  }
  const weekday = isSingularWeekday(t);
  if (!bareWeekday || weekday === undefined) return null;
  // "starting Monday 30 November 2026" is an absolute date (start-date.ts).
  const next = free[j + 1];
  if (next?.kind === 'num' || next?.kind === 'ord' || MONTHS.has(next?.lower ?? '')) return null;
  return { day: { kind: 'weekday', day: weekday, after: false }, length: 1 };
}

export const relativeStart: PhraseFamily = {
  name: 'start relative to today',
  stage: 'start',
  read(view, i) {
    const { free } = view;
    const lead = leadLength(free, i);
    if (lead === 0) return null;
    // "from Monday to Friday" is a range of weekdays: after "from", only "next Monday", "today"...
    const relative = readRelative(free, i + lead, !isWord(free[i], 'from'));
    if (!relative) return null;
    const tail = isWord(free[i + lead + relative.length], 'onwards', 'onward', 'forward', 'on') ? 1 : 0;
    const length = lead + relative.length + tail;
    if (!relative.day) return claim(view, i, length, []);
    const start = { date: null, relative: relative.day, text: text(view, free.slice(i, i + length)) };
    return claim(view, i, length, [{ kind: 'start', start }]);
  },
};

/** The local date a relative start names, `today` being the local date of now in the schedule's zone. */
export function relativeDate(day: RelativeDay, today: CivilDate): CivilDate {
  const n = dayNumber(today.year, today.month, today.day);
  switch (day.kind) {
    case 'day':
      return civilDate(n + day.offset);
    case 'weekday': {
      // "next Tuesday": the Tuesday of next week (Monday to Sunday), as chrono-node reads it.
      if (day.after) return civilDate(n + 7 - ((weekdayOf(n) + 6) % 7) + ((day.day + 6) % 7));
      return civilDate(n + ((day.day - weekdayOf(n) + 7) % 7));
    }
    case 'week':
      // The Monday of next week (ISO weeks run Monday to Sunday).
      return civilDate(n + 7 - ((weekdayOf(n) + 6) % 7));
    case 'month':
    case 'dayOfNextMonth': {
      const date = day.kind === 'dayOfNextMonth' ? day.day : 1;
      return today.month === 12
        ? { year: today.year + 1, month: 1, day: date }
        : { year: today.year, month: today.month + 1, day: date };
    }
    default:
      return { year: today.year + 1, month: 1, day: 1 };
  }
}

/**
 * "every other week starting next Tuesday": with no day named, the start's own day is the day
 * (its weekday, its day of the month, its date), so the first run is on the start, not on the
 * unit's default (Monday, the 1st, 1 January) after it. A quarter keeps its months.
 */
export function dayFromStart(r: Recurrence, facts: Facts, start: CivilDate): Recurrence {
  const named =
    facts.weekdayGroups.length +
    facts.excludedWeekdays.length +
    facts.nth.length +
    facts.weeksOfMonth.length +
    facts.monthDays.length +
    facts.months.length;
  // A quarter ("quarterly starting next month") keeps its months and its 1st.
  if (named > 0 || (r.schedule_type !== 'yearly' && r.months_of_year !== null)) return r;
  const weekday = weekdayOf(dayNumber(start.year, start.month, start.day));
  if (r.schedule_type === 'weekly') return { ...r, days_of_week: [weekday] };
  if (r.schedule_type === 'monthly') return { ...r, days_of_month: [start.day] };
  if (r.schedule_type === 'yearly') return { ...r, days_of_month: [start.day], months_of_year: [start.month] };
  return r;
}
