/**
 * Ordinals (family 6 and the days of the month): "first Monday", "every 4th Monday", "second
 * and fourth Tuesday", "the 1st and 15th", "last day", "twenty-first". Issue 46, family 3:
 * "first business day", "last weekday", "the 3rd working day", "first and last weekday" are
 * positions among the month's working days (set_positions, RFC 5545 BYSETPOS).
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

/** Most working days a month is sure to have: February has 20 weekdays, and 8 weekend days. */
const MAX_POSITION: Readonly<Record<string, number>> = { weekday: 20, weekend: 8 };

/**
 * "first business day", "last weekday", "the 3rd working day", "first and last weekday": the
 * positions (1 first, -1 last) among the days of the group in each month.
 */
function readSetPositions(view: View, i: number, items: Item[], tokens: Token[]): ReturnType<typeof claim> {
  const group = readWeekdayItem(view.free, i + tokens.length) as NonNullable<ReturnType<typeof readWeekdayItem>>;
  const what = text(view, [...tokens, ...group.tokens]);
  const kind = group.days.length === 5 ? 'weekday' : 'weekend';
  const max = MAX_POSITION[kind] as number;
  for (const it of items) {
    if (it.value === 0 || it.value > max) {
      const day = kind === 'weekday' ? 'weekday' : 'weekend day';
      throw new ScheduleError(`${quote(what)} is not a ${day} every month has (first to ${max}th, or last)`);
    }
  }
  // "every second business day", "every 4th weekday" read as a step through the working days as
  // much as a day of the month: only with the month said ("of every month") are they positions.
  const every = isWord(view.free[i - 1], 'every', 'each');
  const ofPeriod = isWord(view.free[i + tokens.length + group.tokens.length], 'of', 'in');
  if (every && !ofPeriod && items.length === 1 && (items[0]?.value ?? 0) >= 2) {
    throw new ScheduleError(
      `${quote(`${view.free[i - 1]?.text} ${what}`)} is not clear: say "the ${what} of every month", or name the days`,
    );
  }
  const weeks = [...new Set(items.map((it) => it.value))].sort((a, b) => (a === -1 ? 99 : a) - (b === -1 ? 99 : b));
  const nth = { weeks, days: group.days, text: what, everyOrdinal: null, setPositions: true };
  return claim(view, i, tokens.length + group.tokens.length, [{ kind: 'nth', nth }]);
}

export const ordinalDays: PhraseFamily = {
  name: 'ordinal days',
  stage: 'recurrence',
  read(view, i) {
    const { items, tokens } = readOrdinalList(view.free, i);
    if (items.length === 0) return null;
    const after = i + tokens.length;
    if (isWeekdayGroupStart(view.free, after)) return readSetPositions(view, i, items, tokens);
    const day = readWeekdayList(view, after);
    if (day) return claim(view, i, tokens.length + day.length, [nthFact(view, i, items, tokens, day)]);
    const facts = monthDayFacts(view, items);
    return claim(view, i, tokens.length + (isWord(view.free[after], ...DAY_WORDS) ? 1 : 0), facts);
  },
};
