/**
 * One-offs are not recurrences: "tomorrow at 9", "this Tuesday at 4pm", "next Friday" and a bare
 * date such as "April 9th at 7am" describe one date. They are refused rather than read as weekly
 * or yearly schedules, and the detail says how to ask for a recurrence instead.
 */
import { quote, ScheduleError } from './errors.js';
import type { Facts } from './grammar.js';
import { isWord, spanText, type Token, unused } from './tokens.js';
import { MONTHS, WEEKDAYS } from './vocabulary.js';

const HINT = 'this describes one date; say "every ..." for a recurrence';

/** Words that name one day by themselves. */
const DAY_DEICTICS = ['today', 'tomorrow', 'tonight', 'yesterday', 'tmrw', 'tmr'];
/** Words that pick one occurrence of the weekday or month after them. */
const PICKERS = ['this', 'next', 'coming', 'upcoming'];

function oneOff(what: string, example: string): ScheduleError {
  return new ScheduleError(`${what} is a one-off date: ${HINT}, e.g. ${quote(example)}`);
}

const isDayOrMonth = (t: Token | undefined): t is Token => t?.kind === 'word' && (WEEKDAYS.has(t.lower) || MONTHS.has(t.lower));

/** Before the grammar runs: "tomorrow", "tonight", "this Tuesday", "next Friday", "coming Monday". */
export function rejectDeicticDates(tokens: readonly Token[], description: string): void {
  const free = unused(tokens);
  for (let i = 0; i < free.length; i++) {
    const t = free[i] as Token;
    if (t.kind === 'word' && DAY_DEICTICS.includes(t.lower)) throw oneOff(quote(t.text), 'every day at 9am');
    // Not "last": "last Friday" is the last Friday of each month.
    const picked = free[i + 1];
    if (t.kind !== 'word' || !PICKERS.includes(t.lower) || !isDayOrMonth(picked)) continue;
    // "run this Mondays and Fridays", "run this Monday to Friday": "this" is the knap, not a pick.
    const after = free[i + 2];
    const range = after?.kind === 'dash' || isWord(after, 'to', 'through', 'thru', 'till', 'until');
    if (t.lower === 'this' && (/days$/.test(picked.lower) || range)) continue;
    const example = WEEKDAYS.has(picked.lower) ? `every ${picked.text}` : `every year on ${picked.text} 1`;
    throw oneOff(`${quote(t.text)} (in ${quote(spanText(description, [t, picked]))})`, example);
  }
}

/**
 * After the grammar: one month and one day in it ("April 9th", "the fourth Thursday of November")
 * with no repeat word ("every", "each", "yearly", "annually", "every 2 years") is one date.
 */
export function rejectBareDate(tokens: readonly Token[], facts: Facts, description: string): void {
  // "only in March" (cron descriptions) restricts a recurrence to a month: not a date.
  if (facts.units.length > 0 || facts.weekdayGroups.length > 0 || facts.months.length !== 1 || facts.onlyInMonths) return;
  const days = facts.monthDays.length + facts.nth.reduce((n, m) => n + m.weeks.length * m.days.length, 0);
  if (days !== 1) return;
  if (tokens.some((t) => isWord(t, 'every', 'each'))) return;
  const month = facts.months[0] as { token: Token };
  const day = facts.monthDays[0]?.token;
  const what = day
    ? spanText(
        description,
        [day, month.token].sort((a, b) => a.start - b.start),
      )
    : month.token.text;
  const nth = facts.nth[0];
  const example = nth ? `every year on the ${nth.text} of ${month.token.text}` : `every year on ${what}`;
  throw oneOff(quote(day ? what : `${nth?.text ?? ''} of ${month.token.text}`), example);
}
