/**
 * "starting Monday 30 November 2026": the first run of a schedule, which for an every-N one also
 * fixes the weeks (days, months, years) it runs in. Schedules are said back with it (english.ts), so the
 * parser reads it: "30 November 2026", "November 30, 2026" or "2026-11-30", after an optional
 * weekday that must be the date's own. Its own stage, first: the date's weekday and month must
 * not be read as the recurrence's.
 */
import { type CivilDate, dayNumber, daysInMonth, weekdayOf } from '../calendar.js';
import { quote, ScheduleError } from '../errors.js';
import { readAt } from '../time-of-day.js';
import { isWord, spanText, type Token } from '../tokens.js';
import { MONTH_NAMES, MONTHS, WEEKDAY_NAMES, WEEKDAYS } from '../vocabulary.js';
import { claim, type PhraseFamily } from './family.js';
import type { RelativeDay } from './relative-start.js';

export interface StartMention {
  /** The date written; null for a start relative to today, worked out in parse.ts. */
  date: CivilDate | null;
  /** "starting next Tuesday", "beginning tomorrow" (relative-start.ts); null for a written date. */
  relative?: RelativeDay | null;
  /** The whole clause as written, "starting" included. */
  text: string;
}

const isYear = (t: Token | undefined): t is Token => t?.kind === 'num' && /^[1-9]\d{3}$/.test(t.text);
const isDay = (t: Token | undefined): t is Token => (t?.kind === 'num' && t.text.length <= 2) || t?.kind === 'ord';
const monthOf = (t: Token | undefined): number | undefined => (t?.kind === 'word' ? MONTHS.get(t.lower) : undefined);

interface DateReading {
  year: number;
  month: number;
  day: number;
  tokens: Token[];
}

/** "30 November 2026", "November 30 2026", "2026-11-30" (shared with ends.ts and one-offs.ts). */
/**
 * Refuses a date the calendar does not have (31 April), or one said with a weekday it does not
 * fall on ("Friday 3 March 2027"), naming the words the reader wrote (`text`).
 */
export function checkDate({ year, month, day }: CivilDate, weekday: number | undefined, text: string): void {
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) {
    throw new ScheduleError(`${quote(text)} is not a valid date`);
  }
  const actual = weekdayOf(dayNumber(year, month, day));
  if (weekday !== undefined && weekday !== actual) {
    const date = `${day} ${MONTH_NAMES[month]} ${year}`;
    throw new ScheduleError(`${quote(text)}: ${date} is a ${WEEKDAY_NAMES[actual]}, not a ${WEEKDAY_NAMES[weekday]}`);
  }
}

export function readDate(free: readonly Token[], i: number): DateReading | null {
  const [a, b, c, d, e] = free.slice(i, i + 5);
  const monthB = monthOf(b);
  if (isDay(a) && monthB !== undefined && isYear(c))
    return { year: c.value, month: monthB, day: a.value, tokens: [a, b as Token, c] };
  const monthA = monthOf(a);
  if (monthA !== undefined && isDay(b) && isYear(c))
    return { year: c.value, month: monthA, day: b.value, tokens: [a as Token, b, c] };
  const iso = isYear(a) && b?.kind === 'dash' && c?.kind === 'num' && d?.kind === 'dash' && e?.kind === 'num';
  if (iso) return { year: a.value, month: c.value, day: e.value, tokens: [a, b, c, d, e] };
  return null;
}

/** "starting [on|from] [weekday] <date>"; a clause without a readable date is refused. */
export const startDate: PhraseFamily = {
  name: 'start date',
  stage: 'start',
  read(view, i) {
    const { free, description } = view;
    const starting = free[i];
    if (!isWord(starting, 'starting')) return null;
    // "starting at 9 and finishing at 17", "starting 9am": a time of day, not a date (window-words.ts).
    if (isWord(free[i + 1], 'at') || readAt(free, i + 1)) return null;
    const on = isWord(free[i + 1], 'on', 'from') ? 1 : 0;
    const weekdayToken = free[i + 1 + on];
    const weekday = weekdayToken?.kind === 'word' ? WEEKDAYS.get(weekdayToken.lower) : undefined;
    const reading = readDate(free, i + 1 + on + (weekday === undefined ? 0 : 1));
    if (!reading) {
      throw new ScheduleError(`Could not read the date after ${quote(starting.text)}: say e.g. "starting 30 November 2026"`);
    }
    const length = free.indexOf(reading.tokens[reading.tokens.length - 1] as Token) + 1 - i;
    const text = spanText(description, free.slice(i, i + length));
    const { year, month, day } = reading;
    checkDate(reading, weekday, text);
    return claim(view, i, length, [{ kind: 'start', start: { date: { year, month, day }, text } }]);
  },
  settle(facts) {
    const starts = facts.flatMap((f) => (f.kind === 'start' ? [f.start] : []));
    const [first, second] = starts;
    if (first && second) {
      throw new ScheduleError(`Only one start date per schedule, found ${quote(first.text)} and ${quote(second.text)}`);
    }
  },
};
