/**
 * Family 5, exclusions: "except Sunday", "but not Mondays", "excluding Saturdays and Sundays",
 * "not on Friday". The days are taken out of the others when resolving.
 */
import { quote, ScheduleError } from '../errors.js';
import { isWord, type Token } from '../tokens.js';
import { claim, type PhraseFamily } from './family.js';
import { DAY_QUALIFIERS, readWeekdayItem, readWeekdayList, text, WEEKDAY_GROUP_WORDS } from './readers.js';

/** The words that start an exclusion, and how many tokens they take. */
function exclusionStart(free: readonly Token[], i: number): number {
  const t = free[i];
  if (isWord(t, 'except', 'excluding')) return isWord(free[i + 1], 'on', 'for') ? 2 : 1;
  if (isWord(t, 'but') && isWord(free[i + 1], 'not')) return isWord(free[i + 2], 'on') ? 3 : 2;
  // "every day of the week but Sunday" (issue 25): "but" right before the weekdays.
  if (isWord(t, 'but') && readWeekdayItem(free, i + 1)) return 1;
  if (isWord(t, 'not') && isWord(free[i + 1], 'on')) return 2;
  return 0;
}

export const exclusions: PhraseFamily = {
  name: 'exclusions',
  stage: 'recurrence',
  read(view, i) {
    const lead = exclusionStart(view.free, i);
    if (lead === 0) return null;
    const list = readWeekdayList(view, i + lead);
    if (!list) return null;
    // "except weekends" would be read, but the corpus keeps it refused: name the days instead.
    const group = list.tokens.find((t) => WEEKDAY_GROUP_WORDS.has(t.lower) || DAY_QUALIFIERS.has(t.lower));
    if (group) {
      const exceptWord = view.free[i] as Token;
      const example = group.lower.startsWith('weekend') ? 'every weekday' : 'every Saturday and Sunday';
      throw new ScheduleError(
        `${quote(exceptWord.text)} before ${quote(list.text)} is not supported: name the days to run instead, e.g. "${example}"`,
      );
    }
    const days = { days: list.days, text: text(view, view.free.slice(i, i + lead + list.length)) };
    return claim(view, i, lead + list.length, [{ kind: 'excluded', days }]);
  },
};
