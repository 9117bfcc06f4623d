import type { IANAZone } from 'luxon';
import { type CivilDate, civilDate, dayNumber, daysInMonth, isoWeekIndex, parseDate, weekdayOf } from './calendar.js';
import { ScheduleError } from './errors.js';
import { DEFAULT_TIMEZONE, resolveZone } from './timezones.js';
import { SCHEDULE_KINDS, type ScheduleInfo, type ScheduleKind } from './types.js';
import { localDayNumber, localToInstant, zoneOf } from './zoned-time.js';

/** Far enough for "every 9 years on Feb 29" across a skipped century leap day. */
const HORIZON_YEARS = 400;

interface Rule {
  kind: ScheduleKind;
  hour: number;
  minute: number;
  daysOfWeek: number[] | null;
  daysOfMonth: number[] | null;
  weeksOfMonth: number[] | null;
  months: number[] | null;
  interval: number;
  anchorDay: number | null;
  /** periodIndex of the anchor date; null when there is no anchor (interval 1). */
  anchorPeriod: number | null;
  zone: IANAZone;
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

function readAnchor(info: ScheduleInfo, interval: number): CivilDate | null {
  if (interval === 1) return null;
  const anchor = typeof info.anchor_date === 'string' ? parseDate(info.anchor_date) : null;
  if (!anchor) throw invalid('anchor_date (YYYY-MM-DD) is required when interval is over 1');
  return anchor;
}

function checkShape(rule: Rule): void {
  const needs: Record<ScheduleKind, boolean> = {
    daily: true,
    weekly: rule.daysOfWeek !== null,
    monthly: rule.daysOfMonth !== null || rule.weeksOfMonth !== null,
    yearly: rule.months !== null && (rule.daysOfMonth !== null || rule.weeksOfMonth !== null),
  };
  if (!needs[rule.kind]) throw invalid(`a ${rule.kind} schedule is missing the days it runs on`);
  if (rule.weeksOfMonth && !rule.daysOfWeek) throw invalid('weeks_of_month needs days_of_week');
}

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
    daysOfWeek: intList(info.days_of_week, 'days_of_week', (n) => n >= 0 && n <= 6),
    daysOfMonth: intList(info.days_of_month, 'days_of_month', (n) => n === -1 || (n >= 1 && n <= 31)),
    weeksOfMonth: intList(info.weeks_of_month, 'weeks_of_month', (n) => n === -1 || (n >= 1 && n <= 5)),
    months: intList(info.months_of_year, 'months_of_year', (n) => n >= 1 && n <= 12),
    interval,
    anchorDay,
    anchorPeriod: anchor && anchorDay !== null ? periodIndex(info.schedule_type, anchor, anchorDay) : null,
    zone: zoneOf(resolveZone(String(info.timezone ?? DEFAULT_TIMEZONE))),
  };
  checkShape(rule);
  return rule;
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
  if (rule.kind !== 'monthly' && rule.kind !== 'yearly') return true;
  return inIntervalPeriod(rule, date, dayNumber(date.year, date.month, 1));
}

function dayAllowed(rule: Rule, date: CivilDate, day: number): boolean {
  const length = daysInMonth(date.year, date.month);
  const isLast = date.day === length;
  if (rule.daysOfWeek && !rule.daysOfWeek.includes(weekdayOf(day))) return false;
  if (rule.daysOfMonth && !rule.daysOfMonth.includes(date.day) && !(isLast && rule.daysOfMonth.includes(-1))) return false;
  if (rule.weeksOfMonth) {
    const nth = Math.ceil(date.day / 7);
    const lastWeek = date.day + 7 > length;
    if (!rule.weeksOfMonth.includes(nth) && !(lastWeek && rule.weeksOfMonth.includes(-1))) return false;
  }
  return inIntervalPeriod(rule, date, day);
}

/**
 * The first run strictly after `after`. Candidate dates are walked in the schedule's zone;
 * each gets one instant, so a wall time repeated when clocks go back never runs twice.
 */
export function nextRunAt(info: ScheduleInfo, after: Date): Date {
  const rule = compile(info);
  const afterMs = after instanceof Date ? after.getTime() : NaN;
  if (!Number.isFinite(afterMs)) throw new ScheduleError('Invalid reference time: not a valid Date');
  // One day early: a shifted wall time near midnight can land on the following local date.
  let day = Math.max(localDayNumber(afterMs, rule.zone) - 1, rule.anchorDay ?? -Infinity);
  const lastYear = civilDate(day).year + HORIZON_YEARS;
  for (let date = civilDate(day); date.year <= lastYear; date = civilDate(day)) {
    if (!monthAllowed(rule, date)) {
      day = dayNumber(date.year, date.month + 1, 1);
      continue;
    }
    if (dayAllowed(rule, date, day)) {
      const instant = localToInstant(date, rule.hour, rule.minute, rule.zone);
      if (instant > afterMs) return new Date(instant);
    }
    day++;
  }
  throw new ScheduleError(`This schedule has no run in the next ${HORIZON_YEARS} years`);
}
