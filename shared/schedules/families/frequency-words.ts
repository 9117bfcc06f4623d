/**
 * Issue 25, family 5, a frequency word narrowed by a rule: "twice a month, on the 3rd and the
 * 18th", "three times a week on Mon, Wed and Fri", "3x a week", "semi-monthly on the 1st and 15th", and "daily
 * on the 5th and 20th of the month" (the narrower rule wins). "N times a <unit>" is the unit, and
 * the days named must be exactly N in each unit (checkTimesPer, after resolving); alone it says
 * too little and is refused. "twice a day" needs that many times of day ("twice a day at 9am and
 * 5pm", issue 46). A daily word beside a month (quarter, year) and days of the month
 * or nth weekdays is dropped before resolving (narrowDaily), and so is a weekly one ("weekly on
 * the first Monday of the month"): the days say when it runs.
 */
import { contradiction, quote, ScheduleError } from '../errors.js';
import type { Recurrence } from '../resolve.js';
import { isWord, type Token } from '../tokens.js';
import { CARDINAL_WORDS, UNIT_WORDS, type Unit } from '../vocabulary.js';
import { claim, type PhraseFamily, type UnitMention, type View } from './family.js';
import type { Facts } from './index.js';
import { text } from './readers.js';

/** "twice a month": runs per unit, checked against the days named. */
export interface TimesPerMention {
  count: number;
  unit: Unit;
  text: string;
}

const ADVERBS: ReadonlyMap<string, Unit> = new Map([
  ['daily', 'day'],
  ['weekly', 'week'],
  ['monthly', 'month'],
  ['yearly', 'year'],
  ['annually', 'year'],
]);
/** "semi-monthly" / "semimonthly": twice a month (the tokenizer splits "semi-monthly"). */
const SEMI: ReadonlyMap<string, Unit> = new Map([
  ['semimonthly', 'month'],
  ['semiweekly', 'week'],
  ['semiannually', 'year'],
  ['semiannual', 'year'],
  ['biannually', 'year'],
  ['biannual', 'year'],
]);

/**
 * isWord without narrowing: a false answer says nothing about the token's type. isWord itself,
 * typed so, rather than a wrapper that gathers and spreads the words once more on every call.
 */
const wordIs: (t: Token | undefined, ...words: string[]) => boolean = isWord;

/** "twice", "thrice", "3 times", "three times": the count and how many tokens it takes. */
function readCount(free: readonly Token[], i: number): { count: number; length: number } | null {
  const t = free[i];
  if (wordIs(t, 'twice')) return { count: 2, length: 1 };
  if (wordIs(t, 'thrice')) return { count: 3, length: 1 };
  // "3x a week": the tokenizer splits "3x" into "3" and "x".
  if (t?.kind === 'num' && t.text.length <= 2 && isWord(free[i + 1], 'x') && t.end === free[i + 1]?.start) {
    return { count: t.value, length: 2 };
  }
  if (!t || !isWord(free[i + 1], 'times')) return null;
  const count = t.kind === 'num' && t.text.length <= 2 ? t.value : (CARDINAL_WORDS.get(t.kind === 'word' ? t.lower : '') ?? null);
  return count === null ? null : { count, length: 2 };
}

/** "a month", "per week", "each year", "monthly": the unit after a count, and its tokens. */
function readPer(free: readonly Token[], i: number): { unit: Unit; length: number } | null {
  const t = free[i];
  const adverb = t?.kind === 'word' ? ADVERBS.get(t.lower) : undefined;
  if (adverb) return { unit: adverb, length: 1 };
  if (!isWord(t, 'a', 'an', 'per', 'each', 'every')) return null;
  const unitWord = free[i + 1];
  const unit = unitWord?.kind === 'word' ? UNIT_WORDS.get(unitWord.lower) : undefined;
  if (unit?.interval !== 1 || !['day', 'week', 'month', 'year'].includes(unitWord?.lower ?? '')) return null;
  return { unit: unit.unit, length: 2 };
}

function facts(view: View, i: number, length: number, count: number, unit: Unit): ReturnType<typeof claim> {
  const phrase = text(view, view.free.slice(i, i + length));
  if (count < 1) throw new ScheduleError(`${quote(phrase)} is not a number of runs`);
  return claim(view, i, length, [
    { kind: 'unit', unit: { unit, interval: 1, text: phrase } },
    { kind: 'timesPer', timesPer: { count, unit, text: phrase } },
  ]);
}

export const frequencyWords: PhraseFamily = {
  name: 'frequency words',
  stage: 'recurrence',
  read(view, i) {
    const { free } = view;
    const t = free[i];
    // "semi-monthly", "semimonthly", "bi-weekly" is every 2 weeks (units), not twice a week.
    if (isWord(t, 'semi') && free[i + 1]?.kind === 'dash') {
      const unit = SEMI.get(`semi${free[i + 2]?.lower ?? ''}`);
      return unit ? facts(view, i, 3, 2, unit) : null;
    }
    const semi = t?.kind === 'word' ? SEMI.get(t.lower) : undefined;
    if (semi) return facts(view, i, 1, 2, semi);
    const count = readCount(free, i);
    if (!count) return null;
    // "twice-monthly"
    const dash = free[i + count.length]?.kind === 'dash' ? 1 : 0;
    const per = readPer(free, i + count.length + dash);
    if (!per) return null;
    return facts(view, i, count.length + dash + per.length, count.count, per.unit);
  },
};

/**
 * "daily on the 5th and 20th of the month": a daily word beside a month, quarter or year unit
 * and days of the month or nth weekdays is dropped, so the days decide. "every day on the 15th",
 * with no month unit, still contradicts itself.
 */
// "weekly on the first Monday of the month" too: a plain week gives way as a day does.
const isDaily = (u: UnitMention) => (u.unit === 'day' || u.unit === 'week') && u.interval === 1;
const monthOnly = (u: UnitMention) => u.unit === 'month' && u.interval === 1;

export function narrowDaily(facts: Facts): Facts {
  const longer = facts.units.some((u) => u.unit === 'month' || u.unit === 'quarter' || u.unit === 'year');
  const days = facts.monthDays.length + facts.nth.length + facts.weeksOfMonth.length > 0;
  // cronstrue's "on day 1 of the month, only in January": the month named narrows "the month".
  if (facts.onlyInMonths && facts.months.length > 0 && days && facts.units.some(monthOnly)) {
    return narrowDaily({ ...facts, units: facts.units.filter((u) => !monthOnly(u)) });
  }
  if (!longer || !days || !facts.units.some(isDaily)) return facts;
  return { ...facts, units: facts.units.filter((u) => !isDaily(u)) };
}

/** How many runs a recurrence has in each unit, or null when the unit is not its period. */
function runsPer(r: Recurrence, unit: Unit): number | null {
  const inMonth = r.days_of_month?.length ?? (r.weeks_of_month?.length ?? 0) * (r.days_of_week?.length ?? 0);
  if (r.interval !== 1) return null;
  if (unit === 'week') return r.schedule_type === 'weekly' && !r.months_of_year ? (r.days_of_week?.length ?? 0) : null;
  if (unit === 'month') return r.schedule_type === 'monthly' && !r.months_of_year ? inMonth : null;
  if (unit === 'year') return r.schedule_type === 'yearly' ? inMonth * (r.months_of_year?.length ?? 0) : null;
  return null;
}

/** "twice a day at 9am and 5pm": as many times of day as runs a day (issue 46). */
function checkTimesADay(times: TimesPerMention, facts: Facts): void {
  const found = facts.times.length;
  if (found === times.count) return;
  const example = `"${times.text} at 9am and 5pm"`;
  if (found === 0) {
    throw new ScheduleError(
      `Please say the times of day ${quote(times.text)} runs at, e.g. ${example}; for runs spread over the day say e.g. "every 12 hours"`,
    );
  }
  const named = facts.times.map((t) => quote(t.text)).join(', ');
  throw new ScheduleError(`${quote(times.text)} does not match the times named (${named}): say e.g. ${example}`);
}

/** "twice a month" must name two days a month: the 3rd and the 18th, not one and not three. */
export function checkTimesPer(facts: Facts, recurrence: Recurrence): void {
  const [times, other] = facts.timesPer;
  if (!times) return;
  if (other) throw contradiction(times.text, other.text);
  if (times.unit === 'day') {
    checkTimesADay(times, facts);
    return;
  }
  const named = facts.weekdayGroups.length + facts.monthDays.length + facts.nth.length + facts.weeksOfMonth.length > 0;
  const example: Readonly<Record<Unit, string>> = {
    day: '',
    week: `"${times.text}, on Mondays and Thursdays"`,
    month: `"${times.text}, on the 1st and 15th"`,
    quarter: '',
    year: `"${times.text}, on 1 January and 1 July"`,
  };
  if (!named) throw new ScheduleError(`Please say which days ${quote(times.text)} runs on, e.g. ${example[times.unit]}`);
  const runs = runsPer(recurrence, times.unit);
  if (runs !== times.count) {
    const found = runs === null ? 'other days' : `${runs} day${runs === 1 ? '' : 's'} a ${times.unit}`;
    throw new ScheduleError(`${quote(times.text)} does not match the days named (${found}): say e.g. ${example[times.unit]}`);
  }
}
