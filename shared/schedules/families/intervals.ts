/**
 * Every N days, weeks, months or years: "every 3 days", "every other week", "every second
 * month", "each 2 years"; and "every other Friday", "every 2 Mondays" (a weekly interval; the
 * weekday itself is read by the weekdays family).
 */
import { quote, ScheduleError } from '../errors.js';
import { isWord } from '../tokens.js';
import { MAX_INTERVAL, ORDINAL_WORDS, SELF_CONTAINED_UNITS, UNIT_WORDS, type Unit, WEEKDAYS } from '../vocabulary.js';
import { type Claim, claim, type PhraseFamily, type View } from './family.js';
import { countValue, text } from './readers.js';

function checkInterval(unit: Unit, interval: number, phrase: string): void {
  if (unit === 'quarter' && interval !== 1) {
    throw new ScheduleError(`${quote(phrase)} is not supported: say e.g. "every ${interval * 3} months on the 1st"`);
  }
  if (interval < 1 || interval > MAX_INTERVAL[unit]) {
    throw new ScheduleError(`${quote(phrase)} is not a supported interval (${unit}s: 1 to ${MAX_INTERVAL[unit]})`);
  }
}

/** "every 3 days", "every other week", "every second month", "each 2 years". */
function intervalUnit(view: View, i: number): Claim | null {
  const [every, count, unitWord] = [view.free[i - 1], view.free[i], view.free[i + 1]];
  if (!isWord(every, 'every', 'each') || !unitWord || unitWord.kind !== 'word') return null;
  const unit = UNIT_WORDS.get(unitWord.lower);
  if (!unit || SELF_CONTAINED_UNITS.has(unitWord.lower)) return null;
  const ordinal = count?.kind === 'ord' ? count.value : ORDINAL_WORDS.get(count?.lower ?? '');
  const interval = countValue(count) ?? (ordinal !== undefined && ordinal >= 2 ? ordinal : null);
  if (interval === null || !count) return null;
  const phrase = text(view, [every, unitWord]);
  checkInterval(unit.unit, interval, phrase);
  return claim(view, i, 2, [{ kind: 'unit', unit: { unit: unit.unit, interval, text: phrase } }], [every]);
}

/** "every other Friday", "every 2 Mondays": a weekly interval; the weekday is read next. */
function intervalWeekday(view: View, i: number): Claim | null {
  const [every, count, day] = [view.free[i - 1], view.free[i], view.free[i + 1]];
  if (!isWord(every, 'every', 'each') || !day || !WEEKDAYS.has(day.lower)) return null;
  const interval = countValue(count);
  if (interval === null || !count) return null;
  const phrase = text(view, [every, count]);
  checkInterval('week', interval, phrase);
  return claim(view, i, 1, [{ kind: 'unit', unit: { unit: 'week', interval, text: phrase } }], [every]);
}

export const intervals: PhraseFamily = {
  name: 'intervals',
  stage: 'recurrence',
  read: (view, i) => intervalUnit(view, i) ?? intervalWeekday(view, i),
};
