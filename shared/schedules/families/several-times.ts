/**
 * Issue 46, several times a day: "at 9am and 5pm", "every day at 8:00 and 20:00", "at noon and
 * 5pm on weekdays", "at 9, 13 and 17". Times with am/pm, a colon or a name are each read by
 * times-of-day.ts; this family reads a bare list after "at" ("at 9, 13 and 17", each hour after
 * the first one later than the one before it) and settles all the times together: a time said
 * again in brackets ("12am (midnight)") is the same time, or a contradiction; any other pair is
 * two times of the day, never a contradiction. A window with no frequency ("starting at 9 and
 * finishing at 17") is refused with how to say it.
 */
import { contradiction, quote, ScheduleError } from '../errors.js';
import { readAt, type TimeMention } from '../time-of-day.js';
import { isWord, spanText, type Token } from '../tokens.js';
import { CARDINAL_WORDS, MONTHS } from '../vocabulary.js';
import { claim, type Fact, type PhraseFamily, type View } from './family.js';

/** A bare hour of a list: "9", "13", "nine"; 0 to 23. */
function bareHour(t: Token | undefined): number | null {
  if (t?.kind === 'num' && t.text.length <= 2 && t.value <= 23) return t.value;
  const word = t?.kind === 'word' ? CARDINAL_WORDS.get(t.lower) : undefined;
  return word !== undefined && word <= 23 ? word : null;
}

/** After a list item: what would make it part of something else ("9 and 11 am", "3 and 5 March"). */
const OTHER_THAN_A_LIST = ["o'clock", 'oclock', 'hrs', 'hr', 'hours', 'h', 'minutes', 'mins', 'past', 'to', 'of'];
const endsOtherwise = (t: Token | undefined): boolean =>
  t !== undefined &&
  (t.kind === 'ampm' || t.kind === 'ord' || (t.kind === 'word' && (MONTHS.has(t.lower) || OTHER_THAN_A_LIST.includes(t.lower))));

const pad2 = (n: number): string => String(n).padStart(2, '0');

/**
 * "at 9, 13 and 17", "at 8 and 20": a list of at least two bare hours after "at", the commas
 * skipped by the tokenizer and "and" between the last two. Each hour is the 24-hour hour; they
 * must rise, since "at 9 and 5" most likely means 5pm, which a bare 5 is not.
 */
function readBareList(view: View, i: number): ReturnType<typeof claim> | null {
  const { free } = view;
  if (!isWord(free[i], 'at')) return null;
  const hours: Token[] = [];
  let j = i + 1;
  for (;;) {
    const t = free[j];
    if (bareHour(t) === null || !t) break;
    hours.push(t);
    j++;
    if (isWord(free[j], 'and') && bareHour(free[j + 1]) !== null) j++;
  }
  if (hours.length < 2 || endsOtherwise(free[j])) return null;
  const values = hours.map((t) => bareHour(t) as number);
  const tokens = free.slice(i, j);
  const text = spanText(view.description, tokens);
  for (let k = 1; k < values.length; k++) {
    if ((values[k] as number) <= (values[k - 1] as number)) {
      const [first, later] = [values[0] as number, values[k] as number];
      const pm = later < 12 ? `"at ${first}am and ${later}pm" or ` : '';
      throw new ScheduleError(
        `${quote(text)} is not clear: a bare hour is 24-hour, so ${quote(hours[k]?.text ?? '')} would run before ${quote(hours[k - 1]?.text ?? '')}; say e.g. ${pm}"at ${pad2(first)}:00 and ${pad2(later < 12 ? later + 12 : later)}:00"`,
      );
    }
  }
  const facts: Fact[] = hours.map((t, k) => {
    const hour = values[k] as number;
    const time: TimeMention = { time: { hour, minute: 0 }, text: t.text, explicitHalf: hour > 12 || hour === 0, named: false };
    return { kind: 'time', time };
  });
  return claim(view, i, tokens.length, facts);
}

const WINDOW_ENDS = ['finishing', 'finish', 'ending', 'end', 'ends', 'stopping', 'until', 'till', 'til', 'to', 'through', 'thru'];

/**
 * "starting at 9 and finishing at 17", "from 9am until 5pm" with no frequency: the sub-daily
 * family claims a window beside one, so one left here has none. Not two times: refused.
 */
function refuseBareWindow(view: View, i: number): null {
  const { free, all } = view;
  const t = free[i];
  if (!isWord(t, ...WINDOW_ENDS)) return null;
  const before = all[all.indexOf(t) - 1];
  const previous = isWord(before, 'and') ? all[all.indexOf(t) - 2] : before;
  if (!previous?.used || !(previous.kind === 'clock' || previous.kind === 'num' || previous.kind === 'ampm')) return null;
  const j = isWord(free[i + 1], 'at', 'by') ? i + 2 : i + 1;
  const end = readAt(free, j);
  if (!end) return null;
  const text = spanText(view.description, [t, ...end.tokens]);
  throw new ScheduleError(
    `${quote(text)} closes a window of the day, but nothing says how often to run in it: say e.g. "every hour from 9am to 5pm", or the times, e.g. "at 9am and 5pm"`,
  );
}

export const severalTimes: PhraseFamily = {
  name: 'several times a day',
  stage: 'time',
  read(view, i) {
    return readBareList(view, i) ?? refuseBareWindow(view, i);
  },
  /** A time said again in brackets must be the same time; every other time is one more. */
  settle(facts) {
    let previous: TimeMention | null = null;
    for (const f of facts) {
      if (f.kind !== 'time') continue;
      const t = f.time;
      if (t.restates && previous) {
        const same = previous.time.hour === t.time.hour && previous.time.minute === t.time.minute;
        if (!same) throw contradiction(previous.text, t.text);
      }
      previous = t;
    }
  },
};
