/**
 * Months and dates: "January, April and July", "Dec 25", "3 March", "the 15 of every month",
 * "January through March", "Nov-Feb" (wraps over the new year), and cron descriptions' "only in
 * March and April" (with no day named, every day of those months).
 */
import { isWord, type Token } from '../tokens.js';
import { MONTHS } from '../vocabulary.js';
import { claim, type Fact, type PhraseFamily } from './family.js';
import { isDayNumber, isMonthAt, monthDayFacts, RANGE_WORDS } from './readers.js';

/** A bare day number before a month or after "the": "3 March", "the 15 of every month". */
export const bareMonthDays: PhraseFamily = {
  name: 'bare days of the month',
  stage: 'recurrence',
  read(view, i) {
    const t = view.free[i];
    const ofWord = isWord(view.free[i + 1], 'of') ? 1 : 0;
    if (!isDayNumber(t) || !(isMonthAt(view.free, i + 1 + ofWord) || isWord(view.free[i - 1], 'the'))) return null;
    return claim(view, i, 1, monthDayFacts(view, [{ value: t.value, tokens: [t] }]));
  },
};

/** "January through March", "Jun-Aug", "November to February" (wraps over the new year). */
function readMonthRange(free: readonly Token[], i: number): { values: number[]; tokens: Token[] } | null {
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
export const months: PhraseFamily = {
  name: 'months',
  stage: 'recurrence',
  read(view, i) {
    const { free } = view;
    if (!isMonthAt(free, i)) return null;
    const facts: Fact[] = [];
    // Cron descriptions (cronstrue): "only in March and April" is every day of those months.
    if (isWord(free[i - 1], 'in', 'during') && isWord(free[i - 2], 'only')) facts.push({ kind: 'onlyInMonths' });
    let j = i;
    while (isMonthAt(free, j)) {
      const month = free[j] as Token;
      const range = readMonthRange(free, j);
      if (range) {
        // Each month is quoted once in messages: the first by "January", the others by "March".
        range.values.forEach((value, k) => {
          facts.push({ kind: 'month', month: { value, token: (k === 0 ? range.tokens[0] : range.tokens[2]) as Token } });
        });
        j += range.tokens.length;
        if (isWord(free[j], 'and') && isMonthAt(free, j + 1)) j++;
        continue;
      }
      facts.push({ kind: 'month', month: { value: MONTHS.get(month.lower) as number, token: month } });
      j++;
      const day = free[j];
      if (isDayNumber(day)) {
        facts.push(...monthDayFacts(view, [{ value: day.value, tokens: [day] }]));
        j++;
      }
      if (isWord(free[j], 'and') && isMonthAt(free, j + 1)) j++;
    }
    // "from March to October", "during June": the word before is the months' own (issue 25).
    const before = free[i - 1];
    const lead = (isWord(before, 'from') && readMonthRange(free, i)) || isWord(before, 'during') ? [before as Token] : [];
    return claim(view, i, j - i, facts, lead);
  },
};
