/**
 * Family 10 and issue 46, family 4, one-off runs: "tomorrow at 9", "today at 5pm", "next Friday
 * at 3pm", "this Tuesday", "coming Monday" (relative to today in the schedule's zone), and a
 * written date with its year, "on 3 March 2027 at 14:00", "once on Wednesday 3 March 2027",
 * "2027-03-03": schedule_type "once" (parse.ts). "tonight", "yesterday" and a picked month ("next
 * April") stay refused, with how to say it. Bare dates without a year ("April 9th") are read
 * after resolving, in parse.ts.
 */
import { quote, ScheduleError } from '../errors.js';
import { oneOff } from '../one-offs.js';
import { isWord, spanText, type Token } from '../tokens.js';
import { MONTHS, WEEKDAYS } from '../vocabulary.js';
import { claim, type PhraseFamily } from './family.js';
import type { RelativeDay } from './relative-start.js';
import { checkDate, readDate } from './start-date.js';

/** Words that name one day by themselves, and the day they name. */
const DAY_DEICTICS: ReadonlyMap<string, number> = new Map([
  ['today', 0],
  ['tomorrow', 1],
  ['tmrw', 1],
  ['tmr', 1],
]);
/**
 * "tonight at 11": its time as "today at" would read it, evening made explicit ("11pm"), so the
 * hint does not suggest the morning; "9pm" when no time follows.
 */
function eveningOf(free: readonly Token[], i: number, description: string): string {
  const [at, time, ampm] = [free[i + 1], free[i + 2], free[i + 3]];
  if (!isWord(at, 'at') || (time?.kind !== 'num' && time?.kind !== 'clock')) return '9pm';
  if (ampm?.kind === 'ampm') return spanText(description, [time, ampm]);
  const hour = Number.parseInt(time.text, 10);
  // A bare hour 1-11 is the evening's; 12 and 24-hour times are said as written.
  return hour >= 1 && hour <= 11 ? `${time.text}pm` : time.text;
}

/** "tonight" and "yesterday": refused, saying why and what to write instead. */
function refuseDeictic(t: Token, free: readonly Token[], i: number, description: string): never {
  if (t.lower === 'yesterday') {
    throw new ScheduleError(`${quote(t.text)} is already past: say e.g. "tomorrow at 9am" for one run or "every day at 9am"`);
  }
  const time = eveningOf(free, i, description);
  throw new ScheduleError(
    `${quote(t.text)} is not read: it could mean one run or every night, and does not always say the hour. For one run say ${quote(`today at ${time}`)}; for every night, ${quote(`every day at ${time}`)}`,
  );
}

const REFUSED_DEICTICS = ['tonight', 'yesterday'];
/** Words that pick one occurrence of the weekday or month after them. */
const PICKERS = ['this', 'next', 'coming', 'upcoming'];

const isDayOrMonth = (t: Token | undefined): t is Token => t?.kind === 'word' && (WEEKDAYS.has(t.lower) || MONTHS.has(t.lower));

export const deicticDates: PhraseFamily = {
  name: 'one-off dates',
  stage: 'one-offs',
  read(view, i) {
    const { free, description } = view;
    const t = free[i];
    if (t?.kind !== 'word') return null;
    const offset = DAY_DEICTICS.get(t.lower);
    if (offset !== undefined) {
      const relative: RelativeDay = { kind: 'day', offset };
      return claim(view, i, 1, [{ kind: 'once', once: { date: null, relative, text: t.text } }]);
    }
    if (REFUSED_DEICTICS.includes(t.lower)) refuseDeictic(t, free, i, description);
    // Not "last": "last Friday" is the last Friday of each month.
    const picked = free[i + 1];
    if (!PICKERS.includes(t.lower) || !isDayOrMonth(picked)) return null;
    // "run this Mondays and Fridays", "run this Monday to Friday": "this" is the knap, not a pick.
    const after = free[i + 2];
    const range = after?.kind === 'dash' || isWord(after, 'to', 'through', 'thru', 'till', 'until');
    if (t.lower === 'this' && (/days$/.test(picked.lower) || range)) return null;
    const weekday = WEEKDAYS.get(picked.lower);
    // "next Monday to Friday": a range of days is no one-off run, and not a recurrence either.
    if (weekday === undefined || /days$/.test(picked.lower) || range) {
      const example = weekday !== undefined ? `every ${picked.text}` : `every year on ${picked.text} 1`;
      throw oneOff(`${quote(t.text)} (in ${quote(spanText(description, [t, picked]))})`, example);
    }
    // "next Friday" is the Friday of next week (as relative-start.ts reads it), "this Friday" the coming one.
    const relative: RelativeDay = { kind: 'weekday', day: weekday, after: t.lower === 'next' };
    const text = spanText(description, [t, picked]);
    return claim(view, i, 2, [{ kind: 'once', once: { date: null, relative, text } }]);
  },
};

/** "on 3 March 2027", "once on Wednesday 3 March 2027", "2027-03-03": a date with its year. */
export const writtenDates: PhraseFamily = {
  name: 'written dates',
  stage: 'one-offs',
  read(view, i) {
    const { free, description } = view;
    const weekdayToken = free[i];
    const weekday =
      weekdayToken?.kind === 'word' && !/days$/.test(weekdayToken.lower) ? WEEKDAYS.get(weekdayToken.lower) : undefined;
    const reading = readDate(free, weekday === undefined ? i : i + 1);
    if (!reading) return null;
    const tokens = [...(weekday === undefined ? [] : [weekdayToken as Token]), ...reading.tokens];
    const text = spanText(description, tokens);
    const { year, month, day } = reading;
    checkDate(reading, weekday, text);
    return claim(view, i, tokens.length, [{ kind: 'once', once: { date: { year, month, day }, relative: null, text } }]);
  },
  settle(facts) {
    const onces = facts.flatMap((f) => (f.kind === 'once' ? [f.once] : []));
    const [first, second] = onces;
    if (first && second)
      throw new ScheduleError(`Only one date per one-off run, found ${quote(first.text)} and ${quote(second.text)}`);
  },
};
