/**
 * Cron expressions given as the description: a 5-field cron ("0 9 * * 1-5") or an EventBridge
 * cron(...) with 6 fields ("cron(0 9 ? * MON-FRI *)"), mapped to the schedule_info the same
 * words would give ("every weekday at 9am", "every 4 hours" for "0 *\/4 * * *", "at 9am and 5pm"
 * for "0 9,17 * * *"), and refused where schedule_info cannot hold them: lists with steps, minute steps that do not
 * divide the hour, steps in the day fields, day-of-month and day-of-week both set (cron runs on
 * either, schedule_info needs both), years. EventBridge rate(N hours / minutes) is every N hours
 * / minutes from midnight, and rate(N days) every N days at midnight (issue 46).
 */
import { quote, ScheduleError } from './errors.js';
import { checkSubDailyInterval, hhmm } from './families/sub-daily.js';
import type { Recurrence } from './resolve.js';
import type { ScheduleKind } from './types.js';
import { MAX_INTERVAL } from './vocabulary.js';

export interface CronReading {
  recurrence: Recurrence;
  hour: number;
  minute: number;
  /** Hourly and minutely readings only: the last run of the day ('HH:MM'), or null. */
  endTime?: string | null;
  /** Lists of minutes or hours ("0 9,17 * * 1-5"): every time of day, 'HH:MM', ascending (issue 46). */
  times?: string[];
}

/** Most times of day a cron list may name: more is a step ("*\/30 9-17") said another way. */
const MAX_LISTED_TIMES = 48;

/**
 * "0 9,17", "30 8,12,16", "0,30 9": lists (and ranges) of plain minutes and hours, each minute
 * at each hour, as several times of day. Null when a field has a step or "*".
 */
function timeList(minuteF: string, hourF: string): string[] | null {
  if (!/^[\d,-]+$/.test(minuteF) || !/^[\d,-]+$/.test(hourF)) return null;
  const minutes = list(minuteF, 0, 59, null, 0);
  const hours = list(hourF, 0, 23, null, 0);
  if (!minutes || !hours || minutes.length * hours.length > MAX_LISTED_TIMES) return null;
  return hours.flatMap((h) => minutes.map((m) => hhmm(h * 60 + m)));
}

/** The values a minute or hour field takes: start, start + step, ... up to end. */
interface Sequence {
  start: number;
  step: number;
  end: number;
}

const MONTH_NAMES = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];
const DAY_NAMES = ['SUN', 'MON', 'TUE', 'WED', 'THU', 'FRI', 'SAT'];

const FIVE_FIELDS = /^\s*(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s*$/;
const EVENTBRIDGE = /^\s*cron\(\s*(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s+(\S+)\s*\)\s*$/i;
const RATE = /^\s*rate\(\s*(\d+)\s+([a-z]+)\s*\)\s*$/i;
/** Only cron's own characters: a description such as "every day at 9 am" is not a cron. */
const CRON_FIELD = /^[\d*?,\-/#LW]+$|^[A-Za-z]{3}([,-][A-Za-z]{3})*$|^[A-Za-z]{3}#[1-5]$/;

function refuse(expression: string, why: string): ScheduleError {
  return new ScheduleError(`The cron expression ${quote(expression.trim())} is not supported: ${why}`);
}

/** One number in range, or a name ("MON", "JAN") mapped to its number. */
function value(part: string, min: number, max: number, names: string[] | null, nameBase: number): number | null {
  if (/^\d+$/.test(part)) {
    const n = Number(part);
    return n >= min && n <= max ? n : null;
  }
  const k = names?.indexOf(part.toUpperCase()) ?? -1;
  return k >= 0 ? k + nameBase : null;
}

/** "*" -> null; "1,15", "1-5", "MON-FRI" -> sorted values; anything else -> undefined. */
function list(field: string, min: number, max: number, names: string[] | null, nameBase: number): number[] | null | undefined {
  if (field === '*' || field === '?') return null;
  const out = new Set<number>();
  for (const part of field.split(',')) {
    const [a, b, ...rest] = part.split('-');
    if (rest.length > 0 || a === undefined) return undefined;
    const from = value(a, min, max, names, nameBase);
    const to = b === undefined ? from : value(b, min, max, names, nameBase);
    if (from === null || to === null || to < from) return undefined;
    for (let v = from; v <= to; v++) out.add(v);
  }
  return [...out].sort((x, y) => x - y);
}

/** "*", "5", "*\/15", "5/15", "8-20", "8-20/3" -> the sequence; lists and anything else -> null. */
function sequence(field: string, max: number): Sequence | null {
  const m = /^(\*|\d{1,2})(?:-(\d{1,2}))?(?:\/(\d{1,2}))?$/.exec(field);
  if (!m || (m[1] === '*' && m[2] !== undefined)) return null;
  const start = m[1] === '*' ? 0 : Number(m[1]);
  const step = m[3] === undefined ? 1 : Number(m[3]);
  // "5" alone is one value; "5/15" runs from 5 to the end of the range.
  const end = m[2] !== undefined ? Number(m[2]) : m[1] === '*' || m[3] !== undefined ? max : start;
  if (start > max || end > max || end < start || step < 1) return null;
  return { start, step, end };
}

const last = (s: Sequence): number => s.start + Math.floor((s.end - s.start) / s.step) * s.step;

/**
 * Several runs a day: an hour sequence at one minute is hourly; a minute sequence that keeps
 * its pace across the hour (a step dividing 60, from the first step of the hour to its end) in
 * one hour, a range of hours or every hour is minutely.
 */
function subDaily(
  expression: string,
  minutes: Sequence,
  hours: Sequence,
): Omit<CronReading, 'recurrence'> & { kind: 'hourly' | 'minutely'; interval: number } {
  const phrase = expression.trim();
  if (minutes.start === minutes.end) {
    const everyHour = hours.start === 0 && hours.end === 23 && 24 % hours.step === 0;
    checkSubDailyInterval('hour', hours.step, phrase, !everyHour);
    const endTime = everyHour ? null : hhmm(last(hours) * 60 + minutes.start);
    return { kind: 'hourly', interval: hours.step, hour: hours.start, minute: minutes.start, endTime };
  }
  const paced = 60 % minutes.step === 0 && minutes.start < minutes.step && last(minutes) === 60 - minutes.step + minutes.start;
  if (!paced) {
    throw refuse(
      expression,
      `the minutes ${quote(`${minutes.start}-${minutes.end}/${minutes.step}`)} do not keep one pace across the hour`,
    );
  }
  if (hours.step !== 1) throw refuse(expression, 'steps in both the minute and the hour fields');
  const everyHour = hours.start === 0 && hours.end === 23;
  checkSubDailyInterval('minute', minutes.step, phrase, !everyHour);
  const endTime = everyHour && minutes.start === 0 ? null : hhmm(hours.end * 60 + last(minutes));
  return { kind: 'minutely', interval: minutes.step, hour: hours.start, minute: minutes.start, endTime };
}

/** rate(N hours) / rate(N minutes): every N hours / minutes from midnight, like "every N hours". */
function readRate(description: string, count: number, unit: string): CronReading {
  const what = `The rate expression ${quote(description.trim())} is not supported`;
  if (/^(second|seconds)$/.test(unit)) throw new ScheduleError(`${what}: nothing runs more often than once a minute`);
  if (/^(day|days)$/.test(unit)) return readRateDays(description, count);
  if (!/^(minute|minutes|hour|hours)$/.test(unit)) {
    throw new ScheduleError(`${what}: rate() takes minutes, hours or days`);
  }
  const hourly = unit.startsWith('hour');
  checkSubDailyInterval(hourly ? 'hour' : 'minute', count, description.trim(), false, `every ${count} ${unit}`);
  return {
    recurrence: {
      days_of_week: null,
      days_of_month: null,
      weeks_of_month: null,
      months_of_year: null,
      schedule_type: hourly ? 'hourly' : 'minutely',
      interval: count,
    },
    hour: 0,
    minute: 0,
    endTime: null,
  };
}

/**
 * rate(1 day), rate(3 days) (issue 46): every N days at midnight, as rate(N hours) runs from
 * midnight (EventBridge counts from when the rule was created; on the clock is the reading that
 * survives a redeploy). The read-back says "at 00:00": say "every day at 9am" for another time.
 */
function readRateDays(description: string, count: number): CronReading {
  if (count < 1 || count > MAX_INTERVAL.day) {
    throw new ScheduleError(`The rate expression ${quote(description.trim())} is not supported (days: 1 to ${MAX_INTERVAL.day})`);
  }
  return {
    recurrence: {
      days_of_week: null,
      days_of_month: null,
      weeks_of_month: null,
      months_of_year: null,
      schedule_type: 'daily',
      interval: count,
    },
    hour: 0,
    minute: 0,
  };
}

/** Reads a cron expression, or returns null when the description is not one. */
export function readCron(description: string): CronReading | null {
  const rate = RATE.exec(description);
  if (rate) return readRate(description, Number(rate[1]), (rate[2] ?? '').toLowerCase());
  const eb = EVENTBRIDGE.exec(description);
  const five = eb ? null : FIVE_FIELDS.exec(description);
  const fields = eb ? eb.slice(1) : five?.slice(1);
  if (!fields?.every((f) => CRON_FIELD.test(f))) return null;
  const [minuteF, hourF, domF, monthF, dowF, yearF] = fields as [string, string, string, string, string, string?];
  // Only digits and cron symbols in the first two fields: otherwise it is words, not a cron.
  if (!/^[\d*,\-/]+$/.test(minuteF) || !/^[\d*,\-/]+$/.test(hourF)) return null;
  if (yearF !== undefined && yearF !== '*') throw refuse(description, 'the year field must be "*"');
  const outOfRange = (f: string, max: number) => /^\d+$/.test(f) && Number(f) > max;
  if (outOfRange(minuteF, 59) || outOfRange(hourF, 23)) {
    throw refuse(description, `minute ${quote(minuteF)} or hour ${quote(hourF)} is out of range (0-59, 0-23)`);
  }
  const minutes = sequence(minuteF, 59);
  const hours = sequence(hourF, 23);
  const times = minutes && hours ? null : timeList(minuteF, hourF);
  if (times) return { ...readDays(description, eb !== null, domF, monthF, dowF), ...firstOf(times), times };
  if (!minutes || !hours) {
    backwardsHours(description, fields, eb !== null);
    const why = 'it runs more than once a day at times schedule_info cannot hold (a list with a step or "*")';
    throw refuse(description, `${why}; say e.g. "0 9,17 * * *" or "0 */4 * * *"`);
  }
  const once = minutes.start === minutes.end && hours.start === hours.end;
  const several = once ? null : subDaily(description, minutes, hours);
  const { recurrence } = readDays(description, eb !== null, domF, monthF, dowF);
  if (!several) return { recurrence, hour: hours.start, minute: minutes.start };
  // The day fields only pick the days: any days_of_week / days_of_month shape is fine.
  const { kind, interval, ...time } = several;
  return { recurrence: { ...recurrence, schedule_type: kind, interval }, ...time };
}

/**
 * An hour range that goes backwards ("0 22-2 * * *"): cron reads ranges upwards only, so most
 * crons refuse it and the rest disagree. Refused, with the range split at midnight, which this
 * reads ("0 22-23,0-2 * * *"), and the words for a window when it runs every day.
 */
function backwardsHours(description: string, fields: readonly string[], eventBridge: boolean): void {
  const [minuteF, hourF, ...days] = fields as [string, string, ...string[]];
  const range = /^(\d{1,2})-(\d{1,2})$/.exec(hourF);
  const [from, to] = [Number(range?.[1]), Number(range?.[2])];
  if (!range || !(from > to) || from > 23) return;
  const split = [minuteF, `${from}-23,0-${to}`, ...days].join(' ');
  const splitText = eventBridge ? `cron(${split})` : split;
  const minute = /^\d{1,2}$/.test(minuteF) ? Number(minuteF) : null;
  const everyDay = days.every((d) => d === '*' || d === '?');
  const words =
    minute !== null && minute <= 59 && everyDay
      ? `, or say ${quote(`every hour between ${hhmm(from * 60 + minute)} and ${hhmm(to * 60 + minute)}`)}`
      : '';
  const why = `the hour range ${quote(hourF)} goes backwards across midnight, which cron does not allow`;
  if (minute !== null) throw refuse(description, `${why}; write ${quote(splitText)}${words}`);
  // With a minute step the split is a list with a step, which is not read: a window says it
  // (its small hours belong to the evening before: the same runs when it runs every day).
  const step = minuteF === '*' ? 1 : Number(/^(?:\*|0)\/(\d{1,2})$/.exec(minuteF)?.[1]);
  const window =
    step >= 1 && 60 % step === 0
      ? `every ${step === 1 ? 'minute' : `${step} minutes`} between ${hhmm(from * 60)} and ${hhmm(to * 60 + 60 - step)}`
      : 'every 30 minutes between 22:00 and 02:30';
  throw refuse(description, `${why}; say it as a window, e.g. ${quote(window)}`);
}

const firstOf = (times: string[]): { hour: number; minute: number } => {
  const [h, m] = (times[0] as string).split(':');
  return { hour: Number(h), minute: Number(m) };
};

/** The three day fields: the days the cron runs on. */
function readDays(
  description: string,
  eventBridge: boolean,
  domF: string,
  monthF: string,
  dowF: string,
): { recurrence: Recurrence } {
  const months = list(monthF, 1, 12, MONTH_NAMES, 1);
  if (months === undefined) throw refuse(description, `month field ${quote(monthF)} (lists and ranges only, no steps)`);
  const dom = domF === 'L' ? [-1] : list(domF, 1, 31, null, 0);
  if (dom === undefined) throw refuse(description, `day-of-month field ${quote(domF)} (lists, ranges or L only, no steps or W)`);
  const dow = readDayOfWeek(dowF, eventBridge, description);
  if (dom && dow) {
    throw refuse(description, 'cron runs when either the day of the month or the weekday matches; schedule_info needs both');
  }
  return { recurrence: toRecurrence(dom, dow, months) };
}

interface DayOfWeek {
  days: number[];
  weeks: number[] | null;
}

/** Standard cron: 0-7 with 0 and 7 Sunday. EventBridge: 1-7 with 1 Sunday, and "MON#2" for nth. */
function readDayOfWeek(field: string, eventBridge: boolean, expression: string): DayOfWeek | null {
  const nth = /^([A-Za-z]{3}|\d)#([1-5])$/.exec(field);
  if (nth) {
    const day = eventBridge ? value(nth[1] as string, 1, 7, DAY_NAMES, 1) : value(nth[1] as string, 0, 7, DAY_NAMES, 0);
    if (day === null) throw refuse(expression, `day-of-week field ${quote(field)}`);
    return { days: [eventBridge ? day - 1 : day % 7], weeks: [Number(nth[2])] };
  }
  const days = eventBridge ? list(field, 1, 7, DAY_NAMES, 1) : list(field, 0, 7, DAY_NAMES, 0);
  if (days === undefined) throw refuse(expression, `day-of-week field ${quote(field)} (lists, ranges or DAY#n only)`);
  if (days === null) return null;
  const zeroBased = days.map((d) => (eventBridge ? d - 1 : d % 7));
  return { days: [...new Set(zeroBased)].sort((a, b) => a - b), weeks: null };
}

/**
 * No day field set, in the months given, schedule_type last: toRecurrence's literals only replace
 * keys of it, and add none after their spread (slow in Node 20: withFields in parse.ts).
 */
function noDays(schedule_type: ScheduleKind, months: number[] | null): Recurrence {
  return { days_of_week: null, days_of_month: null, weeks_of_month: null, months_of_year: months, interval: 1, schedule_type };
}

function toRecurrence(dom: number[] | null, dow: DayOfWeek | null, months: number[] | null): Recurrence {
  const byMonth = months ? 'yearly' : 'monthly';
  if (dow?.weeks) return { ...noDays(byMonth, months), days_of_week: dow.days, weeks_of_month: dow.weeks };
  if (dow) return { ...noDays('weekly', months), days_of_week: dow.days };
  if (dom) return { ...noDays(byMonth, months), days_of_month: dom };
  return noDays('daily', months);
}
