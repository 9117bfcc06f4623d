/**
 * Ordinals (family 6 and the days of the month): "first Monday", "every 4th Monday", "second
 * and fourth Tuesday", "the 1st and 15th", "last day", "twenty-first". "first business day"
 * is refused: schedule_info cannot pick exactly the nth working day of a month.
 */
import { quote, ScheduleError } from '../errors.js';
import { isWord, type Token } from '../tokens.js';
import { claim, type Fact, type PhraseFamily, type View } from './family.js';
import {
  DAY_WORDS,
  type Item,
  isWeekdayGroupStart,
  monthDayFacts,
  readOrdinalList,
  readWeekdayItem,
  readWeekdayList,
  text,
  type WeekdayList,
} from './readers.js';

function nthFact(view: View, i: number, items: Item[], tokens: Token[], day: WeekdayList): Fact {
  for (const it of items) {
    if (it.value === 0 || it.value > 5) {
      const what = quote(text(view, [...it.tokens, ...day.tokens]));
      throw new ScheduleError(`${what} is not a week of the month (first to fifth, or last)`);
    }
  }
  const single = items.length === 1 && day.days.length === 1 ? (items[0]?.value ?? null) : null;
  // Only "second": "every 3rd Monday" is the third Monday of each month (Todoist's reading).
  const everyOrdinal = isWord(view.free[i - 1], 'every', 'each') && single === 2 ? single : null;
  const weeks = items.map((it) => it.value);
  return { kind: 'nth', nth: { weeks, days: day.days, text: text(view, [...tokens, ...day.tokens]), everyOrdinal } };
}

export const ordinalDays: PhraseFamily = {
  name: 'ordinal days',
  stage: 'recurrence',
  read(view, i) {
    const { items, tokens } = readOrdinalList(view.free, i);
    if (items.length === 0) return null;
    const after = i + tokens.length;
    if (isWeekdayGroupStart(view.free, after)) {
      const group = readWeekdayItem(view.free, after)?.tokens ?? [];
      // "first business day": a day of the month and a weekday must both match in schedule_info,
      // so no combination picks exactly the first (or last) weekday of each month.
      const why = 'schedule_info cannot express it exactly (days of the month and weekdays only combine as "both")';
      throw new ScheduleError(`${quote(text(view, [...tokens, ...group]))} (an nth working day) is not supported: ${why}`);
    }
    const day = readWeekdayList(view, after);
    if (day) return claim(view, i, tokens.length + day.length, [nthFact(view, i, items, tokens, day)]);
    const facts = monthDayFacts(view, items);
    return claim(view, i, tokens.length + (isWord(view.free[after], ...DAY_WORDS) ? 1 : 0), facts);
  },
};
