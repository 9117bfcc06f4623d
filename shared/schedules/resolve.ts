/**
 * Turns the facts read by the grammar into one recurrence, or explains why they do not fit
 * together. The rules, in order: a quarter, named months, days of the month or nth weekdays,
 * plain weekdays, then a bare unit ("weekly") or a daily part of the day ("every morning").
 */
import { contradiction, quote, ScheduleError } from './errors.js';
import { narrowDaily } from './families/frequency-words.js';
import type { DaySetMention, Facts, NthMention, UnitMention, ValueMention } from './families/index.js';
import { applyMonthExclusions, monthsLeft } from './families/month-exclusions.js';
import { weeksAsNth } from './families/weeks-of-month.js';
import type { ScheduleInfo, ScheduleKind } from './types.js';
import { MAX_DAYS_IN_MONTH, MONTH_NAMES } from './vocabulary.js';

export type Recurrence = Omit<ScheduleInfo, 'schedule_time' | 'timezone' | 'anchor_date'>;

interface Parts {
  unit: UnitMention | null;
  weekdays: DaySetMention | null;
  nth: NthMention | null;
  monthDays: number[] | null;
  monthDayText: string;
  months: number[] | null;
  monthText: string;
  onlyInMonths: boolean;
}

const QUARTER_FIRST_MONTHS = [1, 4, 7, 10];
const QUARTER_LAST_MONTHS = [3, 6, 9, 12];

/** Sort key: -1 ("last") after every day. */
const lastAtEnd = (v: number) => (v === -1 ? 99 : v);

/** Ascending, with -1 ("last") at the end. */
function sortDays(values: Iterable<number>): number[] {
  return [...new Set(values)].sort((a, b) => lastAtEnd(a) - lastAtEnd(b));
}

/**
 * A plain unit word agrees with a numbered one ("every 2 months on the 1st of the month"), and
 * "of the month" fits "every quarter"; anything else mentioning two repeat units contradicts.
 */
function singleUnit(units: UnitMention[]): UnitMention | null {
  let chosen: UnitMention | null = null;
  for (const u of units) {
    if (!chosen || (chosen.unit === 'month' && chosen.interval === 1 && u.unit === 'quarter')) chosen = u;
    else if (u.unit === 'month' && u.interval === 1 && chosen.unit === 'quarter') continue;
    else if (u.unit !== chosen.unit) throw contradiction(chosen.text, u.text);
    else if (chosen.interval === 1) chosen = u;
    else if (u.interval !== 1 && u.interval !== chosen.interval) throw contradiction(chosen.text, u.text);
  }
  return chosen;
}

/** Separate mentions narrow each other: "every weekday on Monday" is Monday. */
function intersectWeekdays(groups: DaySetMention[]): DaySetMention | null {
  const [first, ...rest] = groups;
  if (!first) return null;
  let days = first.days;
  for (const g of rest) {
    days = days.filter((d) => g.days.includes(d));
    if (days.length === 0) throw contradiction(first.text, g.text);
  }
  return { days, text: groups.map((g) => g.text).join(' ') };
}

const same = (a: number[], b: number[]) => a.length === b.length && a.every((v, k) => v === b[k]);

/** "first and third Monday" is one mention; "first Monday and third Wednesday" is not supported. */
function mergeNth(mentions: NthMention[]): NthMention | null {
  const [first, ...rest] = mentions;
  if (!first) return null;
  let merged = first;
  for (const m of rest) {
    // "first business day and first Monday": positions among working days and weeks of the month.
    if (Boolean(m.setPositions) !== Boolean(merged.setPositions)) {
      throw new ScheduleError(`${quote(merged.text)} and ${quote(m.text)} together are not supported`);
    }
    if (same(m.days, merged.days)) {
      merged = { ...merged, weeks: sortDays([...merged.weeks, ...m.weeks]), everyOrdinal: null };
    } else if (same(m.weeks, merged.weeks)) {
      merged = { ...merged, days: sortDays([...merged.days, ...m.days]), everyOrdinal: null };
    } else {
      const detail = `Different weekdays in different weeks (${quote(first.text)} and ${quote(m.text)}) are not supported`;
      throw new ScheduleError(detail);
    }
  }
  return merged;
}

function values(mentions: ValueMention[]): number[] | null {
  return mentions.length ? sortDays(mentions.map((m) => m.value)) : null;
}

function mentionText(mentions: ValueMention[]): string {
  // A range ("January through March") gives several values one token: quote it once.
  return [...new Set(mentions.map((m) => m.token))].map((t) => t.text).join(' ');
}

const ALL_WEEKDAYS = [0, 1, 2, 3, 4, 5, 6];

/**
 * "every day except Sunday", "weekdays but not Mondays": the excluded days come out of the
 * weekdays named, or out of the whole week after "every day" / "daily". Each excluded day must
 * be one of them, and at least one day must be left.
 */
function applyExclusions(facts: Facts, unit: UnitMention | null): DaySetMention | null {
  const named = intersectWeekdays(facts.weekdayGroups);
  const [first] = facts.excludedWeekdays;
  if (!first) return named;
  const excludedText = facts.excludedWeekdays.map((e) => e.text).join(' ');
  const everyDay = unit?.unit === 'day' && unit.interval === 1;
  if (!named && !everyDay) {
    const what = unit ? `, not ${quote(unit.text)}` : '';
    throw new ScheduleError(`${quote(excludedText)} needs days to take it from${what}: say e.g. "every day except Sunday"`);
  }
  const base = named ?? { days: ALL_WEEKDAYS, text: unit?.text ?? '' };
  let days = base.days;
  for (const e of facts.excludedWeekdays) {
    const missing = e.days.find((d) => !base.days.includes(d));
    if (missing !== undefined) throw contradiction(base.text, e.text);
    days = days.filter((d) => !e.days.includes(d));
  }
  if (days.length === 0) throw new ScheduleError(`${quote(`${base.text} ${excludedText}`)} leaves no day to run`);
  return { days, text: `${base.text} ${excludedText}` };
}

function gatherParts(given: Facts): Parts {
  const facts = narrowDaily(given);
  const unit = singleUnit(facts.units);
  const weekdays = applyExclusions(facts, unit);
  const weeks = weeksAsNth(facts.weeksOfMonth, weekdays);
  const parts: Parts = {
    unit,
    weekdays: weeks ? null : weekdays,
    nth: mergeNth(weeks ? [...facts.nth, weeks] : facts.nth),
    monthDays: values(facts.monthDays),
    monthDayText: mentionText(facts.monthDays),
    months:
      facts.excludedMonths.length && facts.months.length
        ? monthsLeft(values(facts.months) ?? [], mentionText(facts.months), facts)
        : values(facts.months),
    monthText: mentionText(facts.months),
    onlyInMonths: facts.onlyInMonths,
  };
  return reinterpretEveryOrdinal(parts);
}

/** "every second Tuesday" with no month, quarter or year around is every other Tuesday. */
function reinterpretEveryOrdinal(parts: Parts): Parts {
  const { nth, unit } = parts;
  if (!nth?.everyOrdinal || parts.months || (unit && unit.unit !== 'week')) return parts;
  if (unit && unit.interval !== 1) return parts;
  const weekUnit: UnitMention = { unit: 'week', interval: nth.everyOrdinal, text: nth.text };
  const own = { days: nth.days, text: nth.text };
  const weekdays = parts.weekdays ? intersectWeekdays([parts.weekdays, own]) : own;
  return { ...parts, nth: null, unit: weekUnit, weekdays };
}

function checkDayChoices(p: Parts): void {
  if (p.nth && p.weekdays) throw contradiction(p.nth.text, p.weekdays.text);
  if (p.nth && p.monthDays) throw contradiction(p.nth.text, p.monthDayText);
  if (p.weekdays && p.monthDays) throw contradiction(p.weekdays.text, p.monthDayText);
}

function requireUnit(p: Parts, allowed: UnitMention['unit'][], other: string): number {
  if (!p.unit) return 1;
  if (!allowed.includes(p.unit.unit)) throw contradiction(p.unit.text, other);
  return p.unit.interval;
}

type DayFields = Pick<Recurrence, 'days_of_week' | 'days_of_month' | 'weeks_of_month' | 'set_positions'>;

/**
 * A recurrence with the day fields given and the others null. Written out, not as a shared
 * all-null object spread first: Node 20's V8 adds each key that follows a leading spread in an
 * object literal through its runtime, ~1 µs a key.
 */
function recurrence(
  schedule_type: ScheduleKind,
  interval: number,
  days: Partial<DayFields>,
  months_of_year: number[] | null = null,
): Recurrence {
  const made: Recurrence = {
    days_of_week: days.days_of_week ?? null,
    days_of_month: days.days_of_month ?? null,
    weeks_of_month: days.weeks_of_month ?? null,
    months_of_year,
    schedule_type,
    interval,
  };
  if (days.set_positions) made.set_positions = days.set_positions;
  return made;
}

/** The day fields of a schedule picked by days of the month or by nth weekdays. */
function dayFields(p: Parts): DayFields {
  // "first business day" (issue 46): a position among the month's working days.
  if (p.nth?.setPositions)
    return { days_of_week: p.nth.days, days_of_month: null, weeks_of_month: null, set_positions: p.nth.weeks };
  if (p.nth) return { days_of_week: p.nth.days, days_of_month: null, weeks_of_month: p.nth.weeks };
  return { days_of_week: null, days_of_month: p.monthDays, weeks_of_month: null };
}

/** A quarter runs in its first month, or in its last one for "last day / last Friday". */
function quarterly(p: Parts): Recurrence {
  if (p.months) throw contradiction(p.unit?.text ?? '', p.monthText);
  if (p.weekdays) {
    throw new ScheduleError(`Say which ${quote(p.weekdays.text)} of the quarter, e.g. "first Monday of every quarter"`);
  }
  const days = p.nth || p.monthDays ? dayFields(p) : { ...dayFields(p), days_of_month: [1] };
  const marks = days.weeks_of_month ?? days.set_positions ?? days.days_of_month ?? [];
  const lastOnly = marks.every((v) => v === -1);
  if (!lastOnly && marks.includes(-1)) {
    const what = quote(p.nth?.text ?? p.monthDayText);
    throw new ScheduleError(`${what} mixes the first and last month of the quarter, which is not supported`);
  }
  const months_of_year = lastOnly ? QUARTER_LAST_MONTHS : QUARTER_FIRST_MONTHS;
  return recurrence('monthly', 1, days, months_of_year);
}

function checkDatesExist(p: Parts, months: number[]): void {
  const days = p.monthDays ?? [];
  if (months.length > 1 && days.length > 1) {
    const what = `${quote(p.monthDayText)} of ${quote(p.monthText)}`;
    throw new ScheduleError(`Several days in several months (${what}) are not supported`);
  }
  for (const m of months) {
    const impossible = days.find((d) => d > (MAX_DAYS_IN_MONTH[m] ?? 0));
    if (impossible) throw new ScheduleError(`${quote(`${MONTH_NAMES[m]} ${impossible}`)} is not a valid date`);
  }
}

/** Named months: a yearly date ("March 3"), or days restricted to months ("Mondays in June"). */
function withMonths(p: Parts, months: number[]): Recurrence {
  if (p.monthDays || p.nth) {
    checkDatesExist(p, months);
    const interval = requireUnit(p, ['year'], p.nth?.text ?? p.monthDayText);
    return recurrence('yearly', interval, dayFields(p), months);
  }
  if (p.weekdays) {
    const interval = p.unit?.unit === 'day' && p.unit.interval === 1 ? 1 : requireUnit(p, ['week'], p.weekdays.text);
    return recurrence('weekly', interval, { days_of_week: p.weekdays.days }, months);
  }
  if (p.unit?.unit === 'day') return recurrence('daily', p.unit.interval, {}, months);
  if (p.onlyInMonths && !p.unit) return recurrence('daily', 1, {}, months);
  throw new ScheduleError(`Say which day of ${quote(p.monthText)} to run, e.g. "${MONTH_NAMES[months[0] ?? 1]} 1"`);
}

function monthly(p: Parts): Recurrence {
  const what = p.nth?.text ?? p.monthDayText;
  if (p.unit?.unit === 'year') throw new ScheduleError(`Say which month ${quote(what)} is in, e.g. "every year on March 3"`);
  const interval = requireUnit(p, ['month'], what);
  return recurrence('monthly', interval, dayFields(p));
}

function weekly(p: Parts, days: DaySetMention): Recurrence {
  const unit = p.unit;
  const dailyNarrowed = unit?.unit === 'day' && unit.interval === 1;
  if (unit && (unit.unit === 'month' || unit.unit === 'year')) {
    throw new ScheduleError(`Say which ${quote(days.text)} of the ${unit.unit} to run, e.g. "first Monday of the month"`);
  }
  const interval = dailyNarrowed ? 1 : requireUnit(p, ['week'], days.text);
  return recurrence('weekly', interval, { days_of_week: days.days });
}

/** "daily", "every 2 weeks", "monthly", "yearly" with no day: the start of each period. */
function fromUnit(unit: UnitMention): Recurrence {
  switch (unit.unit) {
    case 'day':
      return recurrence('daily', unit.interval, {});
    case 'week':
      return recurrence('weekly', unit.interval, { days_of_week: [1] });
    case 'month':
      return recurrence('monthly', unit.interval, { days_of_month: [1] });
    default:
      return recurrence('yearly', unit.interval, { days_of_month: [1] }, [1]);
  }
}

export function resolveRecurrence(facts: Facts, dailyPeriod: boolean, description: string): Recurrence {
  // "every Monday except August": the schedule without the exclusion, then its months but those.
  if (facts.excludedMonths.length && !facts.months.length) {
    const r = resolveRecurrence({ ...facts, excludedMonths: [] }, dailyPeriod, description);
    return applyMonthExclusions(r, facts);
  }
  const p = gatherParts(facts);
  checkDayChoices(p);
  if (p.unit?.unit === 'quarter') return quarterly(p);
  if (p.months) return withMonths(p, p.months);
  if (p.monthDays || p.nth) return monthly(p);
  if (p.weekdays) return weekly(p, p.weekdays);
  if (p.unit) return fromUnit(p.unit);
  if (dailyPeriod) return fromUnit({ unit: 'day', interval: 1, text: '' });
  const hint = 'say e.g. "every day", "every Monday" or "on the 1st of every month"';
  throw new ScheduleError(`Could not tell how often to run ${quote(description.trim())}: ${hint}`);
}
