/**
 * Family 1, every N hours or minutes: "every 4 hours", "hourly", "every 20 minutes", "every
 * half hour", with the minute of the hour ("hourly at :15", "every hour at 15 past", "on the
 * hour"; read in minutes-of-hour.ts) and a window of the day ("every 3 hours between 8am and
 * 8pm"; its words since issue 25 in window-words.ts). Its own stage, before
 * times of day, which would read "at 15" as 15:00. The minute and the window are read only
 * when the description has a frequency, so other schedules read exactly as before.
 *
 * Runs restart each day at the window's start (or midnight), as cron's hour steps do. Without
 * a window an hour interval must divide the day (every 5 hours would leave a 4-hour gap at
 * midnight): say the window instead. Minutes need not (issue 46): "every 7 minutes" restarts at
 * midnight, and is said back so. The dispatcher starts runs once a minute, so nothing
 * finer than a minute is accepted.
 */
import { contradiction, quote, ScheduleError } from '../errors.js';
import { applyPeriod, fixesHalf, readAt, toTwentyFour } from '../time-of-day.js';
import { isWord, spanText, type Token } from '../tokens.js';
import { ORDINAL_WORDS, PERIOD_WORDS } from '../vocabulary.js';
import { type Claim, claim, type Fact, type FrequencyMention, type PhraseFamily, type View } from './family.js';
import type { Facts } from './index.js';
import { MINUTE_WORDS, readMinute } from './minutes-of-hour.js';
import { countValue, text } from './readers.js';
import { windowLead, windowSeparator } from './window-words.js';

/**
 * isWord without narrowing: a false answer says nothing about the token's type. isWord itself,
 * typed so, rather than a wrapper that gathers and spreads the words once more on every call.
 */
const wordIs: (t: Token | undefined, ...words: string[]) => boolean = isWord;

const HOUR_WORDS = ['hour', 'hours', 'hr', 'hrs'];
const SECOND_WORDS = ['second', 'seconds', 'sec', 'secs'];
const MINUTES_PER_DAY = 24 * 60;

export type SubDailyUnit = FrequencyMention['unit'];

/** Largest interval: under a day (say "every day" for 24 hours). */
export const MAX_SUB_DAILY_INTERVAL: Readonly<Record<SubDailyUnit, number>> = { hour: 23, minute: MINUTES_PER_DAY - 1 };

function frequency(view: View, i: number, length: number, unit: SubDailyUnit, interval: number, before: Token[]): Claim {
  const tokens = [...before, ...view.free.slice(i, i + length)];
  return claim(view, i, length, [{ kind: 'frequency', frequency: { unit, interval, text: text(view, tokens) } }], before);
}

function tooFine(phrase: string): ScheduleError {
  const why = 'runs are started once a minute, so every minute is the most often a schedule can run';
  return new ScheduleError(`Schedules more often than once a minute (${quote(phrase)}) are not supported: ${why}`);
}

/** "hourly", "half-hourly", "every 4 hours", "every other hour", "every half hour", "once an hour". */
function readFrequency(view: View, i: number): Claim | null {
  const { free } = view;
  const [t, next, after] = [free[i], free[i + 1], free[i + 2]];
  const before = free[i - 1];
  if (!t) return null;
  const every: Token[] | null = isWord(before, 'every', 'each') ? [before] : null;
  if (wordIs(t, 'hourly')) return frequency(view, i, 1, 'hour', 1, []);
  // "half-hourly", "half hourly"
  if (wordIs(t, 'half') && isWord(next, 'hourly')) return frequency(view, i, 2, 'minute', 30, []);
  if (wordIs(t, 'half') && next?.kind === 'dash' && isWord(after, 'hourly')) return frequency(view, i, 3, 'minute', 30, []);
  // "once an hour", "once a minute", "per hour"
  if (wordIs(t, 'a', 'an', 'per') && isWord(next, 'hour', 'minute') && !every) {
    return frequency(view, i, 2, next.lower === 'hour' ? 'hour' : 'minute', 1, isWord(before, 'once') ? [before] : []);
  }
  if (!every) return null;
  if (wordIs(t, ...HOUR_WORDS)) return frequency(view, i, 1, 'hour', 1, every);
  if (wordIs(t, ...MINUTE_WORDS)) return frequency(view, i, 1, 'minute', 1, every);
  if (wordIs(t, ...SECOND_WORDS) && t.lower !== 'second') throw tooFine(text(view, [...every, t]));
  // "every half hour", "every half an hour", "every quarter hour", "every quarter of an hour"
  if (wordIs(t, 'half', 'quarter')) {
    const filler = isWord(next, 'an') ? 1 : isWord(next, 'of') && isWord(after, 'an') ? 2 : 0;
    if (!isWord(free[i + 1 + filler], 'hour')) return null;
    return frequency(view, i, 2 + filler, 'minute', t.lower === 'half' ? 30 : 15, every);
  }
  // "every 4 hours", "every other hour", "every 2nd hour", "every 30 seconds"
  const ordinal = t.kind === 'ord' ? t.value : ORDINAL_WORDS.get(t.lower);
  const count = countValue(t) ?? (ordinal !== undefined && ordinal >= 2 ? ordinal : null);
  if (count === null || !next) return null;
  if (isWord(next, ...HOUR_WORDS)) return frequency(view, i, 2, 'hour', count, every);
  if (isWord(next, ...MINUTE_WORDS)) return frequency(view, i, 2, 'minute', count, every);
  if (isWord(next, ...SECOND_WORDS)) throw tooFine(text(view, [...every, t, next]));
  return null;
}

/** "every second" at the end: a second is finer than a minute, not an ordinal. */
function readEverySecond(view: View, i: number): never | null {
  const [every, t] = [view.free[i - 1], view.free[i]];
  if (isWord(every, 'every', 'each') && isWord(t, 'second') && view.free[i + 1] === undefined)
    throw tooFine(text(view, [every, t]));
  return null;
}

/** hasFrequency's answer per view: a view's tokens and their words stay the same while its stage runs. */
const frequencyInView = new WeakMap<View, boolean>();

/** Whether any position of the view reads as a frequency; asked at each position, worked out once. */
const hasFrequency = (view: View): boolean => {
  let known = frequencyInView.get(view);
  if (known === undefined) {
    known = view.free.some((_, j) => readFrequency(view, j) !== null);
    frequencyInView.set(view, known);
  }
  return known;
};

interface WindowTime {
  minutes: number;
  tokens: Token[];
  /** Whether am/pm or a 24-hour reading fixed the half of the day ("5pm", "17"), unlike "5". */
  fixed: boolean;
}

/** A time at a window's edge: "8am", "17:30", "noon", or a bare 24-hour "9" / "17". */
function readClockEdge(view: View, i: number): WindowTime | null {
  const reading = readAt(view.free, i);
  const t = view.free[i];
  if (reading) {
    const time = toTwentyFour(reading, spanText(view.description, reading.tokens));
    return { minutes: time.hour * 60 + time.minute, tokens: reading.tokens, fixed: fixesHalf(reading) };
  }
  if (t?.kind === 'num' && t.text.length <= 2) {
    const time = toTwentyFour({ hour: t.value, minute: 0, meridiem: null, tokens: [t] }, t.text);
    return { minutes: time.hour * 60, tokens: [t], fixed: time.hour > 12 || time.hour === 0 };
  }
  return null;
}

/** "9 in the morning", "5 in the afternoon", "8 at night": an edge the part of the day moves (issue 25). */
function readEdge(view: View, i: number): WindowTime | null {
  const edge = readClockEdge(view, i);
  if (!edge) return null;
  const { free } = view;
  const at = i + edge.tokens.length;
  const the = isWord(free[at], 'in') && isWord(free[at + 1], 'the') ? 2 : isWord(free[at], 'at') ? 1 : 0;
  const word = the ? free[at + the] : undefined;
  const period = word?.kind === 'word' ? PERIOD_WORDS.get(word.lower) : undefined;
  if (!period || !word || (the === 1 && period !== 'night')) return edge;
  const tokens = [...edge.tokens, ...free.slice(at, at + the + 1)];
  const mention = {
    time: { hour: Math.floor(edge.minutes / 60), minute: edge.minutes % 60 },
    text: text(view, tokens),
    explicitHalf: edge.fixed,
    named: false,
  };
  const shifted = applyPeriod(mention, { period, text: word.text, daily: false });
  return { minutes: shifted.hour * 60 + shifted.minute, tokens, fixed: true };
}

const HALF_DAY = 12 * 60;

/**
 * "between 8am and 8pm", "from 9:00 to 17:00", "9am-5pm", "9am to 5pm", "from 9am" (refused
 * later), and in words (window-words.ts): "starting at 9 and finishing at 17", "between the hours
 * of 8am and 6pm". An end before the start with no am/pm ("from 9 to 5") is in the afternoon.
 */
function readWindow(view: View, i: number): Claim | null {
  const { free } = view;
  const lead = windowLead(free, i);
  const start = readEdge(view, i + lead);
  // Without a lead word, only a time that is one on its own ("9am", not "9"), or bare hours
  // right after the frequency ("every hour 9-17"), where no other reading is near.
  const afterFrequency = isWord(free[i - 1], ...HOUR_WORDS, ...MINUTE_WORDS, 'hourly');
  if (!start || (!lead && !readAt(free, i) && !afterFrequency)) return null;
  const sepAt = i + lead + start.tokens.length;
  const between = isWord(free[i], 'between');
  const sep = windowSeparator(free, sepAt, between);
  const end = sep ? readEdge(view, sepAt + sep) : null;
  const length = end ? sepAt + sep + end.tokens.length - i : lead ? sepAt - i : 0;
  // "between 9am" alone is no window; "from 9am" or "starting at 9" alone is refused later.
  if (length === 0 || (between && !end)) return null;
  let endMinutes = end?.minutes ?? null;
  // "every 2nd hour from 0 through 20" (crontab.guru): "through" a bare hour takes in that hour.
  const through = isWord(free[sepAt + sep - 1], 'through', 'thru');
  if (end && endMinutes !== null && through && end.tokens.length === 1 && end.tokens[0]?.kind === 'num') endMinutes += 59;
  // "from 9 to 5", "8 to 8": no am/pm and an end not after the start is the afternoon's.
  const late = endMinutes !== null && endMinutes + HALF_DAY > start.minutes && endMinutes + HALF_DAY < 24 * 60;
  if (end && endMinutes !== null && !end.fixed && endMinutes <= start.minutes && late) endMinutes += HALF_DAY;
  const tokens = free.slice(i, i + length);
  const fact: Fact = {
    kind: 'window',
    window: { start: start.minutes, end: endMinutes, text: text(view, [...tokens]) },
  };
  return claim(view, i, length, [fact]);
}

/**
 * "restarting at midnight", "restarting each day" (issue 46): how a step that does not divide
 * the day is said back ("Every 7 minutes, restarting at midnight"); every series restarts so.
 */
function readRestart(view: View, i: number): Claim | null {
  const { free } = view;
  if (!isWord(free[i], 'restarting', 'restart', 'restarts', 'resetting')) return null;
  const filler = isWord(free[i + 1], 'at', 'each', 'every') ? 1 : 0;
  if (!isWord(free[i + 1 + filler], 'midnight', 'day')) return null;
  return claim(view, i, 2 + filler, []);
}

export const subDaily: PhraseFamily = {
  name: 'every N hours or minutes',
  stage: 'sub-daily',
  read(view, i) {
    const found = readFrequency(view, i) ?? readEverySecond(view, i);
    if (found) return found;
    if (!hasFrequency(view)) return null;
    return readMinute(view, i) ?? readRestart(view, i) ?? readWindow(view, i);
  },
  settle(facts) {
    const frequencies = facts.flatMap((f) => (f.kind === 'frequency' ? [f.frequency] : []));
    const [first, second] = frequencies;
    if (first && second) throw contradiction(first.text, second.text);
  },
};

// ---- the timing of a sub-daily schedule -------------------------------------------------------

export interface SubDailyTiming {
  schedule_type: 'hourly' | 'minutely';
  interval: number;
  /** Minutes since midnight of the first run of each day. */
  start: number;
  /** Minutes since midnight of the latest run allowed, or null for none before midnight. */
  end: number | null;
}

/** Minutes since midnight as 'HH:MM'. */
export const hhmm = (minutes: number): string =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** A step that divides the day, so the runs go on across midnight at the same pace. */
const DIVIDES_DAY: Readonly<Record<SubDailyUnit, (n: number) => boolean>> = {
  hour: (n) => 24 % n === 0,
  minute: (n) => MINUTES_PER_DAY % n === 0,
};

/**
 * Checks an interval of hours or minutes; without a window (`windowed` false) it must divide
 * the day. Shared with cron.ts, which maps rate(6 hours) and "0 *\/4 * * *" here.
 */
export function checkSubDailyInterval(
  unit: SubDailyUnit,
  interval: number,
  phrase: string,
  windowed: boolean,
  words = phrase,
): void {
  const max = MAX_SUB_DAILY_INTERVAL[unit];
  if (!Number.isInteger(interval) || interval < 1 || interval > max) {
    const hint = unit === 'hour' && interval >= 24 ? '; for once a day or less often say e.g. "every day at 9am"' : '';
    throw new ScheduleError(`${quote(phrase)} is not a supported interval (${unit}s: 1 to ${max})${hint}`);
  }
  // Minutes that do not divide the day restart at midnight (issue 46): "every 7 minutes" runs
  // 00:00, 00:07 ... 23:55, then 00:00. Hours still do not: "every 5 hours" would be 00, 05 ... 20.
  if (!windowed && unit === 'hour' && !DIVIDES_DAY[unit](interval)) {
    const choices = '1, 2, 3, 4, 6, 8 or 12 hours';
    throw new ScheduleError(
      `${quote(phrase)} does not divide the day, so runs would not keep the same pace across midnight: use ${choices}, or give the hours, e.g. "${words} between 8am and 8pm"`,
    );
  }
}

/** The type, interval, first run and last run of each day, from the family's facts. */
export function subDailyTiming(facts: Facts): SubDailyTiming | null {
  const [freq] = facts.frequencies;
  if (!freq) return null;
  if (facts.time) {
    const example = freq.unit === 'hour' ? 'hourly at :15' : `${freq.text} between 9am and 5pm`;
    throw new ScheduleError(
      `A time of day (${quote(facts.time.text)}) does not fit ${quote(freq.text)}: give the minute or the hours, e.g. "${example}" or "${freq.text} between 9am and 5pm"`,
    );
  }
  if (facts.period) {
    throw new ScheduleError(
      `${quote(freq.text)} in ${quote(facts.period.text)} is not supported: give the hours, e.g. "${freq.text} between 8am and noon"`,
    );
  }
  if (facts.start) throw new ScheduleError(`A start date (${quote(facts.start.text)}) is not supported with ${quote(freq.text)}`);
  const [window, extra] = facts.windows;
  if (extra) throw contradiction(window?.text ?? '', extra.text);
  if (window && window.end === null) {
    throw new ScheduleError(`Please give both ends of ${quote(window.text)}, e.g. "${freq.text} from 9am to 5pm"`);
  }
  const [minute, otherMinute] = facts.minutesOfHour;
  if (minute && otherMinute && minute.minute !== otherMinute.minute) throw contradiction(minute.text, otherMinute.text);
  if (minute && freq.unit === 'minute') {
    throw new ScheduleError(
      `${quote(minute.text)} is a minute of the hour, which does not fit ${quote(freq.text)}: say e.g. "${freq.text} from 9:05 to 17:00"`,
    );
  }
  checkSubDailyInterval(freq.unit, freq.interval, freq.text, window !== undefined);
  const step = freq.unit === 'hour' ? freq.interval * 60 : freq.interval;
  let start = window?.start ?? 0;
  if (minute) {
    if (start % 60 !== 0 && start % 60 !== minute.minute) throw contradiction(window?.text ?? '', minute.text);
    start = start - (start % 60) + minute.minute;
    // "every 2 hours at quarter to": a quarter to every second hour, 01:45, 03:45 ... 23:45.
    if (minute.toHour && freq.interval > 1) {
      if (window) {
        throw new ScheduleError(
          `${quote(minute.text)} with ${quote(window.text)} is not supported: give the minute past the hour, e.g. "${freq.text} at :${String(minute.minute).padStart(2, '0')} ${window.text}"`,
        );
      }
      start += (freq.interval - 1) * 60;
    }
  }
  const end = window?.end ?? null;
  if (window && end !== null) {
    // Across midnight (issue 46): "between 9pm and 2am" runs 21:00 ... 23:00, 00:00 ... 02:00,
    // the small hours belonging to the evening before.
    const span = end >= start ? end - start : end + MINUTES_PER_DAY - start;
    if (span < step) {
      throw new ScheduleError(
        `${quote(freq.text)} ${quote(window.text)} runs only once a day (at ${hhmm(start)}): say e.g. "every day at ${hhmm(start)}"`,
      );
    }
  }
  return { schedule_type: freq.unit === 'hour' ? 'hourly' : 'minutely', interval: freq.interval, start, end };
}
