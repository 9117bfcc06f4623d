/**
 * schedule_info.rrule (issue 46): the RFC 5545 recurrence that gives exactly the runs the
 * next-run engine gives, or null where one RRULE cannot say them.
 *
 * The text is two content lines joined by "\n": DTSTART, the first run (with TZID, its local
 * time in the schedule's zone, or in UTC with "Z"), then RRULE. RFC 5545 reads a local time
 * that occurs twice as the first, and one in a DST gap with the offset before the gap, as
 * zoned-time.ts does, so daily to yearly schedules always have one. Hourly and minutely series
 * differ: the engine runs a wall time that occurs twice at both instants, RFC 5545 once. Such a
 * series gets an RRULE in UTC (FREQ=HOURLY/MINUTELY) when it runs around the clock at a pace
 * the zone's offsets all keep; one whose times of day never fall in a repeated hour gets the
 * local form; any other gets null. So does a shape RFC 5545 has no word for (docs/schedules.md).
 */
import { civilDate, parseDate, weekdayOf } from './calendar.js';
import { type ScheduleInfo, SUB_DAILY_KINDS } from './types.js';
import { localToInstant, type Zone, zoneOf } from './zoned-time.js';

const MINUTE_MS = 60_000;
const DAY_MINUTES = 24 * 60;
const DAY_CODES = ['SU', 'MO', 'TU', 'WE', 'TH', 'FR', 'SA'];

/** The times of day as RRULE's BYHOUR x BYMINUTE grid, and the points of it that run. */
interface Grid {
  hours: number[];
  minutes: number[];
  /** How many points the grid has. */
  size: number;
  /** 1-based points of the day's grid (by hour, then minute) that run, or null when every one does. */
  points: number[] | null;
}

const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

function gridOf(times: readonly number[]): Grid {
  // One time of day, most schedules: no sets to make (the preview's budget, docs/performance.md).
  if (times.length === 1) {
    const t = times[0] as number;
    return { hours: [Math.floor(t / 60)], minutes: [t % 60], size: 1, points: null };
  }
  const hours = [...new Set(times.map((t) => Math.floor(t / 60)))].sort((a, b) => a - b);
  const minutes = [...new Set(times.map((t) => t % 60))].sort((a, b) => a - b);
  const size = hours.length * minutes.length;
  if (size === times.length) return { hours, minutes, size, points: null };
  const points = times.map((t) => hours.indexOf(Math.floor(t / 60)) * minutes.length + minutes.indexOf(t % 60) + 1);
  return { hours, minutes, size, points: points.sort((a, b) => a - b) };
}

/** RFC 5545 allows BYSETPOS 1..366 and -366..-1; past a hundred the RRULE says little a person reads. */
const MAX_POSITION = 366;
const MAX_POSITIONS = 100;

/**
 * BYSETPOS of the points of a period's set of `size` (1-based, ascending), or null when RFC 5545
 * cannot say them: one past 366 is counted from the end instead (-1 the last).
 */
function setPos(points: readonly number[], size: number): string | null {
  if (points.length > MAX_POSITIONS) return null;
  const said = points.map((p) => (p > MAX_POSITION ? p - size - 1 : p));
  if (said.some((p) => p < -MAX_POSITION)) return null;
  return `BYSETPOS=${[...said.filter((p) => p > 0), ...said.filter((p) => p < 0)].join(',')}`;
}

/** BYSETPOS within a day of the grid's points; none when every point runs. */
const daySetPos = (grid: Grid): string[] | null => {
  if (grid.points === null) return [];
  const part = setPos(grid.points, grid.size);
  return part === null ? null : [part];
};

const pad = (n: number, width = 2): string => String(n).padStart(width, '0');

/** 'YYYYMMDDTHHMMSS' of a wall time held as UTC fields. */
function basic(wall: number): string {
  const d = new Date(wall);
  const date = `${pad(d.getUTCFullYear(), 4)}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`;
  return `${date}T${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}`;
}

const utc = (instant: number): string => `${basic(instant)}Z`;

/**
 * DTSTART in the zone: the first run's wall time as the rule writes it. A run moved past a DST
 * gap (02:30 that is 03:30) keeps the 02:30 it was read from, so DTSTART is one of the rule's
 * times, as RFC 5545 wants; null if neither reading is (not expected). `times` ascending.
 */
function localStart(first: number, zone: Zone, times: readonly number[]): string | null {
  for (let k = 0; k < 2; k++) {
    // The offset at the run, else the one before a gap the run was moved past.
    const wall = first + zone.offset(k === 0 ? first : first - DAY_MINUTES * MINUTE_MS) * MINUTE_MS;
    let minute = Math.floor(wall / MINUTE_MS) % DAY_MINUTES;
    if (!times.includes(minute)) continue;
    // RFC 5545 engines expand from DTSTART in local time: a time before it that a DST gap moved
    // after it (02:30 at 03:30, after 03:00) must not be left behind, so it is DTSTART instead.
    const day = Math.floor(wall / (DAY_MINUTES * MINUTE_MS));
    const date = civilDate(day);
    const earlier = times.find((t) => t < minute && localToInstant(date, Math.floor(t / 60), t % 60, zone) >= first);
    if (earlier !== undefined) minute = earlier;
    const local = `${pad(date.year, 4)}${pad(date.month)}${pad(date.day)}T${pad(Math.floor(minute / 60))}${pad(minute % 60)}00`;
    return zone.name === 'UTC' ? `DTSTART:${local}Z` : `DTSTART;TZID=${zone.name}:${local}`;
  }
  return null;
}

/** The BY parts of the days: BYMONTH, BYMONTHDAY, BYDAY ("1MO" with weeks_of_month). */
function dayParts(info: ScheduleInfo): string[] {
  const parts: string[] = [];
  if (info.months_of_year) parts.push(`BYMONTH=${info.months_of_year.join(',')}`);
  if (info.days_of_month) parts.push(`BYMONTHDAY=${info.days_of_month.join(',')}`);
  const days = info.days_of_week?.map((d) => DAY_CODES[d] as string);
  if (days && info.weeks_of_month) {
    const weeks = info.weeks_of_month;
    parts.push(`BYDAY=${days.flatMap((d) => weeks.map((w) => `${w}${d}`)).join(',')}`);
  } else if (days) parts.push(`BYDAY=${days.join(',')}`);
  return parts;
}

function timeParts(grid: Grid): string[] {
  return [`BYHOUR=${grid.hours.join(',')}`, `BYMINUTE=${grid.minutes.join(',')}`, 'BYSECOND=0'];
}

/**
 * BYSETPOS over a month of working days at several times: each chosen day (set_positions) at
 * each of its times (the grid's points), counted through the month's days x grid.
 */
function monthSetPos(setPositions: readonly number[], grid: Grid): string | null {
  const inDay = grid.points ?? Array.from({ length: grid.size }, (_, k) => k + 1);
  const out = setPositions.flatMap((p) => inDay.map((i) => (p > 0 ? (p - 1) * grid.size + i : p * grid.size + i - 1)));
  if (out.length > MAX_POSITIONS || out.some((p) => Math.abs(p) > MAX_POSITION)) return null;
  return `BYSETPOS=${[...out.filter((p) => p > 0).sort((a, b) => a - b), ...out.filter((p) => p < 0).sort((a, b) => a - b)].join(',')}`;
}

type Freq = 'DAILY' | 'WEEKLY' | 'MONTHLY' | 'YEARLY';

/**
 * The FREQ that repeats the schedule's period, or null. INTERVAL counts periods from DTSTART's,
 * as the engine counts them from anchor_date's (DTSTART is on it); weeks from Monday, as ISO's.
 * With interval 1 the period only decides what the BY parts expand, so a finer or coarser one
 * that allows them is taken: RFC 5545 has no BYMONTHDAY in WEEKLY, numbered BYDAY only in
 * MONTHLY and YEARLY, and BYSETPOS counts within the period (a day for several times of day,
 * a month for working days).
 */
function freqOf(info: ScheduleInfo, grid: Grid): Freq | null {
  const byMonth = info.weeks_of_month !== null || info.set_positions !== undefined;
  const byDay = grid.points !== null && info.set_positions === undefined;
  if (byMonth && byDay) return null;
  const n = info.interval;
  switch (info.schedule_type) {
    case 'daily':
      return byMonth ? (n === 1 ? 'MONTHLY' : null) : 'DAILY';
    case 'weekly':
      if (n === 1) return byMonth ? 'MONTHLY' : byDay || info.days_of_month ? 'DAILY' : 'WEEKLY';
      return byMonth || byDay || info.days_of_month ? null : 'WEEKLY';
    case 'monthly':
      if (byDay) return n === 1 ? 'DAILY' : null;
      return 'MONTHLY';
    case 'yearly':
      if (byDay) return n === 1 ? 'DAILY' : null;
      if (n === 1) return info.set_positions ? 'MONTHLY' : 'YEARLY';
      // BYSETPOS in YEARLY counts through the year: one month's working days only.
      return info.set_positions && (info.months_of_year?.length ?? 0) > 1 ? null : 'YEARLY';
    default:
      return null;
  }
}

/** Daily to yearly, and once: the schedule's times of day on the days its fields allow. */
function calendarRule(info: ScheduleInfo, first: number, zone: Zone): string | null {
  const times = (info.schedule_times ?? [info.schedule_time]).map(minutesOf);
  const grid = gridOf(times);
  const start = localStart(first, zone, times);
  if (start === null) return null;
  if (info.schedule_type === 'once') {
    // One date: every time of it after DTSTART, to the latest of them (a time in a DST gap can
    // be the latest though not the last written).
    const date = parseDate(info.anchor_date ?? '');
    if (date === null) return null;
    let last = Math.max(...times.map((t) => localToInstant(date, Math.floor(t / 60), t % 60, zone)));
    if (info.until !== undefined) last = Math.min(last, Date.parse(info.until));
    const setPos = daySetPos(grid);
    if (setPos === null) return null;
    return `${start}\nRRULE:${['FREQ=DAILY', `UNTIL=${utc(last)}`, ...timeParts(grid), ...setPos].join(';')}`;
  }
  const freq = freqOf(info, grid);
  if (freq === null) return null;
  const parts = [`FREQ=${freq}`];
  if (info.interval > 1) parts.push(`INTERVAL=${info.interval}`);
  if (info.until !== undefined) parts.push(`UNTIL=${utc(Date.parse(info.until))}`);
  parts.push(...dayParts(info), ...timeParts(grid));
  const setPos = info.set_positions ? [monthSetPos(info.set_positions, grid)] : daySetPos(grid);
  if (setPos === null || setPos.includes(null)) return null;
  parts.push(...(setPos as string[]));
  if (freq === 'WEEKLY' && info.interval > 1) parts.push('WKST=MO');
  return `${start}\nRRULE:${parts.join(';')}`;
}

/** What an hourly or minutely series needs to know of its zone over the year of its first run. */
interface ZoneYear {
  /** Every offset in force, in minutes. */
  offsets: number[];
  /** Local wall times that occur twice: minute of the day they start at, how many, weekday. */
  repeated: Array<{ from: number; length: number; weekday: number }>;
}

/** Per zone, per UTC year; bounded (a few zones and years per process). */
const zoneYears = new Map<string, Map<number, ZoneYear>>();
const MAX_ZONES = 1_000;
const WEEK_MS = 7 * DAY_MINUTES * MINUTE_MS;

/**
 * The zone's offsets and repeated hours from the start of `year` to the end of the next: a
 * weekly look at the offset (no zone changes it twice in a week), each change found to the
 * minute. Rules repeat yearly, so these are the series' whole future as far as tzdata knows it.
 */
function zoneYear(zone: Zone, year: number): ZoneYear {
  const known = zoneYears.get(zone.name)?.get(year);
  if (known) return known;
  const offsets = new Set<number>();
  const repeated: ZoneYear['repeated'] = [];
  const end = Date.UTC(year + 2, 0, 1);
  let at = Date.UTC(year, 0, 1);
  let offset = zone.offset(at);
  offsets.add(offset);
  while (at < end) {
    const next = at + WEEK_MS;
    const after = zone.offset(next);
    if (after !== offset) {
      offsets.add(after);
      if (after < offset) {
        const change = changeBetween(zone, at, next, after);
        const wall = change / MINUTE_MS + after;
        repeated.push({
          from: ((wall % DAY_MINUTES) + DAY_MINUTES) % DAY_MINUTES,
          length: offset - after,
          weekday: weekdayOf(Math.floor(wall / DAY_MINUTES)),
        });
      }
    }
    at = next;
    offset = after;
  }
  if (zoneYears.size >= MAX_ZONES) zoneYears.clear();
  const found = { offsets: [...offsets], repeated };
  let years = zoneYears.get(zone.name);
  if (!years) {
    years = new Map();
    zoneYears.set(zone.name, years);
  }
  // A few years per zone at most: a process lives through one or two.
  if (years.size >= 10) years.clear();
  years.set(year, found);
  return found;
}

/** The first minute in (lo, hi] whose offset is `to`; lo's is another. */
function changeBetween(zone: Zone, lo: number, hi: number, to: number): number {
  let [a, b] = [lo, hi];
  while (b - a > MINUTE_MS) {
    const mid = a + Math.floor((b - a) / 2 / MINUTE_MS) * MINUTE_MS;
    if (zone.offset(mid) === to) b = mid;
    else a = mid;
  }
  return b;
}

/** A series' pace and bounds in minutes since midnight (next-run.ts readSeries). */
interface Series {
  start: number;
  end: number;
  step: number;
  wraps: boolean;
  /** Every step of the day, from the first (before `step`) to the last before midnight. */
  aroundTheClock: boolean;
}

function seriesOf(info: ScheduleInfo): Series {
  const step = info.schedule_type === 'hourly' ? info.interval * 60 : info.interval;
  const start = minutesOf(info.schedule_time);
  const end = info.end_time == null ? DAY_MINUTES - 1 : minutesOf(info.end_time);
  const aroundTheClock = end >= start && DAY_MINUTES % step === 0 && start < step && end >= DAY_MINUTES - step + start;
  return { start, end, step, wraps: end < start, aroundTheClock };
}

/** The series' wall times of a day, ascending: across midnight, the small hours and the evening. */
function seriesTimes({ start, end, step, wraps }: Series): number[] {
  const times: number[] = [];
  if (!wraps) {
    for (let m = start; m <= end; m += step) times.push(m);
    return times;
  }
  let m = start;
  for (; m < DAY_MINUTES; m += step) times.push(m);
  for (m -= DAY_MINUTES; m <= end; m += step) times.push(m);
  return times.sort((a, b) => a - b);
}

/** Whether a repeated hour can meet a run: a run time of day in it, on a weekday the series runs. */
function meetsRepeatedHour(info: ScheduleInfo, times: readonly number[], year: ZoneYear): boolean {
  // Only a plain list of weekdays is worth reading: other day fields move the dates by year.
  const onlyWeekdays = info.days_of_month === null && info.weeks_of_month === null && info.months_of_year === null;
  return year.repeated.some(({ from, length, weekday }) => {
    if (onlyWeekdays && info.days_of_week) {
      // A repeated range that crosses midnight has wall times on two dates.
      const days = from + length > DAY_MINUTES ? [weekday, (weekday + 1) % 7] : [weekday];
      if (!days.some((d) => info.days_of_week?.includes(d))) return false;
    }
    return times.some((t) => {
      const into = (((t - from) % DAY_MINUTES) + DAY_MINUTES) % DAY_MINUTES;
      return into < length;
    });
  });
}

function subDailyRule(info: ScheduleInfo, first: number, zone: Zone): string | null {
  const series = seriesOf(info);
  const { step, wraps } = series;
  const anyDays =
    info.days_of_week === null && info.days_of_month === null && info.weeks_of_month === null && info.months_of_year === null;
  const year = zoneYear(zone, new Date(first).getUTCFullYear());
  const until = info.until === undefined ? [] : [`UNTIL=${utc(Date.parse(info.until))}`];
  // Around the clock at a pace every offset keeps: the same instants as a series in UTC, the
  // repeated hour's runs included, where RFC 5545's local times would run it once.
  if (
    anyDays &&
    series.aroundTheClock &&
    year.offsets.every((o) => (((o - (year.offsets[0] as number)) % step) + step) % step === 0)
  ) {
    const [freq, n] = step % 60 === 0 ? ['FREQ=HOURLY', step / 60] : ['FREQ=MINUTELY', step];
    const interval = n > 1 ? [`INTERVAL=${n}`] : [];
    return `DTSTART:${utc(first)}\nRRULE:${[freq, ...interval, ...until].join(';')}`;
  }
  // A window across midnight belongs to the day it starts on: one RRULE says it only every day.
  if (wraps && !anyDays) return null;
  const times = seriesTimes(series);
  if (meetsRepeatedHour(info, times, year)) return null;
  const grid = gridOf(times);
  // Numbered weekdays need a month to count in; BYSETPOS would then count through it.
  if (info.weeks_of_month !== null && grid.points) return null;
  const start = localStart(first, zone, times);
  if (start === null) return null;
  const freq = info.weeks_of_month === null ? 'FREQ=DAILY' : 'FREQ=MONTHLY';
  const setPos = daySetPos(grid);
  if (setPos === null) return null;
  return `${start}\nRRULE:${[freq, ...until, ...dayParts(info), ...timeParts(grid), ...setPos].join(';')}`;
}

/**
 * The schedule's RRULE given its first run (next_run_at when it was read), or null. DTSTART is
 * that run, so the rule's occurrences are exactly the runs from it on.
 */
export function rruleOf(info: ScheduleInfo, first: Date): string | null {
  const zone = zoneOf(info.timezone);
  const at = first.getTime();
  return SUB_DAILY_KINDS.includes(info.schedule_type) ? subDailyRule(info, at, zone) : calendarRule(info, at, zone);
}
