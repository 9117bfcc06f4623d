/** Weekdays: "Mondays and Thursdays", "Tue, Wed", "mon/wed/fri", "Mon-Fri", "from Monday to Friday", "weekdays". */
import { isWord } from '../tokens.js';
import { claim, type PhraseFamily } from './family.js';
import { readWeekdayList, readWeekdayRange } from './readers.js';

export const weekdays: PhraseFamily = {
  name: 'weekdays',
  stage: 'recurrence',
  read(view, i) {
    // "from Monday to Friday": "from" belongs to the range (elsewhere it would mean a start date).
    const from = isWord(view.free[i], 'from') && readWeekdayRange(view.free, i + 1) ? 1 : 0;
    const list = readWeekdayList(view, i + from);
    if (!list) return null;
    return claim(view, i, from + list.length, [{ kind: 'weekdays', days: { days: list.days, text: list.text } }]);
  },
};
