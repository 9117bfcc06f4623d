/** "hourly", "every 15 minutes": recognised only to say they are not supported. */
import { quote, ScheduleError } from '../errors.js';
import { isWord } from '../tokens.js';
import { SUB_DAILY_WORDS } from '../vocabulary.js';
import type { PhraseFamily } from './family.js';
import { countValue, text } from './readers.js';

export const subDaily: PhraseFamily = {
  name: 'every N hours or minutes',
  stage: 'recurrence',
  read(view, i) {
    const t = view.free[i];
    if (t?.kind !== 'word' || !SUB_DAILY_WORDS.has(t.lower)) return null;
    let first = i;
    while (first > 0 && (countValue(view.free[first - 1]) !== null || isWord(view.free[first - 1], 'every', 'each'))) first--;
    const phrase = text(view, view.free.slice(first, i + 1));
    throw new ScheduleError(`Schedules more frequent than once a day (${quote(phrase)}) are not supported`);
  },
};
