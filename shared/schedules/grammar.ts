/**
 * The recurrence grammar: a left-to-right scan over the tokens not yet claimed by the time and
 * time-zone readers. Each recogniser either claims a short run of tokens and records a fact, or
 * declines. Facts are only collected here; resolve.ts decides what they mean together.
 */
import { quote, ScheduleError } from './errors.js';
import { isWeekdaySlashList } from './timezones.js';
import { isWord, markUsed, spanText, type Token, unused } from './tokens.js';
import {
  CARDINAL_WORDS,
  MAX_INTERVAL,
  MONTHS,
  ORDINAL_TENS,
  ORDINAL_UNITS,
  ORDINAL_WORDS,
  SELF_CONTAINED_UNITS,
  SUB_DAILY_WORDS,
  UNIT_WORDS,
  type Unit,
  WEEKDAYS,
} from './vocabulary.js';

export interface UnitMention {
  unit: Unit;
  interval: number;
  text: string;
}

export interface DaySetMention {
  days: number[];
  text: string;
}

export interface NthMention {
  weeks: number[];
  days: number[];
  text: string;
  /** "every second Tuesday": without a month in sight it means every other Tuesday. */
  everyOrdinal: number | null;
}

export interface ValueMention {
  value: number;
  token: Token;
}

export interface Facts {
  units: UnitMention[];
  weekdayGroups: DaySetMention[];
  /** "except Sunday", "but not Mondays": weekdays taken out of the others. */
  excludedWeekdays: DaySetMention[];
  /** "only in March and April" (cron descriptions): with no day named, every day of them. */
  onlyInMonths: boolean;
  nth: NthMention[];
  monthDays: ValueMention[];
  months: ValueMention[];
}

interface Scan {
  free: Token[];
  description: string;
  facts: Facts;
}

type Recogniser = (scan: Scan, i: number) => number;

const WEEKDAY_GROUP_WORDS: ReadonlyMap<string, number[]> = new Map([
  ['weekday', [1, 2, 3, 4, 5]],
  ['weekdays', [1, 2, 3, 4, 5]],
  ['workday', [1, 2, 3, 4, 5]],
  ['workdays', [1, 2, 3, 4, 5]],
  ['weekend', [0, 6]],
  ['weekends', [0, 6]],
]);
// "business day", "working days", "week day", "weekend days": a qualifier and then "day(s)".
const DAY_QUALIFIERS: ReadonlyMap<string, number[]> = new Map([
  ['business', [1, 2, 3, 4, 5]],
  ['working', [1, 2, 3, 4, 5]],
  ['work', [1, 2, 3, 4, 5]],
  ['week', [1, 2, 3, 4, 5]],
  ['weekend', [0, 6]],
]);
const RANGE_WORDS = ['to', 'through', 'thru', 'till', 'until'];

function text(scan: Scan, tokens: Token[]): string {
  return spanText(scan.description, tokens);
}

// ---- counts and intervals -------------------------------------------------------------------

function countValue(t: Token | undefined): number | null {
  if (!t) return null;
  if (t.kind === 'num') return t.value;
  if (t.kind !== 'word') return null;
  if (t.lower === 'other') return 2;
  return CARDINAL_WORDS.get(t.lower) ?? null;
}

function checkInterval(unit: Unit, interval: number, phrase: string): void {
  if (unit === 'quarter' && interval !== 1) {
    throw new ScheduleError(`${quote(phrase)} is not supported: say e.g. "every ${interval * 3} months on the 1st"`);
  }
  if (interval < 1 || interval > MAX_INTERVAL[unit]) {
    throw new ScheduleError(`${quote(phrase)} is not a supported interval (${unit}s: 1 to ${MAX_INTERVAL[unit]})`);
  }
}

/** "every 3 days", "every other week", "every second month", "each 2 years". */
const intervalUnit: Recogniser = (scan, i) => {
  const [every, count, unitWord] = [scan.free[i - 1], scan.free[i], scan.free[i + 1]];
  if (!isWord(every, 'every', 'each') || !unitWord || unitWord.kind !== 'word') return 0;
  const unit = UNIT_WORDS.get(unitWord.lower);
  if (!unit || SELF_CONTAINED_UNITS.has(unitWord.lower)) return 0;
  const ordinal = count?.kind === 'ord' ? count.value : ORDINAL_WORDS.get(count?.lower ?? '');
  const interval = countValue(count) ?? (ordinal !== undefined && ordinal >= 2 ? ordinal : null);
  if (interval === null || !count) return 0;
  const phrase = text(scan, [every, unitWord]);
  checkInterval(unit.unit, interval, phrase);
  scan.facts.units.push({ unit: unit.unit, interval, text: phrase });
  markUsed([every]);
  return 2;
};

/** "every other Friday", "every 2 Mondays": a weekly interval; the weekday is read next. */
const intervalWeekday: Recogniser = (scan, i) => {
  const [every, count, day] = [scan.free[i - 1], scan.free[i], scan.free[i + 1]];
  if (!isWord(every, 'every', 'each') || !day || !WEEKDAYS.has(day.lower)) return 0;
  const interval = countValue(count);
  if (interval === null || !count) return 0;
  const phrase = text(scan, [every, count]);
  checkInterval('week', interval, phrase);
  scan.facts.units.push({ unit: 'week', interval, text: phrase });
  markUsed([every]);
  return 1;
};

/** "hourly", "every 15 minutes": recognised only to say they are not supported. */
const subDaily: Recogniser = (scan, i) => {
  const t = scan.free[i];
  if (t?.kind !== 'word' || !SUB_DAILY_WORDS.has(t.lower)) return 0;
  let first = i;
  while (first > 0 && (countValue(scan.free[first - 1]) !== null || isWord(scan.free[first - 1], 'every', 'each'))) first--;
  const phrase = text(scan, scan.free.slice(first, i + 1));
  throw new ScheduleError(`Schedules more frequent than once a day (${quote(phrase)}) are not supported`);
};

// ---- ordinals: "first Monday", "1st and 15th", "last day" ----------------------------------

interface Item {
  value: number;
  tokens: Token[];
}

function readOrdinal(free: Token[], i: number): Item | null {
  const t = free[i];
  if (!t) return null;
  if (t.kind === 'ord') return { value: t.value, tokens: [t] };
  if (t.kind !== 'word') return null;
  const simple = ORDINAL_WORDS.get(t.lower);
  if (simple !== undefined) return { value: simple, tokens: [t] };
  const tens = ORDINAL_TENS.get(t.lower);
  if (tens === undefined) return null;
  // "twenty-first" / "twenty first"
  const hasDash = free[i + 1]?.kind === 'dash';
  const unitWord = free[i + (hasDash ? 2 : 1)];
  const unit = ORDINAL_UNITS.get(unitWord?.lower ?? '');
  if (unit === undefined || !unitWord) return null;
  const dash = free[i + 1];
  return { value: tens + unit, tokens: hasDash && dash ? [t, dash, unitWord] : [t, unitWord] };
}

interface ItemList {
  items: Item[];
  /** Tokens claimed, separators included. */
  tokens: Token[];
}

/** "1st and 15th", "first, third and fifth", "1st and 15" (bare numbers only after an ordinal). */
function readOrdinalList(free: Token[], i: number): ItemList {
  const list: ItemList = { items: [], tokens: [] };
  for (let j = i; ; ) {
    const sep = list.items.length > 0 && isWord(free[j], 'and') ? 1 : 0;
    const next = free[j + sep];
    const bare = list.items.length > 0 && isDayNumber(next) ? { value: next.value, tokens: [next] } : null;
    const item = readOrdinal(free, j + sep) ?? bare;
    if (!item) return list;
    list.items.push(item);
    list.tokens.push(...free.slice(j, j + sep), ...item.tokens);
    j += sep + item.tokens.length;
  }
}

const DAY_WORDS = ['day', 'days'];

function isWeekdayGroupStart(free: Token[], i: number): boolean {
  const t = free[i];
  if (t?.kind !== 'word') return false;
  return WEEKDAY_GROUP_WORDS.has(t.lower) || (DAY_QUALIFIERS.has(t.lower) && isWord(free[i + 1], ...DAY_WORDS));
}

const ordinals: Recogniser = (scan, i) => {
  const { items, tokens } = readOrdinalList(scan.free, i);
  if (items.length === 0) return 0;
  const after = i + tokens.length;
  if (isWeekdayGroupStart(scan.free, after)) {
    const group = readWeekdayItem(scan.free, after)?.tokens ?? [];
    // "first business day": a day of the month and a weekday must both match in schedule_info,
    // so no combination picks exactly the first (or last) weekday of each month.
    const why = 'schedule_info cannot express it exactly (days of the month and weekdays only combine as "both")';
    throw new ScheduleError(`${quote(text(scan, [...tokens, ...group]))} (an nth working day) is not supported: ${why}`);
  }
  const day = readWeekdayList(scan, after);
  if (day) {
    recordNth(scan, i, items, tokens, day);
    return tokens.length + day.length;
  }
  recordMonthDays(scan, items);
  return tokens.length + (isWord(scan.free[after], ...DAY_WORDS) ? 1 : 0);
};

function recordNth(scan: Scan, i: number, items: Item[], tokens: Token[], day: WeekdayList): void {
  for (const it of items) {
    if (it.value === 0 || it.value > 5) {
      const what = quote(text(scan, [...it.tokens, ...day.tokens]));
      throw new ScheduleError(`${what} is not a week of the month (first to fifth, or last)`);
    }
  }
  const single = items.length === 1 && day.days.length === 1 ? (items[0]?.value ?? null) : null;
  // Only "second": "every 3rd Monday" is the third Monday of each month (Todoist's reading).
  const everyOrdinal = isWord(scan.free[i - 1], 'every', 'each') && single === 2 ? single : null;
  const weeks = items.map((it) => it.value);
  scan.facts.nth.push({ weeks, days: day.days, text: text(scan, [...tokens, ...day.tokens]), everyOrdinal });
}

function recordMonthDays(scan: Scan, items: Item[]): void {
  for (const it of items) {
    const last = it.tokens[it.tokens.length - 1] as Token;
    if (it.value === 0 || it.value > 31) {
      throw new ScheduleError(`${quote(text(scan, it.tokens))} is not a day of the month (1st to 31st, or last)`);
    }
    scan.facts.monthDays.push({ value: it.value, token: last });
  }
}

// ---- day numbers: "on days 5 and 20", "day three", "day 12 and the last day" -----------------

const TEEN_WORDS: ReadonlyMap<string, number> = new Map([
  ['thirteen', 13],
  ['fourteen', 14],
  ['fifteen', 15],
  ['sixteen', 16],
  ['seventeen', 17],
  ['eighteen', 18],
  ['nineteen', 19],
]);
const TENS_WORDS: ReadonlyMap<string, number> = new Map([
  ['twenty', 20],
  ['thirty', 30],
]);

/** A day number in digits or words: "5", "three", "twenty-one", "thirty one"; "last" is -1. */
function readDayNumber(free: Token[], i: number): Item | null {
  const t = free[i];
  if (t?.kind === 'num') return t.text.length <= 2 ? { value: t.value, tokens: [t] } : null;
  if (t?.kind !== 'word') return null;
  if (t.lower === 'last') return { value: -1, tokens: isWord(free[i + 1], ...DAY_WORDS) ? [t, free[i + 1] as Token] : [t] };
  const simple = CARDINAL_WORDS.get(t.lower) ?? TEEN_WORDS.get(t.lower);
  if (simple !== undefined) return { value: simple, tokens: [t] };
  const tens = TENS_WORDS.get(t.lower);
  if (tens === undefined) return null;
  const hasDash = free[i + 1]?.kind === 'dash';
  const unitWord = free[i + (hasDash ? 2 : 1)];
  const unit = CARDINAL_WORDS.get(unitWord?.lower ?? '');
  if (unit === undefined || unit > 9 || !unitWord) return { value: tens, tokens: [t] };
  return { value: tens + unit, tokens: [t, ...(hasDash ? [free[i + 1] as Token] : []), unitWord] };
}

/**
 * "days 1-7", "days 1 to 7", "between day 1 and 7" (cron descriptions): every day from one to the
 * other. Returns the tokens claimed, or 0.
 */
function readDayRange(scan: Scan, i: number, between: boolean): number {
  const from = readDayNumber(scan.free, i);
  const sep = from ? scan.free[i + from.tokens.length] : undefined;
  const isSep = between ? isWord(sep, 'and') : sep?.kind === 'dash' || isWord(sep, ...RANGE_WORDS);
  if (!from || !sep || !isSep || from.value === -1) return 0;
  const to = readDayNumber(scan.free, i + from.tokens.length + 1);
  if (!to) return 0;
  const all = [...from.tokens, sep, ...to.tokens];
  if (to.value !== -1 && to.value < from.value) {
    throw new ScheduleError(`${quote(text(scan, all))} is not a range of days of the month (it runs backwards)`);
  }
  // "to last": through the 31st, which covers every month's last day.
  const last = to.value === -1 ? 31 : to.value;
  const items: Item[] = [];
  for (let d = from.value; d <= last; d++) items.push({ value: d, tokens: all });
  recordMonthDays(scan, items);
  return all.length;
}

/**
 * "day 12", "on days 5 and 20", "days 1, 15 and 28", "day 12 and the last day". Not after
 * "every" / "each" / a count: "every day 5" is not a day of the month.
 */
const dayNumbers: Recogniser = (scan, i) => {
  const dayWord = scan.free[i];
  const before = scan.free[i - 1];
  if (!isWord(dayWord, ...DAY_WORDS) || isWord(before, 'every', 'each') || countValue(before) !== null) return 0;
  // crontab.guru's "day-of-month 1": the words after "day" are part of the name.
  const [d1, of, d2, month] = scan.free.slice(i + 1, i + 5);
  const cronName = d1?.kind === 'dash' && isWord(of, 'of') && d2?.kind === 'dash' && isWord(month, 'month') ? 4 : 0;
  const between = isWord(before, 'between');
  const range = readDayRange(scan, i + 1 + cronName, between);
  if (range) {
    if (between) markUsed([before]);
    return 1 + cronName + range;
  }
  const items: Item[] = [];
  let j = i + 1 + cronName;
  for (;;) {
    const sep = items.length > 0 && isWord(scan.free[j], 'and') ? 1 : 0;
    const the = items.length > 0 && isWord(scan.free[j + sep], 'the') ? 1 : 0;
    const item = readDayNumber(scan.free, j + sep + the);
    // "last" only after a number: "day last" is not English.
    if (!item || (item.value === -1 && items.length === 0)) break;
    items.push(item);
    j += sep + the + item.tokens.length;
  }
  if (items.length === 0) return 0;
  recordMonthDays(scan, items);
  return j - i;
};

// ---- calendar dates: "March 3", "3 March", "the 25th of December" ---------------------------

function isMonth(t: Token | undefined): t is Token {
  return t !== undefined && t.kind === 'word' && MONTHS.has(t.lower);
}

/** "may" is also a verb ("it may run daily"): a month only next to a day or after "in", "of"... */
function isMonthAt(free: Token[], i: number): boolean {
  const t = free[i];
  if (!isMonth(t)) return false;
  if (t.lower !== 'may') return true;
  const [prev, next] = [free[i - 1], free[i + 1]];
  const nearDay = (n: Token | undefined) => n?.kind === 'ord' || isDayNumber(n);
  // A month before it: "April, May, June and July".
  if (nearDay(prev) || nearDay(next) || isWord(next, 'the', 'and') || isMonth(prev)) return true;
  return isWord(prev, 'in', 'of', 'every', 'each', 'and', 'the');
}

function isDayNumber(t: Token | undefined): t is Token {
  return t !== undefined && t.kind === 'num' && t.text.length <= 2;
}

/** A bare day number before a month or after "the": "3 March", "the 15 of every month". */
const bareMonthDay: Recogniser = (scan, i) => {
  const t = scan.free[i];
  const ofWord = isWord(scan.free[i + 1], 'of') ? 1 : 0;
  if (!isDayNumber(t) || !(isMonthAt(scan.free, i + 1 + ofWord) || isWord(scan.free[i - 1], 'the'))) return 0;
  recordMonthDays(scan, [{ value: t.value, tokens: [t] }]);
  return 1;
};

/** "January through March", "Jun-Aug", "November to February" (wraps over the new year). */
function readMonthRange(free: Token[], i: number): { values: number[]; tokens: Token[] } | null {
  const [from, sep, to] = [free[i], free[i + 1], free[i + 2]];
  if (!isMonthAt(free, i) || !sep || (sep.kind !== 'dash' && !isWord(sep, ...RANGE_WORDS)) || !isMonthAt(free, i + 2)) {
    return null;
  }
  const a = MONTHS.get((from as Token).lower) as number;
  const b = MONTHS.get((to as Token).lower) as number;
  const values = [a];
  for (let m = a; m !== b; ) {
    m = (m % 12) + 1;
    values.push(m);
  }
  return { values, tokens: [from as Token, sep, to as Token] };
}

/** "January, April and July", "Dec 25", "March the 3rd" (the ordinal is read on its own). */
const monthList: Recogniser = (scan, i) => {
  let j = i;
  // Cron descriptions (cronstrue): "only in March and April" is every day of those months.
  if (isMonthAt(scan.free, i) && isWord(scan.free[i - 1], 'in', 'during') && isWord(scan.free[i - 2], 'only')) {
    scan.facts.onlyInMonths = true;
  }
  while (isMonthAt(scan.free, j)) {
    const month = scan.free[j] as Token;
    const range = readMonthRange(scan.free, j);
    if (range) {
      // Each month is quoted once in messages: the first by "January", the others by "March".
      range.values.forEach((value, k) => {
        scan.facts.months.push({ value, token: (k === 0 ? range.tokens[0] : range.tokens[2]) as Token });
      });
      j += range.tokens.length;
      if (isWord(scan.free[j], 'and') && isMonthAt(scan.free, j + 1)) j++;
      continue;
    }
    scan.facts.months.push({ value: MONTHS.get(month.lower) as number, token: month });
    j++;
    const day = scan.free[j];
    if (isDayNumber(day)) {
      recordMonthDays(scan, [{ value: day.value, tokens: [day] }]);
      j++;
    }
    if (isWord(scan.free[j], 'and') && isMonthAt(scan.free, j + 1)) j++;
  }
  return j - i;
};

// ---- weekdays: "Mondays and Thursdays", "Tue, Wed", "Mon-Fri", "weekdays" -------------------

interface WeekdayList {
  days: number[];
  tokens: Token[];
  text: string;
  length: number;
}

interface WeekdayItem {
  days: number[];
  tokens: Token[];
}

/** "Mon-Fri", "Monday to Friday", "Friday through Monday" (wraps over the weekend). */
function readRange(free: Token[], i: number): WeekdayItem | null {
  const [from, sep, to] = [free[i], free[i + 1], free[i + 2]];
  const a = WEEKDAYS.get(from?.lower ?? '');
  const b = WEEKDAYS.get(to?.lower ?? '');
  if (a === undefined || b === undefined || !from || !sep || !to) return null;
  if (sep.kind !== 'dash' && !isWord(sep, ...RANGE_WORDS)) return null;
  const days = [a];
  for (let d = a; d !== b; ) {
    d = (d + 1) % 7;
    days.push(d);
  }
  return { days, tokens: [from, sep, to] };
}

function readWeekdayItem(free: Token[], i: number): WeekdayItem | null {
  const t = free[i];
  if (t && isWeekdaySlashList(t)) return { days: t.lower.split('/').map((d) => WEEKDAYS.get(d) as number), tokens: [t] };
  if (t?.kind !== 'word') return null;
  const range = readRange(free, i);
  if (range) return range;
  const day = WEEKDAYS.get(t.lower);
  if (day !== undefined) return { days: [day], tokens: [t] };
  const group = WEEKDAY_GROUP_WORDS.get(t.lower);
  const dayWord = free[i + 1];
  if (group) return { days: group, tokens: isWord(dayWord, ...DAY_WORDS) ? [t, dayWord] : [t] };
  const qualified = DAY_QUALIFIERS.get(t.lower);
  if (qualified && isWord(dayWord, ...DAY_WORDS)) return { days: qualified, tokens: [t, dayWord] };
  return null;
}

function readWeekdayList(scan: Scan, i: number): WeekdayList | null {
  const days = new Set<number>();
  const tokens: Token[] = [];
  let j = i;
  for (;;) {
    const sep = tokens.length > 0 && isWord(scan.free[j], 'and') ? 1 : 0;
    const item = readWeekdayItem(scan.free, j + sep);
    if (!item) break;
    for (const d of item.days) days.add(d);
    tokens.push(...(sep ? [scan.free[j] as Token] : []), ...item.tokens);
    j += sep + item.tokens.length;
  }
  if (tokens.length === 0) return null;
  return { days: [...days].sort((a, b) => a - b), tokens, text: text(scan, tokens), length: j - i };
}

const weekdayList: Recogniser = (scan, i) => {
  // "from Monday to Friday": "from" belongs to the range (elsewhere it would mean a start date).
  const from = isWord(scan.free[i], 'from') && readRange(scan.free, i + 1) ? 1 : 0;
  const list = readWeekdayList(scan, i + from);
  if (!list) return 0;
  scan.facts.weekdayGroups.push({ days: list.days, text: list.text });
  return from + list.length;
};

// ---- exclusions: "except Sunday", "but not Mondays", "excluding Saturdays and Sundays" --------

/** The words that start an exclusion, and how many tokens they take. */
function exclusionStart(free: Token[], i: number): number {
  const t = free[i];
  if (isWord(t, 'except', 'excluding')) return isWord(free[i + 1], 'on', 'for') ? 2 : 1;
  if (isWord(t, 'but') && isWord(free[i + 1], 'not')) return isWord(free[i + 2], 'on') ? 3 : 2;
  if (isWord(t, 'not') && isWord(free[i + 1], 'on')) return 2;
  return 0;
}

const exclusion: Recogniser = (scan, i) => {
  const lead = exclusionStart(scan.free, i);
  if (lead === 0) return 0;
  const list = readWeekdayList(scan, i + lead);
  if (!list) return 0;
  // "except weekends" would be read, but the corpus keeps it refused: name the days instead.
  const group = list.tokens.find((t) => WEEKDAY_GROUP_WORDS.has(t.lower) || DAY_QUALIFIERS.has(t.lower));
  if (group) {
    const exceptWord = scan.free[i] as Token;
    const example = group.lower.startsWith('weekend') ? 'every weekday' : 'every Saturday and Sunday';
    throw new ScheduleError(
      `${quote(exceptWord.text)} before ${quote(list.text)} is not supported: name the days to run instead, e.g. "${example}"`,
    );
  }
  scan.facts.excludedWeekdays.push({ days: list.days, text: text(scan, scan.free.slice(i, i + lead + list.length)) });
  return lead + list.length;
};

// ---- bare units and "end of" ----------------------------------------------------------------

const unitWord: Recogniser = (scan, i) => {
  const t = scan.free[i];
  const unit = t?.kind === 'word' ? UNIT_WORDS.get(t.lower) : undefined;
  if (!t || !unit) return 0;
  const every = scan.free[i - 1];
  const phrase = isWord(every, 'every', 'each') ? text(scan, [every, t]) : t.text;
  scan.facts.units.push({ ...unit, text: phrase });
  return 1;
};

/** "end of the month" is its last day, "beginning / start of the quarter" its first. */
const endOf: Recogniser = (scan, i) => {
  const t = scan.free[i];
  if (!isWord(t, 'end', 'beginning', 'start') || !isWord(scan.free[i + 1], 'of')) return 0;
  scan.facts.monthDays.push({ value: t.lower === 'end' ? -1 : 1, token: t });
  return 1;
};

const RECOGNISERS: Recogniser[] = [
  subDaily,
  intervalUnit,
  intervalWeekday,
  ordinals,
  dayNumbers,
  bareMonthDay,
  monthList,
  exclusion,
  weekdayList,
  unitWord,
  endOf,
];

/** Runs the recognisers over the unclaimed tokens and returns what they found. */
export function readRecurrence(tokens: readonly Token[], description: string): Facts {
  const scan: Scan = {
    free: unused(tokens),
    description,
    facts: { units: [], weekdayGroups: [], excludedWeekdays: [], onlyInMonths: false, nth: [], monthDays: [], months: [] },
  };
  for (let i = 0; i < scan.free.length; ) {
    const claimed = claimAt(scan, i);
    i += Math.max(claimed, 1);
  }
  return scan.facts;
}

function claimAt(scan: Scan, i: number): number {
  for (const recognise of RECOGNISERS) {
    const n = recognise(scan, i);
    if (n > 0) {
      markUsed(scan.free.slice(i, i + n));
      return n;
    }
  }
  return 0;
}
