/**
 * Family 8 and the times before it: each time of day. "9am", "17:45", "1730 hrs", "seven am",
 * "half past nine", "quarter to 6", "noon", "at 8". The readers themselves are in
 * ../time-of-day.ts; this family claims what they read, with the "at" before it. Several times
 * ("at 9am and 5pm") are several facts: families/several-times.ts reads bare lists and settles
 * them together.
 */
import { fixesHalf, readAt, type TimeMention, toTwentyFour } from '../time-of-day.js';
import { isWord, spanText, type Token } from '../tokens.js';
import { claim, type PhraseFamily, type View } from './family.js';

/** Tokens a time is made of: a time right before another, in brackets, is said twice. */
const TIME_WORDS = ['noon', 'midday', 'midnight', "o'clock", 'oclock', 'hrs', 'hr', 'hours', 'h'];
const isTimeToken = (t: Token | undefined): boolean =>
  t?.used === true && (t.kind === 'clock' || t.kind === 'num' || t.kind === 'ampm' || isWord(t, ...TIME_WORDS));

/** "12am (midnight)": the reading at `first` follows a claimed time with only a bracket between. */
function restatesPrevious(view: View, first: Token): boolean {
  const k = view.all.indexOf(first);
  const before = view.all[k - 1];
  if (!isTimeToken(before)) return false;
  return /^\s*[([]\s*$/.test(view.description.slice(before?.end ?? 0, first.start));
}

export const timesOfDay: PhraseFamily = {
  name: 'times of day',
  stage: 'time',
  read(view, i) {
    const reading = readAt(view.free, i);
    if (!reading) return null;
    const text = spanText(view.description, reading.tokens);
    const time: TimeMention = {
      time: toTwentyFour(reading, text),
      text,
      explicitHalf: fixesHalf(reading),
      named: reading.named === true,
    };
    const at = view.free[i - 1];
    if (restatesPrevious(view, isWord(at, 'at') ? at : (reading.tokens[0] as Token))) time.restates = true;
    return claim(view, i, reading.tokens.length, [{ kind: 'time', time }], isWord(at, 'at') ? [at] : []);
  },
};
