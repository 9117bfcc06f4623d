/**
 * Family 8 and the times before it: the (single) time of day. "9am", "17:45", "1730 hrs",
 * "seven am", "half past nine", "quarter to 6", "noon", "at 8". The readers themselves are in
 * ../time-of-day.ts; this family claims what they read, with the "at" before it.
 */
import { contradiction, quote, ScheduleError } from '../errors.js';
import { fixesHalf, readAt, type TimeMention, toTwentyFour } from '../time-of-day.js';
import { isWord, spanText } from '../tokens.js';
import { claim, type PhraseFamily } from './family.js';

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
    return claim(view, i, reading.tokens.length, [{ kind: 'time', time }], isWord(at, 'at') ? [at] : []);
  },
  /** One time per schedule; "12am (midnight)" says the same time twice, which is one time. */
  settle(facts) {
    const times = facts.flatMap((f) => (f.kind === 'time' ? [f.time] : []));
    const [found, ...rest] = times;
    if (!found) return;
    for (const t of rest) {
      const named = t.named || found.named;
      const same = found.time.hour === t.time.hour && found.time.minute === t.time.minute;
      if (named && same) continue;
      if (named) throw contradiction(found.text, t.text);
      throw new ScheduleError(`Only one time of day per schedule is supported, found ${quote(found.text)} and ${quote(t.text)}`);
    }
  },
};
