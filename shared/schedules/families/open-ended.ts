/**
 * Issue 25, family 2, open-ended tails: "indefinitely", "forever", "until further notice", "from
 * now on", "with no end date". They add nothing (every schedule runs until the Knap is
 * deactivated), so they are claimed with no fact. What schedule_info cannot hold is refused here,
 * before the one-off and month readers see its words: an end ("until 31 December 2026", "until
 * June", "through the end of the year") and a number of runs ("for 6 weeks", "10 times").
 * Its own stage, first with the start dates: "until December" must not become "in December".
 */
import { quote, ScheduleError } from '../errors.js';
import { isWord, type Token } from '../tokens.js';
import { CARDINAL_WORDS, MONTHS, WEEKDAYS } from '../vocabulary.js';
import { claim, type PhraseFamily, type View } from './family.js';
import { text } from './readers.js';

/** Word sequences that only say the schedule has no end; "-" inside them ("never-ending") is skipped. */
const TAILS: readonly string[][] = [
  ['indefinitely'],
  ['forever'],
  ['for', 'ever'],
  ['forevermore'],
  ['perpetually'],
  ['permanently'],
  ['endlessly'],
  ['henceforth'],
  ['in', 'perpetuity'],
  ['going', 'forward'],
  ['from', 'now', 'on'],
  ['from', 'now', 'onwards'],
  ['from', 'now', 'onward'],
  ['for', 'the', 'foreseeable', 'future'],
  ['never', 'ending'],
  ['neverending'],
  ['with', 'no', 'end', 'date'],
  ['with', 'no', 'end'],
  ['without', 'an', 'end', 'date'],
  ['without', 'end', 'date'],
  ['without', 'end'],
  ['no', 'end', 'date'],
  ['until', 'further', 'notice'],
  ['till', 'further', 'notice'],
  ['until', 'cancelled'],
  ['until', 'canceled'],
  ['until', 'stopped'],
  ['until', 'disabled'],
  ['until', 'turned', 'off'],
  ['until', 'i', 'stop', 'it'],
  ['until', 'i', 'cancel', 'it'],
  ['until', 'i', 'cancel'],
  ['until', 'deactivated'],
  ['until', 'paused'],
  ['no', 'end'],
  ['ad', 'infinitum'],
  ['ongoing'],
  ['ongoing', 'basis'],
  ['open', 'ended'],
  ['never', 'ends'],

  ['until', 'told', 'otherwise'],
];

/**
 * TAILS by first word, in list order: a tail can only start at a word that is its first, so each
 * position tries the few tails that start there, not all of them (read at every position).
 */
const TAILS_BY_FIRST_WORD: ReadonlyMap<string, readonly string[][]> = (() => {
  const byFirst = new Map<string, string[][]>();
  for (const words of TAILS) {
    const first = words[0] as string;
    byFirst.set(first, [...(byFirst.get(first) ?? []), words]);
  }
  return byFirst;
})();

/** The tokens of a tail starting at i, dashes between its words included, or null. */
function readTail(free: readonly Token[], i: number): Token[] | null {
  const first = free[i];
  const tails = first?.kind === 'word' ? TAILS_BY_FIRST_WORD.get(first.lower) : undefined;
  if (!tails) return null;
  let best: Token[] | null = null;
  for (const words of tails) {
    const tokens: Token[] = [];
    let j = i;
    let ok = true;
    for (const [k, word] of words.entries()) {
      if (k > 0 && free[j]?.kind === 'dash') tokens.push(free[j++] as Token);
      const t = free[j];
      if (!isWord(t, word)) {
        ok = false;
        break;
      }
      tokens.push(t);
      j++;
    }
    if (ok && (!best || tokens.length > best.length)) best = tokens;
  }
  return best;
}

const END_WORDS = ['until', 'till', 'til', 'untill', 'through', 'thru', 'ending', 'ends', 'expiring', 'expires'];
type Kind = 'number' | 'weekday' | 'month' | null;
const kindOf = (t: Token | undefined): Kind => {
  if (t?.kind === 'num' || t?.kind === 'ord') return 'number';
  if (WEEKDAYS.has(t?.lower ?? '')) return 'weekday';
  return MONTHS.has(t?.lower ?? '') ? 'month' : null;
};

/** "Monday until Friday", "June through August", "days 1 through 7": a range, not an end. */
function isRange(free: readonly Token[], i: number, lead: number): boolean {
  const before = kindOf(free[i - 1]);
  return before !== null && before === kindOf(free[i + lead]);
}
const isYear = (t: Token | undefined): boolean => t?.kind === 'num' && /^(19|20|21)\d\d$/.test(t.text);

/** What comes after an end word and makes it an end date: a month, a year, a weekday, "the end of", "tomorrow", "next ...". */
function endDateAt(free: readonly Token[], i: number): boolean {
  let j = i;
  while (isWord(free[j], 'on', 'the', 'in', 'at')) j++;
  const t = free[j];
  if (!t) return false;
  // "until 1700 hrs" is a time of day, not the year 1700.
  if (isYear(t)) return !isWord(free[j + 1], 'hrs', 'hr', 'hours', 'h');
  if (t.kind === 'ord' && (MONTHS.has(free[j + 1]?.lower ?? '') || isWord(free[j + 1], 'of'))) return true;
  if (t.kind === 'num' && t.text.length <= 2 && MONTHS.has(free[j + 1]?.lower ?? '')) return true;
  if (t.kind !== 'word') return false;
  if (MONTHS.has(t.lower) || WEEKDAYS.has(t.lower)) return true;
  return ['end', 'today', 'tomorrow', 'tonight', 'next', 'this', 'coming', 'christmas', 'year', 'month', 'week'].includes(
    t.lower,
  );
}

/** Since issue 46 ends are read (ends.ts): what reaches here is an end in words it does not read. */
const NO_END = 'say the date, e.g. "until 31 December 2026", or a number of runs, e.g. "10 times" or "for 4 weeks"';

/** Words that date an end from today: "until next Friday", "until tomorrow", "till Friday". */
const RELATIVE_DAYS = ['today', 'tomorrow', 'tonight', 'next', 'this', 'coming'];

/** Why the end's words are not read, where it is worth saying: the day is relative to today. */
function whyNoEnd(free: readonly Token[], i: number): string {
  let j = i;
  while (isWord(free[j], 'on', 'the', 'in', 'at')) j++;
  const t = free[j];
  const relative = t?.kind === 'word' && (RELATIVE_DAYS.includes(t.lower) || WEEKDAYS.has(t.lower));
  return relative ? 'an end is read as a calendar date or a length, not as a day counted from today; ' : '';
}

function refuseEndDate(view: View, i: number): never | null {
  const { free } = view;
  const t = free[i];
  if (t?.kind !== 'word') return null;
  const lead = END_WORDS.includes(t.lower)
    ? 1
    : isWord(t, 'end', 'stop', 'stopping') && isWord(free[i + 1], 'on', 'after', 'by')
      ? 2
      : 0;
  if (lead === 0 || isRange(free, i, lead) || !endDateAt(free, i + lead)) return null;
  // Quote up to the end of the date's words, so the user sees what was not kept.
  let j = i + lead;
  while (j < free.length && !isWord(free[j], 'every', 'each', 'at', 'daily', 'weekly', 'monthly')) j++;
  const what = text(view, free.slice(i, Math.max(j, i + lead + 1)));
  throw new ScheduleError(`An end date (${quote(what)}) is not understood: ${whyNoEnd(free, i + lead)}${NO_END}`);
}

const COUNT_UNITS = [
  'day',
  'days',
  'week',
  'weeks',
  'month',
  'months',
  'year',
  'years',
  'time',
  'times',
  'occurrence',
  'occurrences',
  'run',
  'runs',
  'repetitions',
];
const RUN_UNITS = ['times', 'occurrences', 'runs', 'repetitions'];
const countOf = (t: Token | undefined): boolean =>
  t !== undefined && ((t.kind === 'num' && t.text.length <= 4) || CARDINAL_WORDS.has(t.lower) || isWord(t, 'a', 'one'));

/** "for 6 weeks", "for the next 3 months", "10 times", "after 5 occurrences": a number of runs. */
function refuseCount(view: View, i: number): never | null {
  const { free } = view;
  const t = free[i];
  let j = i;
  if (isWord(t, 'for', 'after')) {
    j++;
    while (isWord(free[j], 'the', 'next', 'following', 'only')) j++;
    if (!countOf(free[j]) || !isWord(free[j + 1], ...COUNT_UNITS)) return null;
    // "for a week" after "every day"... is still a limit; "for" + "every" is not read here.
    j += 2;
  } else if (countOf(t) && isWord(free[i + 1], ...RUN_UNITS)) {
    // "3 times a week" is a frequency (family 5), not a number of runs.
    if (isWord(free[i + 2], 'a', 'an', 'per', 'each', 'every', 'daily', 'weekly', 'monthly', 'yearly', 'annually')) return null;
    j += 2;
  } else {
    return null;
  }
  const what = text(view, free.slice(i, j));
  throw new ScheduleError(`A number of runs (${quote(what)}) is not understood: ${NO_END}`);
}

const ALL_WEEK: readonly string[][] = [
  ['including', 'weekends'],
  ['incl', 'weekends'],
  ['weekends', 'included'],
];

/** "daily including weekends": nothing more, but only beside "daily" / "every day" and no day named. */
function readAllWeek(view: View, i: number): Token[] | null {
  const { free, all } = view;
  const words = ALL_WEEK.find((w) => w.every((word, k) => isWord(free[i + k], word)));
  if (!words) return null;
  const tokens = free.slice(i, i + words.length);
  const others = all.filter((t) => !tokens.includes(t));
  const daily = others.some((t) => isWord(t, 'daily', 'day', 'everyday'));
  const dayNamed = others.some((t) => WEEKDAYS.has(t.lower) || /^week(end|day)s?$/.test(t.lower));
  return daily && !dayNamed ? tokens : null;
}

export const openEnded: PhraseFamily = {
  name: 'open-ended tails',
  stage: 'start',
  read(view, i) {
    const tail = readTail(view.free, i) ?? readAllWeek(view, i);
    if (tail) return claim(view, i, tail.length, []);
    return refuseEndDate(view, i) ?? refuseCount(view, i);
  },
};
