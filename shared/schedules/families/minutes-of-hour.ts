/**
 * The minute of each hour of an hourly schedule (family 1 of issue 9, grown by issue 25's family
 * 6): ":15", "15 past the hour", "quarter past", "on the hour", "at minute 15", and since issue
 * 25 "quarter to" / "ten to the hour" (minutes before the next hour), "on the half hour", "at the
 * top / bottom of the hour", "at the 30 minute mark" and a two-digit "at 45". Read by the
 * sub-daily family, only when the description has a frequency ("every hour", "hourly").
 */
import { quote, ScheduleError } from '../errors.js';
import { isWord, type Token } from '../tokens.js';
import { CARDINAL_WORDS } from '../vocabulary.js';
import { type Claim, claim, type View } from './family.js';
import { text } from './readers.js';

export const MINUTE_WORDS = ['minute', 'minutes', 'min', 'mins'];

const MINUTE_NAMES: ReadonlyMap<string, number> = new Map([
  ['quarter', 15],
  ['half', 30],
  ['twenty', 20],
  ...[...CARDINAL_WORDS].filter(([, n]) => n % 5 === 0),
]);

function minuteFact(view: View, i: number, length: number, minute: number, before: Token[], toHour = false): Claim {
  const tokens = [...before, ...view.free.slice(i, i + length)];
  const fact = { minute, text: text(view, tokens), ...(toHour ? { toHour } : {}) };
  return claim(view, i, length, [{ kind: 'minuteOfHour', minute: fact }], before);
}

/** "the hour", "every hour", "each hour", "hourly" after "past" / "to": how many tokens to take ("the hour" only). */
function hourAfter(free: readonly Token[], j: number): number {
  return isWord(free[j], 'the') && isWord(free[j + 1], 'hour') ? 2 : 0;
}

/** Whether a number (or a number word) follows: then "quarter to 6" is a time of day, not a minute. */
function numberAt(free: readonly Token[], j: number): boolean {
  const t = free[j];
  return (
    t !== undefined && (t.kind === 'num' || t.kind === 'clock' || CARDINAL_WORDS.has(t.lower) || isWord(t, 'noon', 'midnight'))
  );
}

/** "on the hour", "on the half hour", "at the top of the hour", "at the bottom of every hour". */
function namedMinute(view: View, i: number): Claim | null {
  const { free } = view;
  const [t, the, next] = [free[i], free[i + 1], free[i + 2]];
  if (isWord(t, 'on', 'at') && isWord(the, 'the')) {
    if (isWord(next, 'hour')) return minuteFact(view, i, 3, 0, []);
    const dash = free[i + 3]?.kind === 'dash' ? 1 : 0;
    if (isWord(next, 'half') && isWord(free[i + 3 + dash], 'hour')) return minuteFact(view, i, 4 + dash, 30, []);
  }
  if (isWord(t, 'top', 'bottom') && isWord(the, 'of')) {
    const the2 = isWord(next, 'the', 'every', 'each') ? 1 : 0;
    if (!isWord(free[i + 2 + the2], 'hour')) return null;
    const before = [free[i - 2], free[i - 1]].filter((b): b is Token => isWord(b, 'at', 'the'));
    return minuteFact(view, i, 3 + the2, t.lower === 'top' ? 0 : 30, before.length === 2 ? before : []);
  }
  return null;
}

function checkMinute(view: View, tokens: Token[], minute: number): void {
  if (minute > 59) throw new ScheduleError(`${quote(text(view, tokens))} is not a minute of the hour (0 to 59)`);
}

/**
 * The minute of the hour at position i: ":15", "15 past the hour", "quarter past", "20 minutes
 * past the hour", "on the hour", "at minute 15", "quarter to", "at 45", "the 30 minute mark".
 */
export function readMinute(view: View, i: number): Claim | null {
  const { free, description } = view;
  const [t, next] = [free[i], free[i + 1]];
  const at = isWord(free[i - 1], 'at') ? [free[i - 1] as Token] : [];
  const named = namedMinute(view, i);
  if (named) return named;
  // ":15": the colon is skipped by the tokenizer, so look at the text itself.
  if (t?.kind === 'num' && t.text.length === 2 && description[t.start - 1] === ':') {
    if (t.value > 59) throw new ScheduleError(`${quote(`:${t.text}`)} is not a minute of the hour (:00 to :59)`);
    // "at xx:30", "at HH:30", "at *:30": any hour.
    const anyHour: Token | undefined = free[i - 1];
    const hourMark = anyHour?.end === t.start - 1 && (anyHour.text === '*' || ['xx', 'hh'].includes(anyHour.lower));
    if (hourMark) {
      const before = isWord(free[i - 2], 'at') ? [free[i - 2] as Token, anyHour] : [anyHour];
      return minuteFact(view, i, 1, t.value, before);
    }
    return minuteFact(view, i, 1, t.value, at);
  }
  // "at the 15th minute of every hour"
  if (t?.kind === 'ord' && isWord(next, 'minute') && isWord(free[i + 2], 'of', 'past', 'after')) {
    checkMinute(view, [t, next], t.value);
    return minuteFact(view, i, 2, t.value, at);
  }
  if (isWord(t, 'minute') && next?.kind === 'num' && next.text.length <= 2) {
    checkMinute(view, [t, next], next.value);
    // crontab.guru: "At minute 15 past every hour".
    const past = isWord(free[i + 2], 'past', 'after') && !numberAt(free, i + 3) ? 1 : 0;
    return minuteFact(view, i, 2 + past, next.value, at);
  }
  // "the 30 minute mark": the "the" before is filler.
  if (t?.kind === 'num' && t.text.length <= 2 && isWord(next, ...MINUTE_WORDS) && isWord(free[i + 2], 'mark')) {
    checkMinute(view, [t], t.value);
    return minuteFact(view, i, 3, t.value, at);
  }
  const minute = t?.kind === 'num' && t.text.length <= 2 ? t.value : MINUTE_NAMES.get(t?.kind === 'word' ? t.lower : '');
  if (minute === undefined || !t) return null;
  const minutesWord = isWord(next, ...MINUTE_WORDS) ? 1 : 0;
  const word = free[i + 1 + minutesWord];
  const link = (w: Token | undefined): boolean => isWord(w, 'past', 'after', 'to', 'before', 'til', 'till');
  // "at 45" in an hourly schedule: two digits, nothing after that would make it a time of day.
  if (!word || (!minutesWord && !link(word))) {
    const plain = at.length > 0 && t.kind === 'num' && t.text.length === 2 && !minutesWord;
    const timeAfter = word?.kind === 'ampm' || isWord(word, "o'clock", 'oclock', 'hrs', 'hr', 'h');
    if (!plain || timeAfter) return null;
    checkMinute(view, [t], minute);
    return minuteFact(view, i, 1, minute, at);
  }
  // "15 past", "15 minutes past the hour", "quarter past": not "quarter past 9", a time of day.
  if (!link(word)) return null;
  const theHour = hourAfter(free, i + 2 + minutesWord);
  if (!theHour && numberAt(free, i + 2 + minutesWord)) return null;
  const tokens = [t, ...free.slice(i + 1, i + 2 + minutesWord)];
  if (word.lower === 'past' || word.lower === 'after') {
    checkMinute(view, tokens, minute);
    return minuteFact(view, i, 2 + minutesWord + theHour, minute, at);
  }
  // "quarter to", "ten to the hour", "5 minutes before the hour"; "half to" is not English.
  if (isWord(t, 'half') || minute < 1 || minute > 59) {
    throw new ScheduleError(`${quote(text(view, tokens))} is not a minute of the hour: say e.g. "quarter to" or ":45"`);
  }
  return minuteFact(view, i, 2 + minutesWord + theHour, 60 - minute, at, true);
}
