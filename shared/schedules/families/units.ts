/**
 * Bare repeat units ("daily", "every week", "monthly", "quarterly", "fortnightly") and "end of"
 * / "beginning of" ("end of every month" is its last day, "start of the quarter" its first).
 */
import { isWord } from '../tokens.js';
import { UNIT_WORDS } from '../vocabulary.js';
import { claim, type PhraseFamily } from './family.js';
import { text } from './readers.js';

export const units: PhraseFamily = {
  name: 'units',
  stage: 'recurrence',
  read(view, i) {
    const t = view.free[i];
    const unit = t?.kind === 'word' ? UNIT_WORDS.get(t.lower) : undefined;
    if (!t || !unit) return null;
    const every = view.free[i - 1];
    const phrase = isWord(every, 'every', 'each') ? text(view, [every, t]) : t.text;
    // Not `{ ...unit, text }`: a key added after a leading spread is slow in Node 20 (parse.ts, withFields).
    return claim(view, i, 1, [{ kind: 'unit', unit: { unit: unit.unit, interval: unit.interval, text: phrase } }]);
  },
};

export const endOf: PhraseFamily = {
  name: 'end of',
  stage: 'recurrence',
  read(view, i) {
    const t = view.free[i];
    if (!isWord(t, 'end', 'beginning', 'start') || !isWord(view.free[i + 1], 'of')) return null;
    return claim(view, i, 1, [{ kind: 'monthDay', day: { value: t.lower === 'end' ? -1 : 1, token: t } }]);
  },
};
