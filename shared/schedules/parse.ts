import { isoSeconds } from '../domain/clock.js';
import { type CivilDate, civilDate, formatDate } from './calendar.js';
import { readCron } from './cron.js';
import { onceInfo, onceOn, withEnds } from './endings.js';
import { contradiction, ScheduleError } from './errors.js';
import { checkTimesPer } from './families/frequency-words.js';
import { type Facts, readFamilies } from './families/index.js';
import { dayFromStart, relativeDate } from './families/relative-start.js';
import type { StartMention } from './families/start-date.js';
import { hhmm, type SubDailyTiming, subDailyTiming } from './families/sub-daily.js';
import { prefixZone, zonePrefix } from './families/zone-keywords.js';
import { rejectLeftovers } from './leftovers.js';
import { nextRunAt } from './next-run.js';
import { isBareDate, rejectBareDate } from './one-offs.js';
import { type Recurrence, resolveRecurrence } from './resolve.js';
import { rruleOf } from './rrule.js';
import { applyPeriod } from './time-of-day.js';
import { DEFAULT_TIMEZONE, resolveZone } from './timezones.js';
import { type Token, tokenize } from './tokens.js';
import {
  type DescribeOptions,
  MAX_DESCRIPTION_LENGTH,
  type ParseOptions,
  type ScheduleDescription,
  type ScheduleInfo,
} from './types.js';
import { correctTypos } from './typos.js';
import { localDayNumber, localToInstant, zoneOf } from './zoned-time.js';

function checkDescription(description: unknown): string {
  if (typeof description !== 'string') throw new ScheduleError('The schedule description must be a string');
  if (description.trim() === '') throw new ScheduleError('The schedule description is blank');
  // Characters as users (and the request schema) count them: code points, not UTF-16 units.
  // Counted only past the limit in UTF-16 units, of which there are never fewer.
  const length = description.length > MAX_DESCRIPTION_LENGTH ? [...description].length : 0;
  if (length > MAX_DESCRIPTION_LENGTH) {
    const lengths = `${length} characters, at most ${MAX_DESCRIPTION_LENGTH}`;
    throw new ScheduleError(`The schedule description is too long (${lengths})`);
  }
  return description;
}

function checkNow(now: unknown): Date {
  if (now instanceof Date && Number.isFinite(now.getTime())) return now;
  throw new ScheduleError('Invalid reference time: not a valid Date');
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}

/**
 * `{ ...recurrence, ...fields }`: the same keys in the same order. Not that literal: Node 20's V8
 * adds each key that follows a leading spread in an object literal through its runtime, ~1 µs a
 * key (the same goes for resolve.ts, cron.ts, units.ts and time-of-day.ts).
 */
function withFields(recurrence: Recurrence, fields: Omit<ScheduleInfo, keyof Recurrence> & Partial<ScheduleInfo>): ScheduleInfo {
  return Object.assign({}, recurrence, fields);
}

/**
 * With an interval over 1 the schedule is pinned to its first run after `now`, or on or after
 * the start date when the text gives one; later runs count whole intervals from that run's day,
 * week, month or year. An interval-1 schedule keeps no anchor: its start only holds back the
 * first run (describeSchedule's next_run_at).
 */
function withAnchor(info: ScheduleInfo, now: Date, start: CivilDate | null): ScheduleInfo {
  if (info.interval === 1) return info;
  const zone = zoneOf(info.timezone);
  const from = start ? new Date(localToInstant(start, 0, 0, zone) - 1) : now;
  const first = nextRunAt({ ...info, interval: 1, anchor_date: null }, from);
  return { ...info, anchor_date: formatDate(civilDate(localDayNumber(first.getTime(), zone))) };
}

/** The start's local date: as written, or worked out from today in the zone ("next Tuesday"). */
function startDateOf(start: StartMention | null, now: Date, zone: string): CivilDate | null {
  if (!start) return null;
  if (start.date) return start.date;
  const today = civilDate(localDayNumber(now.getTime(), zoneOf(zone)));
  return start.relative ? relativeDate(start.relative, today) : null;
}

/** 'HH:MM' of each time of day, ascending without repeats: one unless several are named (issue 46). */
function timesOfDay(facts: Facts): string[] {
  if (facts.times.length < 2) {
    const { hour, minute } = applyPeriod(facts.time, facts.period);
    return [`${pad2(hour)}:${pad2(minute)}`];
  }
  const times = facts.times.map((t) => applyPeriod(t, facts.period)).map(({ hour, minute }) => `${pad2(hour)}:${pad2(minute)}`);
  return [...new Set(times)].sort();
}

interface Parsed {
  info: ScheduleInfo;
  /** The start of the start date's day less a millisecond: no run before it. Null without a start. */
  notBefore: Date | null;
}

function parse(description: string, options: ParseOptions): Parsed {
  const text = checkDescription(description);
  const now = checkNow(options.now ?? new Date());
  // null counts as absent: JSON bodies carry a missing timezone as null.
  const fallbackZone = options.timezone == null ? DEFAULT_TIMEZONE : resolveZone(String(options.timezone));
  // crontab's "CRON_TZ=Europe/Paris 0 9 * * *": the zone of the cron line after it.
  const prefixed = zonePrefix(text);
  const cron = readCron(prefixed?.rest ?? text);
  if (cron) {
    const zone = prefixed ? prefixZone(prefixed.name) : fallbackZone;
    const time = `${pad2(cron.hour)}:${pad2(cron.minute)}`;
    const end = cron.endTime === undefined ? {} : { end_time: cron.endTime };
    const read = withFields(cron.recurrence, { schedule_time: time, ...end, timezone: zone, anchor_date: null });
    if (cron.times) read.schedule_times = cron.times;
    // rate(3 days) is pinned to its first run as "every 3 days" is.
    const anchored = read.schedule_type === 'daily' ? withAnchor(orderFields(read), now, null) : orderFields(read);
    return { info: anchored, notBefore: null };
  }
  const tokens = tokenize(text);
  correctTypos(tokens);
  const facts = readFamilies(tokens, text);
  rejectLeftovers(tokens, text, now);
  const zone = facts.zone?.zone ?? fallbackZone;
  // "tomorrow at 9", "next Friday at 3pm", "on 3 March 2027" (issue 46): one run.
  if (facts.once) return { info: orderFields(onceInfo(facts.once, facts, timesOfDay(facts), zone, now)), notBefore: null };
  const timing = subDailyTiming(facts);
  if (timing) {
    const info = orderFields(subDailyInfo(timing, facts, tokens, text, zone));
    if (facts.ends.length === 0) return { info, notBefore: null };
    return { info: orderFields(withEnds(info, facts.ends, now, now, null)), notBefore: null };
  }
  // A time alone is every day at it, as cron descriptions say a daily cron ("At 07:30").
  const resolved = resolveRecurrence(facts, (facts.period?.daily ?? false) || facts.time !== null, text);
  checkTimesPer(facts, resolved);
  // After resolving, so an impossible date ("the 31st of April") is called that first.
  if (isBareDate(tokens, facts)) {
    // "April 9th until May" or "starting ...": a date that repeats nothing cannot start or end.
    if (facts.ends.length > 0 || facts.start) rejectBareDate(tokens, facts, text);
    return { info: orderFields(bareDateOnce(resolved, facts, zone, now)), notBefore: null };
  }
  const start = startDateOf(facts.start, now, zone);
  const recurrence = start ? dayFromStart(resolved, facts, start) : resolved;
  const times = timesOfDay(facts);
  const info = withFields(recurrence, { schedule_time: times[0] as string, timezone: zone, anchor_date: null });
  if (times.length > 1) info.schedule_times = times;
  const notBefore = start ? new Date(localToInstant(start, 0, 0, zoneOf(zone)) - 1) : null;
  const anchored = withAnchor(orderFields(info), now, start);
  if (facts.ends.length === 0) return { info: anchored, notBefore };
  const from = notBefore && notBefore.getTime() > now.getTime() ? notBefore : now;
  return { info: orderFields(withEnds(anchored, facts.ends, now, from, start)), notBefore };
}

/**
 * "April 9th at 7am", "the fourth Thursday of November" with no repeat word (issue 46): one run,
 * on the next such date. Refused before issue 46 as a one-off date.
 */
function bareDateOnce(resolved: Recurrence, facts: Facts, zone: string, now: Date): ScheduleInfo {
  const times = timesOfDay(facts);
  const yearly = withFields(resolved, { schedule_time: times[0] as string, timezone: zone, anchor_date: null });
  // The first day of the date after now: its first time, or the day after when every time has passed.
  const first = nextRunAt({ ...yearly, schedule_time: '23:59' }, new Date(now.getTime()));
  const date = civilDate(localDayNumber(first.getTime(), zoneOf(zone)));
  const text = facts.months[0]?.token.text ?? '';
  try {
    return onceOn(date, times, zone, now, text);
  } catch {
    // Today's date whose times have passed: the same date next year.
    const next = nextRunAt({ ...yearly, schedule_time: '23:59' }, new Date(first.getTime() + 1));
    return onceOn(civilDate(localDayNumber(next.getTime(), zoneOf(zone))), times, zone, now, text);
  }
}

/**
 * Parses a natural-language recurrence. A time zone named in the text wins over
 * `options.timezone`, which must still be a valid zone when given.
 */
export function parseSchedule(description: string, options: ParseOptions = {}): ScheduleInfo {
  return parse(description, options).info;
}

const ALL_DAYS: Recurrence = {
  schedule_type: 'daily',
  days_of_week: null,
  days_of_month: null,
  weeks_of_month: null,
  months_of_year: null,
  interval: 1,
};

/**
 * "every hour on weekdays", "every 30 minutes on the 1st of the month": the days are read as
 * the same words without the frequency would be, and must be a plain set of days (no interval).
 */
function subDailyDays(facts: Facts, tokens: readonly Token[], description: string): Recurrence {
  const choosesDays =
    facts.weekdayGroups.length +
      facts.nth.length +
      facts.weeksOfMonth.length +
      facts.monthDays.length +
      facts.months.length +
      facts.excludedMonths.length >
    0;
  const freq = facts.frequencies[0]?.text ?? '';
  // "twice a week every hour": a number of runs a week is no pace within the day.
  if (facts.timesPer[0]) throw contradiction(facts.timesPer[0].text, freq);
  const [unit] = facts.units.filter((u) => u.unit !== 'day' || u.interval !== 1);
  // "every hour every week" names no day; "every hour every 2 days" has no pace within the day.
  if (unit && (!choosesDays || unit.interval !== 1)) throw contradiction(unit.text, freq);
  if (!choosesDays && facts.excludedWeekdays.length === 0) return ALL_DAYS;
  // "every hour except Sunday", "every hour in December": every day, as after "every day".
  const everyDay = { unit: 'day' as const, interval: 1, text: freq };
  const onlyMonths = facts.weekdayGroups.length + facts.nth.length + facts.weeksOfMonth.length + facts.monthDays.length === 0;
  const days = resolveRecurrence(onlyMonths && !unit ? { ...facts, units: [everyDay] } : facts, false, description);
  rejectBareDate(tokens, facts, description);
  return days;
}

function subDailyInfo(
  timing: SubDailyTiming,
  facts: Facts,
  tokens: readonly Token[],
  description: string,
  zone: string,
): ScheduleInfo {
  const days = subDailyDays(facts, tokens, description);
  return withFields(days, {
    schedule_type: timing.schedule_type,
    schedule_time: hhmm(timing.start),
    end_time: timing.end === null ? null : hhmm(timing.end),
    interval: timing.interval,
    timezone: zone,
    anchor_date: null,
  });
}

/** Fixed key order, so stored and returned JSON always reads the same way. */
export function orderFields(info: ScheduleInfo): ScheduleInfo {
  return {
    schedule_type: info.schedule_type,
    schedule_time: info.schedule_time,
    // Only schedules with several times of day have the list (issue 46): the others keep their keys.
    ...(info.schedule_times === undefined ? {} : { schedule_times: info.schedule_times }),
    // Only sub-daily schedules have an end time: other shapes keep exactly the keys they had.
    ...(info.end_time === undefined ? {} : { end_time: info.end_time }),
    days_of_week: info.days_of_week,
    days_of_month: info.days_of_month,
    weeks_of_month: info.weeks_of_month,
    months_of_year: info.months_of_year,
    ...(info.set_positions === undefined ? {} : { set_positions: info.set_positions }),
    interval: info.interval,
    timezone: info.timezone,
    anchor_date: info.anchor_date,
    // Ends (issue 46): only schedules that have one carry them.
    ...(info.until === undefined ? {} : { until: info.until }),
    ...(info.count === undefined ? {} : { count: info.count }),
    // Last, as describeSchedule adds it; Knaps stored before issue 46 have none.
    ...(info.rrule === undefined ? {} : { rrule: info.rrule }),
  };
}

/**
 * schedule_info and the first run strictly after `now`; a start date ("starting next Tuesday")
 * holds the first run back to it, also for an interval-1 schedule, which keeps no anchor.
 * schedule_info.rrule starts at that run (parseSchedule, with no first run, leaves it out).
 */
export function describeSchedule(description: string, options: DescribeOptions): ScheduleDescription {
  const now = checkNow(options?.now);
  const { info, notBefore } = parse(description, { ...options, now });
  const from = notBefore && notBefore.getTime() > now.getTime() ? notBefore : now;
  const first = nextRunAt(info, from);
  // info is parse's own object, made by orderFields: rrule goes last, where orderFields puts it.
  info.rrule = rruleOf(info, first);
  return { schedule_info: info, next_run_at: isoSeconds(first) };
}
