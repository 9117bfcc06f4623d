import { contradiction, quote, ScheduleError } from './errors.js';
import { isWord, type Token } from './tokens.js';
import { CARDINAL_WORDS, MONTHS, type Period } from './vocabulary.js';

const DEFAULT_TIME = { hour: 9, minute: 0 };

export interface TimeOfDay {
  hour: number;
  minute: number;
}

export interface ClockReading {
  hour: number;
  minute: number;
  meridiem: 'am' | 'pm' | null;
  /** Tokens forming the time itself (without a leading "at"). */
  tokens: Token[];
  /** Minutes added after conversion to 24 hours: "half past 9" is 9 + 30, "quarter to 9" 9 - 15. */
  shift?: number;
  /** noon and midnight: already unambiguous, a part of the day must not move them. */
  named?: boolean;
}

export interface PeriodMention {
  period: Period;
  text: string;
  /** "every morning", "each night", "nightly": a daily recurrence by itself. */
  daily: boolean;
}

const PERIOD_HOURS: Record<Period, (h: number) => boolean> = {
  morning: (h) => h < 12,
  afternoon: (h) => h >= 12 && h < 19,
  evening: (h) => h >= 16,
  night: (h) => h >= 18 || h < 6,
};

function withMeridiem(free: readonly Token[], i: number, hour: number, minute: number, core: Token[]): ClockReading {
  const next = free[i];
  if (next?.kind === 'ampm') return { hour, minute, meridiem: next.lower as 'am' | 'pm', tokens: [...core, next] };
  return { hour, minute, meridiem: null, tokens: core };
}

/** "hrs" after a 24-hour time: "1730 hrs", "0900h", "17:30 hours". */
const HOURS_SUFFIXES = ['hrs', 'hr', 'hours', 'h'];

/** An hour written as digits or as a word up to twelve: "7", "seven". */
function hourValue(t: Token | undefined): number | null {
  if (t?.kind === 'num') return t.value;
  if (t?.kind === 'word') return CARDINAL_WORDS.get(t.lower) ?? null;
  return null;
}

function readClock(free: readonly Token[], i: number): ClockReading | null {
  const t = free[i];
  if (t?.kind !== 'clock') return null;
  // Seconds are accepted only as ":00": runs are planned to the minute.
  const m = /^(\d{1,2})[:.](\d{2})(?::00)?$/.exec(t.text);
  if (!m) throw invalidTime(t.text);
  const hrs = free[i + 1];
  if (isWord(hrs, ...HOURS_SUFFIXES)) return { hour: Number(m[1]), minute: Number(m[2]), meridiem: null, tokens: [t, hrs] };
  return withMeridiem(free, i + 1, Number(m[1]), Number(m[2]), [t]);
}

/** Military time: four digits and "hrs" ("1730 hrs", "0900h"), with or without "at". */
function readMilitary(free: readonly Token[], i: number): ClockReading | null {
  const [t, hrs] = [free[i], free[i + 1]];
  if (t?.kind !== 'num' || t.text.length !== 4 || !isWord(hrs, ...HOURS_SUFFIXES)) return null;
  return { hour: Math.floor(t.value / 100), minute: t.value % 100, meridiem: null, tokens: [t, hrs] };
}

function readNamed(free: readonly Token[], i: number): ClockReading | null {
  const t = free[i];
  const twelve = t && hourValue(t) === 12 ? t : null;
  const word = free[twelve ? i + 1 : i];
  if (!isWord(word, 'noon', 'midday', 'midnight')) return null;
  const hour = word.lower === 'midnight' ? 0 : 12;
  return { hour, minute: 0, meridiem: null, tokens: twelve ? [twelve, word] : [word], named: true };
}

/** "7pm", "seven am", "7 o'clock", "seven o'clock in the evening". */
function readHourWithSuffix(free: readonly Token[], i: number): ClockReading | null {
  const t = free[i];
  const next = free[i + 1];
  const hour = hourValue(t);
  if (hour === null || !t) return null;
  if (next?.kind === 'ampm') return { hour, minute: 0, meridiem: next.lower as 'am' | 'pm', tokens: [t, next] };
  if (isWord(next, "o'clock", 'oclock')) return withMeridiem(free, i + 2, hour, 0, [t, next]);
  // "9 o clock" (issue 46): the apostrophe left out.
  const clock = free[i + 2];
  if (isWord(next, 'o') && isWord(clock, 'clock')) return withMeridiem(free, i + 3, hour, 0, [t, next, clock]);
  return null;
}

/**
 * "08h30", "8h05", "at 18h" (issue 46): hours and minutes around an "h", written together, as in
 * French and much of Europe. Without minutes only after "at" ("18h" alone may be a duration).
 */
function readHourH(free: readonly Token[], i: number): ClockReading | null {
  const [t, h, minutes] = [free[i], free[i + 1], free[i + 2]];
  if (t?.kind !== 'num' || t.text.length > 2 || !isWord(h, 'h') || h.start !== t.end) return null;
  if (minutes?.kind === 'num' && minutes.text.length === 2 && minutes.start === h.end) {
    return { hour: t.value, minute: minutes.value, meridiem: null, tokens: [t, h, minutes] };
  }
  if (!isWord(free[i - 1], 'at')) return null;
  return { hour: t.value, minute: 0, meridiem: null, tokens: [t, h] };
}

const MINUTE_WORDS: ReadonlyMap<string, number> = new Map([
  ['half', 30],
  ['quarter', 15],
  ['twenty', 20],
  ...[...CARDINAL_WORDS].filter(([, n]) => n >= 5 && n % 5 === 0),
]);

/** Minutes before "past" / "to" as words: "half", "quarter", "five", "ten", "twenty". */
function pastToMinutes(t: Token | undefined): number | null {
  // Words only: digits ("9 to 5") read as a range, not as 04:51.
  return t?.kind === 'word' ? (MINUTE_WORDS.get(t.lower) ?? null) : null;
}

/** "half past nine", "quarter to 6", "ten past seven pm". */
function readPastTo(free: readonly Token[], i: number): ClockReading | null {
  const [a, b, c] = [free[i], free[i + 1], free[i + 2]];
  const minutes = pastToMinutes(a);
  const hour = hourValue(c);
  if (minutes === null || !a || !isWord(b, 'past', 'to') || hour === null || !c) return null;
  // "from five to nine" is a range, not 08:55.
  if ((isWord(a, 'half') && b.lower === 'to') || isWord(free[i - 1], 'from')) return null;
  const reading = withMeridiem(free, i + 3, hour, 0, [a, b, c]);
  // Set on the new reading, not `{ ...reading, shift }`: a key added after a leading spread is
  // slow in Node 20 (parse.ts, withFields).
  reading.shift = b.lower === 'past' ? minutes : -minutes;
  return reading;
}

/** "at 8", "at 0930", "at seven": a bare number is a time only right after "at". */
function readAfterAt(free: readonly Token[], i: number): ClockReading | null {
  const t = free[i];
  const hour = hourValue(t);
  if (hour === null || !t || !isWord(free[i - 1], 'at')) return null;
  // "at 3 March" is a date, not 03:00.
  if (free[i + 1]?.kind === 'word' && MONTHS.has(free[i + 1]?.lower ?? '')) return null;
  if (t.text.length === 4) return { hour: Math.floor(t.value / 100), minute: t.value % 100, meridiem: null, tokens: [t] };
  return { hour, minute: 0, meridiem: null, tokens: [t] };
}

const READERS = [readClock, readMilitary, readHourH, readNamed, readHourWithSuffix, readPastTo, readAfterAt];

function invalidTime(text: string): ScheduleError {
  return new ScheduleError(`Invalid time of day ${quote(text)} in the schedule description`);
}

/** The time of day written at position i, if any (the "at" before it is not included). */
export function readAt(free: readonly Token[], i: number): ClockReading | null {
  for (const read of READERS) {
    const reading = read(free, i);
    if (reading) return reading;
  }
  return null;
}

function hourOfDay(reading: ClockReading, text: string): number {
  const { hour, meridiem } = reading;
  if (meridiem === null) {
    if (hour > 23) throw invalidTime(text);
    return hour;
  }
  if (hour > 12 || (hour === 0 && meridiem === 'pm')) throw invalidTime(text);
  return meridiem === 'pm' ? (hour % 12) + 12 : hour % 12;
}

export function toTwentyFour(reading: ClockReading, text: string): TimeOfDay {
  if (reading.minute > 59) throw invalidTime(text);
  const total = hourOfDay(reading, text) * 60 + reading.minute + (reading.shift ?? 0);
  // "quarter to 12am" would be 23:45 on the day before: rejected rather than guessed.
  if (total < 0 || total >= 24 * 60) throw invalidTime(text);
  return { hour: Math.floor(total / 60), minute: total % 60 };
}

/** Whether am/pm, a 24-hour reading or a named time already fixed the half of the day. */
export function fixesHalf(reading: ClockReading): boolean {
  return reading.meridiem !== null || reading.named === true || reading.hour > 12 || reading.hour === 0;
}

export interface TimeMention {
  time: TimeOfDay;
  text: string;
  /** True when am/pm or a 24-hour form fixed the half of the day. */
  explicitHalf: boolean;
  /** noon / midnight. */
  named: boolean;
  /**
   * Said in brackets right after another time ("12am (midnight)", "midnight (12am)"): the same
   * time said again, not one more time of the day (a different one contradicts it).
   */
  restates?: boolean;
}

/** Moves a 12-hour reading into the named part of the day, then checks they agree. */
export function applyPeriod(time: TimeMention | null, period: PeriodMention | null): TimeOfDay {
  if (!period) return time?.time ?? DEFAULT_TIME;
  if (!time) {
    if (period.period === 'morning') return DEFAULT_TIME;
    throw new ScheduleError(`Please give a time of day for ${quote(period.text)}, e.g. "every evening at 7pm"`);
  }
  const { hour, minute } = time.time;
  const shifted = time.explicitHalf ? hour : shiftIntoPeriod(hour, period.period);
  if (!PERIOD_HOURS[period.period](shifted)) {
    throw contradiction(time.text, period.text);
  }
  return { hour: shifted, minute };
}

function shiftIntoPeriod(hour: number, period: Period): number {
  if (hour === 12) return period === 'morning' || period === 'night' ? 0 : 12;
  if (period === 'afternoon' || period === 'evening') return hour + 12;
  if (period === 'night' && hour >= 6) return hour + 12;
  return hour;
}
