/**
 * A schedule said back in plain English: "Every weekday at 09:00, Europe/Berlin". The words are
 * ones the parser reads, so the sentence parsed again gives the same runs (english.test.ts checks
 * this for the whole corpus and for random schedules). Shapes no description produces (the 13th
 * when it is a Friday, every 2 months but only in March) are still said truthfully, with
 * ", only ..." clauses that the parser does not read back.
 */
import { type CivilDate, civilDate, dayNumber, parseDate, weekdayOf } from './calendar.js';
import { ScheduleError } from './errors.js';
import { checkScheduleInfo, nextRunAt } from './next-run.js';
import { DEFAULT_TIMEZONE, resolveZone } from './timezones.js';
import { type ScheduleInfo, type ScheduleKind, SUB_DAILY_KINDS } from './types.js';
import { MONTH_NAMES, WEEKDAY_NAMES } from './vocabulary.js';
import { localDayNumber, localToInstant, zoneOf } from './zoned-time.js';

type DayField = 'days_of_week' | 'days_of_month' | 'weeks_of_month' | 'months_of_year';

/** A phrase and the fields it has said; the others are added as ", only ..." clauses. */
interface Phrase {
  text: string;
  said: DayField[];
}

const UNIT_NAMES: Readonly<Record<ScheduleKind, string>> = {
  daily: 'day',
  weekly: 'week',
  monthly: 'month',
  yearly: 'year',
  hourly: 'hour',
  minutely: 'minute',
  once: 'day',
};
const WEEK_ORDINALS = ['', 'first', 'second', 'third', 'fourth', 'fifth'];
const WORKWEEK = [1, 2, 3, 4, 5];
// The parser's quarter: its first months, or its last ones when every mark is "last".
const QUARTER_FIRST_MONTHS = [1, 4, 7, 10];
const QUARTER_LAST_MONTHS = [3, 6, 9, 12];

/** "a", "a and b", "a, b and c". */
function list(words: string[]): string {
  if (words.length < 2) return words[0] ?? '';
  return `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`;
}

/** Sort key: -1 ("last") after every day. */
const lastAtEnd = (v: number) => (v === -1 ? 99 : v);

/** Ascending without repeats, -1 ("last") at the end. */
function ascending(values: readonly number[]): number[] {
  return [...new Set(values)].sort((a, b) => lastAtEnd(a) - lastAtEnd(b));
}

/** The week as people read it here: Monday first, Sunday last. */
function mondayFirst(days: readonly number[]): number[] {
  return [...new Set(days)].sort((a, b) => ((a + 6) % 7) - ((b + 6) % 7));
}

function sameList(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

function ordinal(n: number): string {
  const suffix = n % 100 >= 11 && n % 100 <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

function dayNames(days: readonly number[]): string {
  return list(mondayFirst(days).map((d) => WEEKDAY_NAMES[d] as string));
}

/** "weekday" for Monday to Friday ("weekday" is not read after an ordinal: "first weekday" is refused). */
function weekdayWords(days: readonly number[], plural: boolean): string {
  if (sameList(ascending(days), WORKWEEK)) return plural ? 'weekdays' : 'weekday';
  return dayNames(days);
}

/** "1st, 15th and last day". */
function monthDayWords(days: readonly number[]): string {
  return list(ascending(days).map((d) => (d === -1 ? 'last day' : ordinal(d))));
}

/** "first and third Monday", "last Friday". */
function nthWords(weeks: readonly number[], days: readonly number[]): string {
  const ordinals = ascending(weeks).map((w) => (w === -1 ? 'last' : (WEEK_ORDINALS[w] as string)));
  return `${list(ordinals)} ${dayNames(days)}`;
}

/**
 * "first weekday", "first and last weekday", "6th weekday", "last weekend day" (issue 46): the
 * positions among the month's days (set_positions), as the parser reads them back. Other days
 * than weekdays or weekend days (no description makes them) are listed: "first of the Mondays
 * and Wednesdays".
 */
function positionWords(positions: readonly number[], days: readonly number[]): string {
  const ordinals = list(
    ascending(positions).map((p) => (p === -1 ? 'last' : p < 0 ? `${ordinal(-p)} from last` : (WEEK_ORDINALS[p] ?? ordinal(p)))),
  );
  if (sameList(ascending(days), WORKWEEK)) return `${ordinals} weekday`;
  if (sameList(ascending(days), [0, 6])) return `${ordinals} weekend day`;
  return `${ordinals} of the ${list(mondayFirst(days).map((d) => `${WEEKDAY_NAMES[d]}s`))}`;
}

function monthWords(months: readonly number[]): string {
  return list(ascending(months).map((m) => MONTH_NAMES[m] as string));
}

/** Which days of a month it runs on: nth weekdays ("the first Monday") or days of the month. */
function daysOfTheMonth(info: ScheduleInfo): Phrase | null {
  const { days_of_week: weekdays, weeks_of_month: weeks, days_of_month: monthDays } = info;
  const positions = Array.isArray(info.set_positions) ? info.set_positions : null;
  if (positions && weekdays) return { text: `the ${positionWords(positions, weekdays)}`, said: ['days_of_week'] };
  if (weeks && weekdays) return { text: `the ${nthWords(weeks, weekdays)}`, said: ['weeks_of_month', 'days_of_week'] };
  if (monthDays) return { text: `the ${monthDayWords(monthDays)}`, said: ['days_of_month'] };
  return null;
}

/** "25 December", "the last day of February", "the first Monday of March and June". */
function dateWords(days: Phrase, info: ScheduleInfo, months: readonly number[]): Phrase {
  const said: DayField[] = [...days.said, 'months_of_year'];
  const [day, ...moreDays] = days.said[0] === 'days_of_month' ? ascending(info.days_of_month ?? []) : [];
  const [month, ...moreMonths] = ascending(months);
  if (day !== undefined && day !== -1 && month !== undefined && moreDays.length === 0 && moreMonths.length === 0) {
    return { text: `${day} ${MONTH_NAMES[month]}`, said };
  }
  return { text: `${days.text} of ${monthWords(months)}`, said };
}

/** Whether the parser's "of every quarter" means exactly these months. */
function isQuarterly(info: ScheduleInfo, months: readonly number[]): boolean {
  const marks = info.weeks_of_month ?? info.set_positions ?? info.days_of_month ?? [];
  const lastOnly = marks.every((m) => m === -1);
  if (!lastOnly && marks.includes(-1)) return false;
  return sameList(ascending(months), lastOnly ? QUARTER_LAST_MONTHS : QUARTER_FIRST_MONTHS);
}

/** Nine to eleven months are said by the ones left out: "except August" (issue 25, family 7). */
function monthsLeftOut(months: readonly number[]): string | null {
  const set = new Set(months);
  if (set.size < 9 || set.size > 11) return null;
  return monthWords([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12].filter((m) => !set.has(m)));
}

/**
 * Interval 1: the fields alone decide the runs, so the wording follows them ("Every Monday",
 * "On the 1st of every month", "Every year on 25 December") whatever schedule_type says.
 */
function everyPeriod(info: ScheduleInfo): Phrase {
  const months = info.months_of_year;
  const days = daysOfTheMonth(info);
  if (days && !months) return { text: `On ${days.text} of every month`, said: days.said };
  if (days && months) {
    if (info.schedule_type === 'monthly' && isQuarterly(info, months)) {
      return { text: `On ${days.text} of every quarter`, said: [...days.said, 'months_of_year'] };
    }
    const except = monthsLeftOut(months);
    if (except) return { text: `On ${days.text} of every month except ${except}`, said: [...days.said, 'months_of_year'] };
    const date = dateWords(days, info, months);
    return { text: `Every year on ${date.text}`, said: date.said };
  }
  const except = months ? monthsLeftOut(months) : null;
  const monthText = except ? ` except in ${except}` : months ? ` in ${monthWords(months)}` : '';
  const inMonths: Phrase = months ? { text: monthText, said: ['months_of_year'] } : { text: '', said: [] };
  if (info.days_of_week) {
    const text = `Every ${weekdayWords(info.days_of_week, false)}${inMonths.text}`;
    return { text, said: ['days_of_week', ...inMonths.said] };
  }
  return { text: `Every day${inMonths.text}`, said: inMonths.said };
}

/** Interval N: schedule_type is the unit counted ("Every 2 weeks on Monday"). */
function everyNPeriods(info: ScheduleInfo, interval: number): Phrase {
  const every = `Every ${interval} ${UNIT_NAMES[info.schedule_type]}s`;
  const months = info.months_of_year;
  const inMonths = months ? ` in ${monthWords(months)}` : '';
  const monthsSaid: DayField[] = months ? ['months_of_year'] : [];
  // checkScheduleInfo has made sure that monthly and yearly schedules have days of the month.
  const days = daysOfTheMonth(info) ?? { text: '', said: [] };
  switch (info.schedule_type) {
    case 'daily':
      return { text: `${every}${inMonths}`, said: monthsSaid };
    case 'weekly': {
      const weekdays = weekdayWords(info.days_of_week ?? [], true);
      return { text: `${every} on ${weekdays}${inMonths}`, said: ['days_of_week', ...monthsSaid] };
    }
    case 'monthly':
      // "every 2 months ... in March" is refused by the parser: months become an "only" clause.
      return { text: `${every} on ${days.text}`, said: days.said };
    default: {
      const date = dateWords(days, info, months ?? []);
      return { text: `${every} on ${date.text}`, said: date.said };
    }
  }
}

/** Whether the schedule sets a day field that the main phrase has not said. */
const unsaid = (info: ScheduleInfo, said: readonly DayField[], field: DayField): boolean =>
  info[field] !== null && info[field] !== undefined && !said.includes(field);

/** What the main phrase left out, so that the sentence never claims more runs than there are. */
function onlyClauses(info: ScheduleInfo, said: DayField[]): string[] {
  const { days_of_week: weekdays, weeks_of_month: weeks, days_of_month: monthDays, months_of_year: months } = info;
  const clauses: string[] = [];
  if (weeks && weekdays && unsaid(info, said, 'weeks_of_month'))
    clauses.push(`only on the ${nthWords(weeks, weekdays)} of the month`);
  else if (weekdays && unsaid(info, said, 'days_of_week'))
    clauses.push(`only on ${list(mondayFirst(weekdays).map((d) => `${WEEKDAY_NAMES[d]}s`))}`);
  if (monthDays && unsaid(info, said, 'days_of_month')) clauses.push(`only on the ${monthDayWords(monthDays)} of the month`);
  if (months && unsaid(info, said, 'months_of_year')) clauses.push(`only in ${monthWords(months)}`);
  return clauses;
}

/**
 * The local date of the first run on or after anchor_date. For every schedule the parser makes
 * that is anchor_date itself; for a hand-made anchor that is no run date, the first run is what
 * a reader needs, and what the parser turns back into the same anchor.
 */
function firstRunFrom(info: ScheduleInfo, anchor: CivilDate): CivilDate {
  const zone = zoneOf(resolveZone(String(info.timezone ?? DEFAULT_TIMEZONE)));
  const justBefore = localToInstant(anchor, 0, 0, zone) - 1;
  try {
    return civilDate(localDayNumber(nextRunAt(info, new Date(justBefore)).getTime(), zone));
  } catch (err) {
    // No run for centuries ("every 2 years on 30 February"): say the anchor as stored.
    if (err instanceof ScheduleError) return anchor;
    throw err;
  }
}

/** "Monday 30 November 2026". */
function dateInWords(date: CivilDate): string {
  const weekday = WEEKDAY_NAMES[weekdayOf(dayNumber(date.year, date.month, date.day))];
  return `${weekday} ${date.day} ${MONTH_NAMES[date.month]} ${String(date.year).padStart(4, '0')}`;
}

const MINUTES_PER_DAY = 24 * 60;

/**
 * "Every hour at :15", "Every 20 minutes", "Every 3 hours from 08:00 to 20:00": the short forms
 * only where the parser reads them back as the same runs (from midnight, a step that divides
 * the day); otherwise the hours, with 23:59 for "until midnight".
 */
function everyFewPhrase(info: ScheduleInfo): string {
  const interval = info.interval ?? 1;
  const unit = UNIT_NAMES[info.schedule_type];
  const every = interval === 1 ? `Every ${unit}` : `Every ${interval} ${unit}s`;
  const [hour, minute] = info.schedule_time.split(':');
  const step = info.schedule_type === 'hourly' ? interval * 60 : interval;
  const fromMidnight = info.end_time == null && hour === '00' && MINUTES_PER_DAY % step === 0;
  if (fromMidnight && info.schedule_type === 'hourly') return `${every} at :${minute}`;
  if (fromMidnight && minute === '00') return every;
  // Minutes that do not divide the day from midnight (issue 46): the restart is the choice made.
  const restarts = info.end_time == null && hour === '00' && minute === '00' && info.schedule_type === 'minutely';
  if (restarts) return `${every}, restarting at midnight`;
  return `${every} from ${info.schedule_time} to ${info.end_time ?? '23:59'}`;
}

/**
 * The zone as a person reads it: an IANA name as stored, but IANA's fixed offsets, whose POSIX
 * sign reads backwards (Etc/GMT-2 is two hours ahead of UTC), as "UTC+02:00" (issue 46). The
 * parser reads "UTC+02:00" back as Etc/GMT-2.
 */
export function zoneInWords(timezone: unknown): string {
  const name = String(timezone ?? DEFAULT_TIMEZONE);
  const m = /^Etc\/GMT([+-])(\d{1,2})$/.exec(name);
  if (!m || Number(m[2]) === 0) return name;
  return `UTC${m[1] === '-' ? '+' : '-'}${String(m[2]).padStart(2, '0')}:00`;
}

/** "Every hour at :15, every weekday, Europe/Berlin": the days said as a daily schedule's would be. */
function saySubDaily(info: ScheduleInfo): string {
  const parts = [everyFewPhrase(info)];
  const fields: DayField[] = ['days_of_week', 'days_of_month', 'weeks_of_month', 'months_of_year'];
  if (fields.some((f) => info[f] !== null && info[f] !== undefined)) {
    const days = everyPeriod({ ...info, interval: 1 });
    parts.push(days.text.charAt(0).toLowerCase() + days.text.slice(1), ...onlyClauses(info, days.said));
  }
  parts.push(zoneInWords(info.timezone));
  return parts.join(', ');
}

/**
 * The schedule said back in plain English, e.g. "Every weekday at 09:00, Europe/Berlin" or
 * "Every 2 weeks on Monday at 10:00, starting Monday 30 November 2026, UTC": a capital first,
 * the 24-hour time, an every-N schedule's first run, and the time zone as stored (a fixed offset
 * as "UTC+02:00"), last.
 * Throws ScheduleError for a malformed schedule_info, as nextRunAt does.
 */
export function sayScheduleInEnglish(info: ScheduleInfo): string {
  checkScheduleInfo(info);
  if (info.schedule_type === 'once') return sayOnce(info);
  if (SUB_DAILY_KINDS.includes(info.schedule_type)) return withEnd(saySubDaily(info), info);
  const interval = info.interval ?? 1;
  const main = interval === 1 ? everyPeriod(info) : everyNPeriods(info, interval);
  // Several times of day (issue 46): "at 09:00 and 17:00", which the parser reads back.
  const times = Array.isArray(info.schedule_times) ? list(info.schedule_times) : info.schedule_time;
  const parts = [`${main.text} at ${times}`, ...onlyClauses(info, main.said)];
  const anchor = interval === 1 ? null : parseDate(String(info.anchor_date));
  if (anchor) parts.push(`starting ${dateInWords(firstRunFrom(info, anchor))}`);
  parts.push(zoneInWords(info.timezone));
  return withEnd(parts.join(', '), info);
}

const timesInWords = (info: ScheduleInfo): string =>
  Array.isArray(info.schedule_times) ? list(info.schedule_times) : info.schedule_time;

/** "Once on Friday 6 March 2026 at 15:00, UTC" (issue 46), which the parser reads back. */
function sayOnce(info: ScheduleInfo): string {
  const date = parseDate(String(info.anchor_date)) as CivilDate;
  return `Once on ${dateInWords(date)} at ${timesInWords(info)}, ${zoneInWords(info.timezone)}`;
}

/**
 * The end after the zone (issue 46): "..., UTC, until Thursday 31 December 2026" when `until` is
 * the last second of a local date, as the parser makes it from an end date or a duration; "..., 10
 * times" for a count. Another instant is said with its local time, which is not read back.
 */
function withEnd(sentence: string, info: ScheduleInfo): string {
  if (typeof info.count === 'number') return `${sentence}, ${info.count} times`;
  if (typeof info.until !== 'string') return sentence;
  const zone = zoneOf(resolveZone(String(info.timezone ?? DEFAULT_TIMEZONE)));
  const until = Date.parse(info.until);
  const local = localDayNumber(until, zone);
  const date = civilDate(local);
  const endOfDay = localToInstant(civilDate(local + 1), 0, 0, zone) - 1000 === until;
  if (endOfDay) return `${sentence}, until ${dateInWords(date)}`;
  const wall = new Date(until + zone.offset(until) * 60_000).toISOString().slice(11, 16);
  return `${sentence}, until ${dateInWords(date)} ${wall} (the last run)`;
}
