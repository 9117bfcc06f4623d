/**
 * Issue 46, family 4: one-off runs and ends, from the facts of families/one-offs.ts and
 * families/ends.ts. A one-off is schedule_type "once" on anchor_date; an end is `until` (the
 * last instant a run may be at, inclusive, UTC) and, for "10 times", `count` with `until` its
 * last run, so the next-run engine needs nothing but `until` to stop. A one-off already past, or
 * an end before the first run, is refused.
 */
import { isoSeconds } from '../domain/clock.js';
import { type CivilDate, civilDate, dayNumber, daysInMonth, formatDate } from './calendar.js';
import { quote, ScheduleError } from './errors.js';
import type { EndMention, OnceMention, WrittenDate } from './families/family.js';
import type { Facts } from './families/index.js';
import { relativeDate } from './families/relative-start.js';
import { nextRunOrNull } from './next-run.js';
import type { ScheduleInfo } from './types.js';
import { MONTH_NAMES } from './vocabulary.js';
import { localDayNumber, localToInstant, zoneOf } from './zoned-time.js';

const SECOND_MS = 1000;

/** The local date of `now` in the zone. */
const todayIn = (now: Date, zone: string): CivilDate => civilDate(localDayNumber(now.getTime(), zoneOf(zone)));

/** A date as written; without its year, the first such date on or after today (29 February: the next leap year's). */
function dateOf(written: WrittenDate, today: CivilDate, text: string): CivilDate {
  const { month, day } = written;
  const valid = (year: number) => month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth(year, month);
  if (written.year !== null) {
    if (!valid(written.year)) throw new ScheduleError(`${quote(text)} is not a valid date`);
    return { year: written.year, month, day };
  }
  if (!(month >= 1 && month <= 12 && day >= 1 && day <= (month === 2 ? 29 : daysInMonth(2001, month)))) {
    throw new ScheduleError(`${quote(`${MONTH_NAMES[month] ?? ''} ${day}`.trim())} is not a valid date`);
  }
  for (let year = today.year; year <= today.year + 8; year++) {
    if (!valid(year)) continue;
    if (dayNumber(year, month, day) >= dayNumber(today.year, today.month, today.day)) return { year, month, day };
  }
  throw new ScheduleError(`${quote(text)} is not a valid date`);
}

/** Facts a one-off cannot have beside it: each repeats, starts or ends something. */
function repeatWords(facts: Facts): string | null {
  const mentions = [
    ...facts.units.map((u) => u.text),
    ...facts.weekdayGroups.map((w) => w.text),
    ...facts.excludedWeekdays.map((w) => w.text),
    ...facts.nth.map((n) => n.text),
    ...facts.monthDays.map((d) => d.token.text),
    ...facts.months.map((m) => m.token.text),
    ...facts.frequencies.map((f) => f.text),
    ...facts.weeksOfMonth.map((w) => w.text),
    ...facts.excludedMonths.map((m) => m.text),
    ...facts.timesPer.map((t) => t.text),
    ...facts.ends.map((e) => e.text),
    ...(facts.start ? [facts.start.text] : []),
    ...(facts.period?.daily ? [facts.period.text] : []),
  ];
  return mentions[0] ?? null;
}

/** "tomorrow at 9", "next Friday at 3pm", "on 3 March 2027 at 14:00": the once schedule. */
export function onceInfo(once: OnceMention, facts: Facts, times: string[], zone: string, now: Date): ScheduleInfo {
  const other = repeatWords(facts);
  if (other) {
    throw new ScheduleError(
      `${quote(once.text)} is one run and ${quote(other)} repeats (or starts or ends) it: say one, e.g. ${quote(`${once.text} at 9am`)} or "every Friday at 9am"`,
    );
  }
  const today = todayIn(now, zone);
  const date = once.date
    ? dateOf(once.date, today, once.text)
    : relativeDate(once.relative as NonNullable<OnceMention['relative']>, today);
  return onceOn(date, times, zone, now, once.text);
}

/** A once schedule on a local date; refused when every time of it is already past. */
export function onceOn(date: CivilDate, times: string[], zone: string, now: Date, text: string): ScheduleInfo {
  const info: ScheduleInfo = {
    schedule_type: 'once',
    schedule_time: times[0] as string,
    days_of_week: null,
    days_of_month: null,
    weeks_of_month: null,
    months_of_year: null,
    interval: 1,
    timezone: zone,
    anchor_date: formatDate(date),
  };
  if (times.length > 1) info.schedule_times = times;
  if (!nextRunOrNull(info, now)) {
    const when = `${formatDate(date)} at ${times[times.length - 1]} ${zone}`;
    throw new ScheduleError(`${quote(text)} (${when}) is already past: a one-off run must be in the future`);
  }
  return info;
}

/** The last instant of a local date: the start of the next one, less a second. */
const endOfDay = (date: CivilDate, zone: string): number =>
  localToInstant(civilDate(dayNumber(date.year, date.month, date.day) + 1), 0, 0, zoneOf(zone)) - SECOND_MS;

/** The local date `n` units after `from`, less a day: "for 4 weeks" from Wednesday ends on the Tuesday 4 weeks on. */
function durationEnd(from: CivilDate, unit: NonNullable<EndMention['duration']>['unit'], n: number): CivilDate {
  const start = dayNumber(from.year, from.month, from.day);
  if (unit === 'day') return civilDate(start + n - 1);
  if (unit === 'week') return civilDate(start + 7 * n - 1);
  const months = unit === 'month' ? n : 12 * n;
  const index = from.year * 12 + (from.month - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  // 31 January + 1 month: the end of February (and the day before that when it has no 31st).
  const day = Math.min(from.day, daysInMonth(year, month));
  return civilDate(dayNumber(year, month, day) - 1);
}

/**
 * `until` and `count` from the ends written: a date ends with its day, a duration with the day
 * before the same date N units after the start (or today), a count with its Nth run from the first.
 * The earliest end wins; an end before the first run is refused.
 */
export function withEnds(
  info: ScheduleInfo,
  ends: readonly EndMention[],
  now: Date,
  from: Date,
  start: CivilDate | null,
): ScheduleInfo {
  if (ends.length === 0) return info;
  const today = todayIn(now, info.timezone);
  let until = Number.POSITIVE_INFINITY;
  for (const end of ends) {
    if (end.date) until = Math.min(until, endOfDay(dateOf(end.date, today, end.text), info.timezone));
    if (end.duration)
      until = Math.min(until, endOfDay(durationEnd(start ?? today, end.duration.unit, end.duration.n), info.timezone));
  }
  const bounded: ScheduleInfo = Number.isFinite(until) ? { ...info, until: isoSeconds(new Date(until)) } : info;
  const first = nextRunOrNull(bounded, from);
  if (!first) {
    const what = ends.map((e) => quote(e.text)).join(' and ');
    throw new ScheduleError(`The schedule ends (${what}) before its first run: give a later end`);
  }
  const counted = ends.find((e) => e.count !== undefined);
  if (!counted?.count) return bounded;
  let last = first;
  for (let k = 1; k < counted.count; k++) {
    const run = nextRunOrNull(bounded, last);
    if (!run) break;
    last = run;
  }
  return { ...bounded, until: isoSeconds(last), count: counted.count };
}
