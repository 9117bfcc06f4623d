/**
 * One-offs are not recurrences: a bare date such as "April 9th at 7am" describes one date. It is
 * refused rather than read as a yearly schedule, and the detail says how to ask for a recurrence
 * instead. "tomorrow", "this Tuesday", "next Friday" are refused earlier, by families/one-offs.ts.
 */
import { quote, ScheduleError } from './errors.js';
import type { Facts } from './families/index.js';
import { isWord, spanText, type Token } from './tokens.js';

const HINT = 'this describes one date; say "every ..." for a recurrence';

export function oneOff(what: string, example: string): ScheduleError {
  return new ScheduleError(`${what} is a one-off date: ${HINT}, e.g. ${quote(example)}`);
}

/**
 * After the grammar: one month and one day in it ("April 9th", "the fourth Thursday of November")
 * with no repeat word ("every", "each", "yearly", "annually", "every 2 years") is one date.
 */
export function rejectBareDate(tokens: readonly Token[], facts: Facts, description: string): void {
  if (!isBareDate(tokens, facts)) return;
  refuseBareDate(facts, description);
}

/**
 * One month and one day in it ("April 9th", "the fourth Thursday of November") and no repeat word:
 * one date. Since issue 46 a one-off run ("once") of the words without a sub-daily frequency.
 */
export function isBareDate(tokens: readonly Token[], facts: Facts): boolean {
  // "only in March" (cron descriptions) restricts a recurrence to a month: not a date.
  if (facts.units.length > 0 || facts.weekdayGroups.length > 0 || facts.months.length !== 1 || facts.onlyInMonths) return false;
  // "the first business day of January" is one date too: set positions pick one day each.
  const days = facts.monthDays.length + facts.nth.reduce((n, m) => n + m.weeks.length * (m.setPositions ? 1 : m.days.length), 0);
  if (days !== 1) return false;
  return !tokens.some((t) => isWord(t, 'every', 'each'));
}

function refuseBareDate(facts: Facts, description: string): never {
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
