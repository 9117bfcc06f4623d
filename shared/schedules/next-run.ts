import { type CivilDate, civilDate, dayNumber, daysInMonth, isoWeekIndex, parseDate, weekdayOf } from './calendar.js';
import { ScheduleError } from './errors.js';
import { DEFAULT_TIMEZONE, resolveZone } from './timezones.js';
import { SCHEDULE_KINDS, type ScheduleInfo, type ScheduleKind, SUB_DAILY_KINDS } from './types.js';
import { localDayNumber, localToInstant, type Zone, zoneOf } from './zoned-time.js';

/** Far enough for "every 9 years on Feb 29" across a skipped century leap day. */
const HORIZON_YEARS = 400;
const MINUTE_MS = 60_000;

/** Hourly and minutely: the day's runs, in minutes since local midnight. */
interface DaySeries {
  start: number;
  /** Latest run of the day (inclusive); of the next day for a window across midnight. */
  end: number;
  step: number;
  /**
   * A window across midnight ("every hour between 9pm and 2am", issue 46): end_time before
   * schedule_time. Its runs belong to the day it starts on: that day's from `start` to 23:59
   * (`late`), then the next day's from the series' first step after midnight to `end` (`early`,
   * null when no step falls there).
   */
  wrap: { late: DaySeries; early: DaySeries | null } | null;
}

interface Rule {
  kind: ScheduleKind;
  hour: number;
  minute: number;
  /** Several times of day (schedule_times), ascending; null for one (hour and minute). */
  times: Array<{ hour: number; minute: number }> | null;
  daysOfWeek: number[] | null;
  daysOfMonth: number[] | null;
  weeksOfMonth: number[] | null;
  months: number[] | null;
  /** RFC 5545 BYSETPOS within each month over the days the other fields allow (issue 46), or null. */
  setPositions: number[] | null;
  /** The month (year * 12 + month) whose days setPositions picks, worked out once per month. */
  positioned: { month: number; days: ReadonlySet<number> } | null;
  interval: number;
  anchorDay: number | null;
  /** periodIndex of the anchor date; null when there is no anchor (interval 1). */
  anchorPeriod: number | null;
  zone: Zone;
  /** The last instant a run may be at (until, issue 46), in ms; null for no end. */
  until: number | null;
  /** Set for hourly and minutely schedules. */
  series: DaySeries | null;
}

function invalid(what: string): ScheduleError {
  return new ScheduleError(`Invalid schedule_info: ${what}`);
}

function intList(value: unknown, name: string, ok: (n: number) => boolean): number[] | null {
  if (value === null || value === undefined) return null;
  if (!Array.isArray(value) || value.length === 0 || !value.every((n) => Number.isInteger(n) && ok(n))) {
    throw invalid(`${name} must be null or a non-empty list of allowed integers`);
  }
  return value as number[];
}

function readTime(value: unknown): { hour: number; minute: number } {
  const m = typeof value === 'string' ? /^([01]\d|2[0-3]):([0-5]\d)$/.exec(value) : null;
  if (!m) throw invalid('schedule_time must be HH:MM (24-hour)');
  return { hour: Number(m[1]), minute: Number(m[2]) };
}

/**
 * schedule_times (issue 46): absent or null on a schedule with one time of day (every stored
 * Knap before it); else at least two 'HH:MM', ascending without repeats, the first schedule_time.
 */
function readTimes(info: ScheduleInfo): Rule['times'] {
  const value = info.schedule_times;
  if (value === undefined || value === null) return null;
  if (SUB_DAILY_KINDS.includes(info.schedule_type)) throw invalid('schedule_times is for daily to yearly schedules only');
  if (!Array.isArray(value) || value.length < 2) throw invalid('schedule_times must be a list of at least two HH:MM times');
  const times = value.map(readTime);
  for (let k = 1; k < value.length; k++) {
    if (String(value[k]) <= String(value[k - 1])) throw invalid('schedule_times must be ascending, without repeats');
  }
  if (value[0] !== info.schedule_time) throw invalid('schedule_time must be the first of schedule_times');
  return times;
}

/** until (issue 46): absent or null for no end; else an ISO 8601 instant. */
function readUntil(info: ScheduleInfo): number | null {
  const value = info.until;
  if (value === undefined || value === null) return null;
  const ms =
    typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3})?Z$/.test(value) ? Date.parse(value) : NaN;
  if (!Number.isFinite(ms)) throw invalid('until must be an ISO 8601 UTC instant');
  const count = info.count;
  if (count !== undefined && count !== null && !(Number.isInteger(count) && count >= 1)) {
    throw invalid('count must be a positive integer');
  }
  return ms;
}

function readAnchor(info: ScheduleInfo, interval: number): CivilDate | null {
  // A one-off runs on its date (issue 46).
  if (info.schedule_type === 'once') {
    const date = typeof info.anchor_date === 'string' ? parseDate(info.anchor_date) : null;
    if (!date) throw invalid('anchor_date (YYYY-MM-DD) is the date of a once schedule');
    if (interval !== 1) throw invalid('a once schedule has interval 1');
    return date;
  }
  // Sub-daily intervals count hours or minutes within each day: there is nothing to anchor.
  if (interval === 1 || SUB_DAILY_KINDS.includes(info.schedule_type)) return null;
  const anchor = typeof info.anchor_date === 'string' ? parseDate(info.anchor_date) : null;
  if (!anchor) throw invalid('anchor_date (YYYY-MM-DD) is required when interval is over 1');
  return anchor;
}

function checkShape(rule: Rule): void {
  const needs: Record<ScheduleKind, boolean> = {
    daily: true,
    weekly: rule.daysOfWeek !== null,
    monthly: rule.daysOfMonth !== null || rule.weeksOfMonth !== null || rule.setPositions !== null,
    yearly: rule.months !== null && (rule.daysOfMonth !== null || rule.weeksOfMonth !== null || rule.setPositions !== null),
    hourly: true,
    minutely: true,
    once: true,
  };
  if (!needs[rule.kind]) throw invalid(`a ${rule.kind} schedule is missing the days it runs on`);
  const days = [rule.daysOfWeek, rule.daysOfMonth, rule.weeksOfMonth, rule.months, rule.setPositions];
  if (rule.kind === 'once' && days.some((d) => d !== null))
    throw invalid('a once schedule runs on anchor_date only: no day fields');
  if (rule.weeksOfMonth && !rule.daysOfWeek) throw invalid('weeks_of_month needs days_of_week');
  if (rule.setPositions && !rule.daysOfWeek) throw invalid('set_positions needs days_of_week');
  if (rule.setPositions && rule.series) throw invalid('set_positions is for daily to yearly schedules only');
}

// The allowed values of each list, made once rather than as closures on every compile.
const isWeekday = (n: number) => n >= 0 && n <= 6;
const isMonthDay = (n: number) => n === -1 || (n >= 1 && n <= 31);
const isWeekOfMonth = (n: number) => n === -1 || (n >= 1 && n <= 5);
const isMonth = (n: number) => n >= 1 && n <= 12;
// A month has at most 31 days to choose among: BYSETPOS of 1..31 or -1..-31.
const isSetPosition = (n: number) => n !== 0 && n >= -31 && n <= 31;

function compile(info: ScheduleInfo): Rule {
  if (typeof info !== 'object' || info === null) throw invalid('not an object');
  if (!SCHEDULE_KINDS.includes(info.schedule_type)) throw invalid('unknown schedule_type');
  const interval = info.interval ?? 1;
  if (!Number.isInteger(interval) || interval < 1) throw invalid('interval must be a positive integer');
  const anchor = readAnchor(info, interval);
  const anchorDay = anchor ? dayNumber(anchor.year, anchor.month, anchor.day) : null;
  const rule: Rule = {
    kind: info.schedule_type,
    ...readTime(info.schedule_time),
    times: readTimes(info),
    daysOfWeek: intList(info.days_of_week, 'days_of_week', isWeekday),
    daysOfMonth: intList(info.days_of_month, 'days_of_month', isMonthDay),
    weeksOfMonth: intList(info.weeks_of_month, 'weeks_of_month', isWeekOfMonth),
    months: intList(info.months_of_year, 'months_of_year', isMonth),
    setPositions: intList(info.set_positions ?? null, 'set_positions', isSetPosition),
    positioned: null,
    interval,
    anchorDay,
    anchorPeriod: anchor && anchorDay !== null ? periodIndex(info.schedule_type, anchor, anchorDay) : null,
    zone: zoneOf(resolveZone(String(info.timezone ?? DEFAULT_TIMEZONE))),
    until: readUntil(info),
    series: null,
  };
  if (SUB_DAILY_KINDS.includes(rule.kind)) rule.series = readSeries(info, rule);
  else if (info.end_time !== undefined && info.end_time !== null)
    throw invalid('end_time is for hourly and minutely schedules only');
  checkShape(rule);
  return rule;
}

const MAX_STEP: Readonly<Partial<Record<ScheduleKind, number>>> = { hourly: 23, minutely: 24 * 60 - 1 };

function readSeries(info: ScheduleInfo, rule: Rule): DaySeries {
  const step = rule.kind === 'hourly' ? rule.interval * 60 : rule.interval;
  if (rule.interval > (MAX_STEP[rule.kind] ?? 0)) throw invalid(`interval of a ${rule.kind} schedule must be under a day`);
  const start = rule.hour * 60 + rule.minute;
  if (info.end_time === null || info.end_time === undefined) return { start, end: 24 * 60 - 1, step, wrap: null };
  const end = readTime(info.end_time);
  const endMinutes = end.hour * 60 + end.minute;
  if (endMinutes >= start) return { start, end: endMinutes, step, wrap: null };
  // Across midnight (issue 46): the series goes on after midnight at the same pace.
  const late: DaySeries = { start, end: 24 * 60 - 1, step, wrap: null };
  const firstAfterMidnight = start + Math.ceil((24 * 60 - start) / step) * step - 24 * 60;
  const early: DaySeries | null =
    firstAfterMidnight <= endMinutes ? { start: firstAfterMidnight, end: endMinutes, step, wrap: null } : null;
  return { start, end: endMinutes, step, wrap: { late, early } };
}

/**
 * The first run after `afterMs` of a window across midnight that starts on `date`: its evening
 * on the date, then its small hours on the next date (each as seriesRunAfter finds them, DST
 * included).
 */
function wrappedRunAfter(
  rule: Rule,
  wrap: NonNullable<DaySeries['wrap']>,
  date: CivilDate,
  day: number,
  afterMs: number,
): number | null {
  const late = seriesRunAfter(rule, wrap.late, date, afterMs);
  if (late !== null || !wrap.early) return late;
  return seriesRunAfter(rule, wrap.early, dayAfter(date, day + 1), afterMs);
}

/** The first instant (to the minute) in [lo, hi] whose offset is `to`; lo has another offset. */
function transitionBetween(zone: Zone, lo: number, hi: number, to: number): number {
  let [a, b] = [lo, hi];
  while (b - a > MINUTE_MS) {
    const mid = a + Math.floor((b - a) / 2 / MINUTE_MS) * MINUTE_MS;
    if (zone.offset(mid) === to) b = mid;
    else a = mid;
  }
  return b;
}

/** Local wall time of a day's minute, as if it were UTC (the calendar arithmetic of the zone). */
const wallOf = (midnight: number, minutes: number): number => midnight + minutes * MINUTE_MS;

/**
 * The first run of an hourly or minutely schedule on the date strictly after `afterMs`, or null.
 * Each wall time of the series runs at every instant it occurs: twice when clocks go back (so
 * the runs keep their pace in real time), once, moved forward past the gap, when it does not
 * exist (read with the offset before the gap, as for daily schedules).
 */
function seriesRunAfter(rule: Rule, series: DaySeries, date: CivilDate, afterMs: number): number | null {
  const midnight = Date.UTC(date.year, date.month - 1, date.day);
  // The instants of this local date lie within these bounds, whatever the zone (UTC-12 to +14).
  const before = rule.zone.offset(midnight - 14 * 3_600_000);
  const after = rule.zone.offset(midnight + 38 * 3_600_000);
  if (before === after) {
    // One offset all day: the first slot after `afterMs` is plain arithmetic.
    const x = (afterMs - midnight) / MINUTE_MS + before;
    const k = x < series.start ? 0 : Math.floor((x - series.start) / series.step) + 1;
    const m = series.start + k * series.step;
    return m <= series.end ? wallOf(midnight, m - before) : null;
  }
  // A transition day: find the instant the offset changes (to the minute), then each slot's
  // instants are arithmetic. Only slots within the shift of `afterMs` (in wall time) can be next.
  const change = transitionBetween(rule.zone, midnight - 14 * 3_600_000, midnight + 38 * 3_600_000, after);
  const shift = Math.abs(after - before);
  const afterWall = (afterMs - midnight) / MINUTE_MS + rule.zone.offset(afterMs);
  const first = Math.max(0, Math.ceil((afterWall - shift - series.start) / series.step));
  let best: number | null = null;
  let bestWall = Number.POSITIVE_INFINITY;
  for (let m = series.start + first * series.step; m <= series.end && m <= bestWall + shift; m += series.step) {
    const early = wallOf(midnight, m - before);
    const late = wallOf(midnight, m - after);
    const valid = [early < change ? early : null, late >= change ? late : null].filter((i): i is number => i !== null);
    // In the gap: the offset before it, as for daily schedules (RFC 5545).
    for (const instant of valid.length > 0 ? valid : [early]) {
      if (instant > afterMs && (best === null || instant < best)) {
        best = instant;
        bestWall = Math.min(bestWall, m);
      }
    }
  }
  return best;
}

/**
 * The first of a date's times of day strictly after `afterMs`, or null. Each time gets one instant,
 * as a single time does (the earlier when clocks go back; moved past a gap); two times that land
 * on the same instant (02:30 and 03:30 when 02:00 jumps to 03:00) run once.
 */
function timesRunAfter(rule: Rule, times: NonNullable<Rule['times']>, date: CivilDate, afterMs: number): number | null {
  // The least instant, not the first in wall order: a time in the gap moves past the times just
  // after it (New York, 8 March 2026: 02:30 runs at 03:30 EDT, after 03:00 EDT).
  let best: number | null = null;
  for (const { hour, minute } of times) {
    const instant = localToInstant(date, hour, minute, rule.zone);
    if (instant > afterMs && (best === null || instant < best)) best = instant;
  }
  return best;
}

/** Throws the ScheduleError nextRunAt would for a malformed schedule_info; walks no dates. */
export function checkScheduleInfo(info: ScheduleInfo): void {
  compile(info);
}

/** Index of the day, ISO week, month or year containing the date: the unit of `interval`. */
function periodIndex(kind: ScheduleKind, date: CivilDate, day: number): number {
  switch (kind) {
    case 'daily':
      return day;
    case 'weekly':
      return isoWeekIndex(day);
    case 'monthly':
      return date.year * 12 + date.month;
    default:
      return date.year;
  }
}

function inIntervalPeriod(rule: Rule, date: CivilDate, day: number): boolean {
  if (rule.anchorPeriod === null) return true;
  const apart = periodIndex(rule.kind, date, day) - rule.anchorPeriod;
  return apart % rule.interval === 0;
}

/** Whole months are skipped at once when their month or their interval period rules them out. */
function monthAllowed(rule: Rule, date: CivilDate): boolean {
  if (rule.months && !rule.months.includes(date.month)) return false;
  // Without an anchor every period is in (inIntervalPeriod): no day number to work out.
  if ((rule.kind !== 'monthly' && rule.kind !== 'yearly') || rule.anchorPeriod === null) return true;
  return inIntervalPeriod(rule, date, dayNumber(date.year, date.month, 1));
}

function dayAllowed(rule: Rule, date: CivilDate, day: number): boolean {
  if (!dayMatches(rule, date, day)) return false;
  if (rule.setPositions && !positionedDays(rule, date).has(date.day)) return false;
  return inIntervalPeriod(rule, date, day);
}

/**
 * The days of the date's month that set_positions picks: the month's days that the other fields
 * allow, numbered from the first (1, 2 ...) and from the last (-1, -2 ...), as RFC 5545's BYSETPOS
 * numbers the set a monthly rule expands to.
 */
function positionedDays(rule: Rule, date: CivilDate): ReadonlySet<number> {
  const month = date.year * 12 + date.month;
  if (rule.positioned?.month === month) return rule.positioned.days;
  const matching: number[] = [];
  const first = dayNumber(date.year, date.month, 1);
  const length = daysInMonth(date.year, date.month);
  for (let d = 1; d <= length; d++) {
    if (dayMatches(rule, { year: date.year, month: date.month, day: d }, first + d - 1)) matching.push(d);
  }
  const days = new Set<number>();
  for (const p of rule.setPositions ?? []) {
    const d = p > 0 ? matching[p - 1] : matching[matching.length + p];
    if (d !== undefined) days.add(d);
  }
  rule.positioned = { month, days };
  return days;
}

/** Whether the date's weekday, day of the month and week of the month are the schedule's. */
function dayMatches(rule: Rule, date: CivilDate, day: number): boolean {
  const length = daysInMonth(date.year, date.month);
  const isLast = date.day === length;
  if (rule.daysOfWeek && !rule.daysOfWeek.includes(weekdayOf(day))) return false;
  if (rule.daysOfMonth && !rule.daysOfMonth.includes(date.day) && !(isLast && rule.daysOfMonth.includes(-1))) return false;
  if (rule.weeksOfMonth) {
    const nth = Math.ceil(date.day / 7);
    const lastWeek = date.day + 7 > length;
    if (!rule.weeksOfMonth.includes(nth) && !(lastWeek && rule.weeksOfMonth.includes(-1))) return false;
  }
  return true;
}

/**
 * The first run strictly after `after`. Candidate dates are walked in the schedule's zone;
 * each gets one instant, so a wall time repeated when clocks go back never runs twice.
 */
export function nextRunAt(info: ScheduleInfo, after: Date): Date {
  return orEnded(firstRunAfter(compile(info), after), after);
}

/**
 * The first run strictly after `after`, or null when the schedule has ended: a once schedule
 * after its run, one with `until` (or `count`) after its last (issue 46). Throws, as nextRunAt
 * does, for a malformed schedule_info and for no run in the next 400 years.
 */
export function nextRunOrNull(info: ScheduleInfo, after: Date): Date | null {
  return firstRunAfter(compile(info), after);
}

/** nextRunAt's answer: a schedule that has ended has no next run, which it cannot return. */
function orEnded(run: Date | null, after: Date): Date {
  if (run) return run;
  throw new ScheduleError(`This schedule has ended: it has no run after ${after.toISOString().replace(/\.\d{3}Z$/, 'Z')}`);
}

/**
 * nextRunAt for one schedule_info asked for run after run (a preview's next runs): checked and
 * compiled once. Throws now what nextRunAt would throw for a malformed schedule_info.
 */
export function runSearch(info: ScheduleInfo): (after: Date) => Date {
  const rule = compile(info);
  return (after) => orEnded(firstRunAfter(rule, after), after);
}

/** runSearch that answers null once the schedule has ended (issue 46), as nextRunOrNull does. */
export function runSearchOrNull(info: ScheduleInfo): (after: Date) => Date | null {
  const rule = compile(info);
  return (after) => firstRunAfter(rule, after);
}

/**
 * civilDate(day), `date` being the day before: the next day of its month without the arithmetic,
 * or civilDate's answer after a month's last day. (daysInMonth is never more than a month's
 * length: for the year 0, which Date.UTC reads as 1900, it is short, and civilDate answers.)
 */
function dayAfter(date: CivilDate, day: number): CivilDate {
  if (date.day < daysInMonth(date.year, date.month)) return { year: date.year, month: date.month, day: date.day + 1 };
  return civilDate(day);
}

/** The one run of a once schedule, if it is after `afterMs` (and not past its until). */
function onceRunAfter(rule: Rule, afterMs: number): Date | null {
  const date = civilDate(rule.anchorDay as number);
  const instant = rule.times
    ? timesRunAfter(rule, rule.times, date, afterMs)
    : localToInstant(date, rule.hour, rule.minute, rule.zone);
  if (instant === null || instant <= afterMs || (rule.until !== null && instant > rule.until)) return null;
  return new Date(instant);
}

function firstRunAfter(rule: Rule, after: Date): Date | null {
  const afterMs = after instanceof Date ? after.getTime() : NaN;
  if (!Number.isFinite(afterMs)) throw new ScheduleError('Invalid reference time: not a valid Date');
  if (rule.kind === 'once') return onceRunAfter(rule, afterMs);
  if (rule.until !== null && afterMs >= rule.until) return null;
  // No date past the end's local date (and the day after it, for a shifted wall time) can run.
  const lastDay = rule.until === null ? Number.POSITIVE_INFINITY : localDayNumber(rule.until, rule.zone) + 1;
  // One day early: a shifted wall time near midnight can land on the following local date.
  let day = Math.max(localDayNumber(afterMs, rule.zone) - 1, rule.anchorDay ?? -Infinity);
  let date = civilDate(day);
  const lastYear = date.year + HORIZON_YEARS;
  while (date.year <= lastYear) {
    if (day > lastDay) return null;
    if (!monthAllowed(rule, date)) {
      day = dayNumber(date.year, date.month + 1, 1);
      date = civilDate(day);
      continue;
    }
    if (dayAllowed(rule, date, day)) {
      const instant = rule.series
        ? rule.series.wrap
          ? wrappedRunAfter(rule, rule.series.wrap, date, day, afterMs)
          : seriesRunAfter(rule, rule.series, date, afterMs)
        : rule.times
          ? timesRunAfter(rule, rule.times, date, afterMs)
          : localToInstant(date, rule.hour, rule.minute, rule.zone);
      if (instant !== null && instant > afterMs) {
        return rule.until !== null && instant > rule.until ? null : new Date(instant);
      }
    }
    day++;
    date = dayAfter(date, day);
  }
  throw new ScheduleError(`This schedule has no run in the next ${HORIZON_YEARS} years`);
}
