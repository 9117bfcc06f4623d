import { isoSeconds } from '../domain/clock.js';
import { civilDate, formatDate } from './calendar.js';
import { readCron } from './cron.js';
import { quote, ScheduleError } from './errors.js';
import { readFamilies } from './families/index.js';
import type { StartMention } from './families/start-date.js';
import { rejectLeftovers } from './leftovers.js';
import { nextRunAt } from './next-run.js';
import { rejectBareDate } from './one-offs.js';
import { resolveRecurrence } from './resolve.js';
import { applyPeriod } from './time-of-day.js';
import { DEFAULT_TIMEZONE, resolveZone } from './timezones.js';
import { tokenize } from './tokens.js';
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
  const length = [...description].length;
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
 * With an interval over 1 the schedule is pinned to its first run after `now`, or on or after
 * the start date when the text gives one; later runs count whole intervals from that run's day,
 * week, month or year.
 */
function withAnchor(info: ScheduleInfo, now: Date, start: StartMention | null): ScheduleInfo {
  if (info.interval === 1) {
    // Interval-1 schedules have no anchor to keep a start date in: refused, not dropped.
    if (start) throw new ScheduleError(`A start date (${quote(start.text)}) needs an interval, e.g. "every 2 weeks"`);
    return info;
  }
  const zone = zoneOf(info.timezone);
  const from = start ? new Date(localToInstant(start.date, 0, 0, zone) - 1) : now;
  const first = nextRunAt({ ...info, interval: 1, anchor_date: null }, from);
  return { ...info, anchor_date: formatDate(civilDate(localDayNumber(first.getTime(), zone))) };
}

/**
 * Parses a natural-language recurrence. A time zone named in the text wins over
 * `options.timezone`, which must still be a valid zone when given.
 */
export function parseSchedule(description: string, options: ParseOptions = {}): ScheduleInfo {
  const text = checkDescription(description);
  const now = checkNow(options.now ?? new Date());
  // null counts as absent: JSON bodies carry a missing timezone as null.
  const fallbackZone = options.timezone == null ? DEFAULT_TIMEZONE : resolveZone(String(options.timezone));
  const cron = readCron(text);
  if (cron) {
    const time = `${pad2(cron.hour)}:${pad2(cron.minute)}`;
    return orderFields({ ...cron.recurrence, schedule_time: time, timezone: fallbackZone, anchor_date: null });
  }
  const tokens = tokenize(text);
  correctTypos(tokens);
  const facts = readFamilies(tokens, text);
  rejectLeftovers(tokens, text, now);
  const recurrence = resolveRecurrence(facts, facts.period?.daily ?? false, text);
  // After resolving, so an impossible date ("the 31st of April") is called that first.
  rejectBareDate(tokens, facts, text);
  const { hour, minute } = applyPeriod(facts.time, facts.period);
  const info: ScheduleInfo = {
    ...recurrence,
    schedule_time: `${pad2(hour)}:${pad2(minute)}`,
    timezone: facts.zone?.zone ?? fallbackZone,
    anchor_date: null,
  };
  return withAnchor(orderFields(info), now, facts.start);
}

/** Fixed key order, so stored and returned JSON always reads the same way. */
function orderFields(info: ScheduleInfo): ScheduleInfo {
  return {
    schedule_type: info.schedule_type,
    schedule_time: info.schedule_time,
    days_of_week: info.days_of_week,
    days_of_month: info.days_of_month,
    weeks_of_month: info.weeks_of_month,
    months_of_year: info.months_of_year,
    interval: info.interval,
    timezone: info.timezone,
    anchor_date: info.anchor_date,
  };
}

export function describeSchedule(description: string, options: DescribeOptions): ScheduleDescription {
  const now = checkNow(options?.now);
  const info = parseSchedule(description, { ...options, now });
  return { schedule_info: info, next_run_at: isoSeconds(nextRunAt(info, now)) };
}
