/**
 * Issue 46, family 4, ends: "until 31 December 2026", "until December 31" (the next one),
 * "through 2026-12-31", "ending on Dec 31", "10 times", "for 10 occurrences", "after 5 runs",
 * "for 4 weeks", "for the next 3 months". parse.ts turns them into `until` (an inclusive UTC
 * instant) and `count`. In the start stage, before open-ended.ts, which refuses the ends read
 * nowhere ("until next Friday", "through the end of the year") and keeps "until further notice".
 */
import { quote, ScheduleError } from '../errors.js';
import { isWord, type Token } from '../tokens.js';
import { CARDINAL_WORDS, MONTHS, WEEKDAYS } from '../vocabulary.js';
import { claim, type EndMention, type Fact, type PhraseFamily, type View, type WrittenDate } from './family.js';
import { text } from './readers.js';
import { readDate } from './start-date.js';

const END_WORDS = ['until', 'till', 'til', 'untill', 'through', 'thru', 'ending', 'ends', 'expiring', 'expires'];
const RUN_WORDS = ['times', 'occurrences', 'runs', 'repetitions'];
const DURATION_UNITS: ReadonlyMap<string, 'day' | 'week' | 'month' | 'year'> = new Map([
  ['day', 'day'],
  ['days', 'day'],
  ['week', 'week'],
  ['weeks', 'week'],
  ['month', 'month'],
  ['months', 'month'],
  ['year', 'year'],
  ['years', 'year'],
]);
/** Most runs counted: a count is walked run by run to find the last. */
export const MAX_COUNT = 1000;

const monthOf = (t: Token | undefined): number | undefined => (t?.kind === 'word' ? MONTHS.get(t.lower) : undefined);
const isDay = (t: Token | undefined): t is Token => (t?.kind === 'num' && t.text.length <= 2) || t?.kind === 'ord';

/** "31 December", "December 31", "Dec 31st", "the 31st of December": a date without its year. */
function readDayMonth(free: readonly Token[], i: number): { date: WrittenDate; length: number } | null {
  const the = isWord(free[i], 'the') ? 1 : 0;
  const [a, b, c] = [free[i + the], free[i + the + 1], free[i + the + 2]];
  if (isDay(a) && isWord(b, 'of') && monthOf(c) !== undefined) {
    return { date: { year: null, month: monthOf(c) as number, day: a.value }, length: the + 3 };
  }
  if (the) return null;
  if (isDay(a) && monthOf(b) !== undefined) return { date: { year: null, month: monthOf(b) as number, day: a.value }, length: 2 };
  if (monthOf(a) !== undefined && isDay(b)) return { date: { year: null, month: monthOf(a) as number, day: b.value }, length: 2 };
  return null;
}

/** A date after an end word: with its year ("31 December 2026", "2026-12-31") or without. */
function readEndDate(free: readonly Token[], i: number): { date: WrittenDate; length: number } | null {
  const on = isWord(free[i], 'on', 'by') ? 1 : 0;
  // "until Thursday 31 December 2026": the weekday the read-back says, checked in parse.ts.
  const weekday = WEEKDAYS.has(free[i + on]?.lower ?? '') ? 1 : 0;
  const full = readDate(free, i + on + weekday);
  if (full) return { date: { year: full.year, month: full.month, day: full.day }, length: on + weekday + full.tokens.length };
  const short = readDayMonth(free, i + on + weekday);
  if (!short) return null;
  return { date: short.date, length: on + weekday + short.length };
}

const countOf = (t: Token | undefined): number | null => {
  if (t?.kind === 'num' && t.text.length <= 4) return t.value;
  if (t?.kind !== 'word') return null;
  if (t.lower === 'a' || t.lower === 'one') return 1;
  return CARDINAL_WORDS.get(t.lower) ?? null;
};

function endFact(view: View, tokens: Token[], end: Omit<EndMention, 'text'>): Fact {
  return { kind: 'end', end: { ...end, text: text(view, tokens) } };
}

/** "until 31 December 2026", "ending on Dec 31". */
function readUntil(view: View, i: number): ReturnType<typeof claim> | null {
  const { free } = view;
  const t = free[i];
  const lead = isWord(t, ...END_WORDS)
    ? 1
    : isWord(t, 'end', 'stop', 'stopping') && isWord(free[i + 1], 'on', 'after', 'by')
      ? 2
      : 0;
  if (lead === 0) return null;
  // "June through August 15", "Monday until Friday 3 April": a range of months or days, read elsewhere.
  const [before, after] = [free[i - 1], free[i + lead]];
  const sameKind =
    (monthOf(before) !== undefined && monthOf(after) !== undefined) ||
    (WEEKDAYS.has(before?.lower ?? '') && WEEKDAYS.has(after?.lower ?? ''));
  if (sameKind) return null;
  const date = readEndDate(free, i + lead);
  if (!date) return null;
  const tokens = free.slice(i, i + lead + date.length);
  return claim(view, i, tokens.length, [endFact(view, tokens, { date: date.date })]);
}

/** "10 times", "for 10 occurrences", "after 5 runs", "for 4 weeks", "for the next 3 months". */
function readCount(view: View, i: number): ReturnType<typeof claim> | null {
  const { free } = view;
  const t = free[i];
  if (isWord(t, 'for', 'after')) {
    let j = i + 1;
    while (isWord(free[j], 'the', 'next', 'following', 'only')) j++;
    const n = countOf(free[j]);
    const unit = free[j + 1];
    if (n === null || !unit) return null;
    const tokens = free.slice(i, j + 2);
    const after = t.lower === 'after';
    if (unit.kind === 'word' && [...RUN_WORDS, 'time'].includes(unit.lower)) {
      return claim(view, i, tokens.length, [endFact(view, tokens, { count: n })]);
    }
    const duration = DURATION_UNITS.get(unit.lower);
    if (!duration || after) return null;
    return claim(view, i, tokens.length, [endFact(view, tokens, { duration: { unit: duration, n } })]);
  }
  const n = countOf(t);
  if (n === null || !isWord(free[i + 1], ...RUN_WORDS)) return null;
  // "3 times a week" is a frequency (issue 25, family 5), not a number of runs.
  if (isWord(free[i + 2], 'a', 'an', 'per', 'each', 'every', 'daily', 'weekly', 'monthly', 'yearly', 'annually')) return null;
  const tokens = free.slice(i, i + 2);
  return claim(view, i, 2, [endFact(view, tokens, { count: n })]);
}

export const ends: PhraseFamily = {
  name: 'ends',
  stage: 'start',
  read(view, i) {
    return readUntil(view, i) ?? readCount(view, i);
  },
  /** One end date, one count, one duration; each a sensible size. */
  settle(facts) {
    const found = facts.flatMap((f) => (f.kind === 'end' ? [f.end] : []));
    for (const key of ['date', 'count', 'duration'] as const) {
      const [first, second] = found.filter((e) => e[key] !== undefined);
      if (first && second) {
        throw new ScheduleError(`Only one end of each kind per schedule, found ${quote(first.text)} and ${quote(second.text)}`);
      }
    }
    for (const e of found) {
      const n = e.count ?? e.duration?.n;
      if (n !== undefined && (n < 1 || (e.count !== undefined && n > MAX_COUNT) || n > 1000)) {
        throw new ScheduleError(`${quote(e.text)} is not a supported number (1 to ${MAX_COUNT})`);
      }
    }
  },
};
