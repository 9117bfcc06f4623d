/**
 * Family 10, one-offs are not recurrences: "tomorrow", "tonight", "this Tuesday at 4pm", "next
 * Friday", "coming Monday" name one date. Refused, never claimed: the detail says how to ask for
 * a recurrence. Bare dates ("April 9th") are refused after resolving, in ../one-offs.ts.
 */
import { quote } from '../errors.js';
import { oneOff } from '../one-offs.js';
import { isWord, spanText, type Token } from '../tokens.js';
import { MONTHS, WEEKDAYS } from '../vocabulary.js';
import type { PhraseFamily } from './family.js';

/** Words that name one day by themselves. */
const DAY_DEICTICS = ['today', 'tomorrow', 'tonight', 'yesterday', 'tmrw', 'tmr'];
/** Words that pick one occurrence of the weekday or month after them. */
const PICKERS = ['this', 'next', 'coming', 'upcoming'];

const isDayOrMonth = (t: Token | undefined): t is Token => t?.kind === 'word' && (WEEKDAYS.has(t.lower) || MONTHS.has(t.lower));

export const deicticDates: PhraseFamily = {
  name: 'one-off dates',
  stage: 'one-offs',
  read({ free, description }, i) {
    const t = free[i];
    if (t?.kind !== 'word') return null;
    if (DAY_DEICTICS.includes(t.lower)) throw oneOff(quote(t.text), 'every day at 9am');
    // Not "last": "last Friday" is the last Friday of each month.
    const picked = free[i + 1];
    if (!PICKERS.includes(t.lower) || !isDayOrMonth(picked)) return null;
    // "run this Mondays and Fridays", "run this Monday to Friday": "this" is the knap, not a pick.
    const after = free[i + 2];
    const range = after?.kind === 'dash' || isWord(after, 'to', 'through', 'thru', 'till', 'until');
    if (t.lower === 'this' && (/days$/.test(picked.lower) || range)) return null;
    const example = WEEKDAYS.has(picked.lower) ? `every ${picked.text}` : `every year on ${picked.text} 1`;
    throw oneOff(`${quote(t.text)} (in ${quote(spanText(description, [t, picked]))})`, example);
  },
};
