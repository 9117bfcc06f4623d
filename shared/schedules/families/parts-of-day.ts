/** Parts of the day: "in the morning", "at night", "every evening" and "nightly" (daily by themselves). */
import { contradiction } from '../errors.js';
import { isWord } from '../tokens.js';
import { PERIOD_WORDS } from '../vocabulary.js';
import { claim, type PhraseFamily } from './family.js';

export const partsOfDay: PhraseFamily = {
  name: 'parts of the day',
  stage: 'period',
  read(view, i) {
    const t = view.free[i];
    const period = t?.kind === 'word' ? PERIOD_WORDS.get(t.lower) : undefined;
    if (!t || !period) return null;
    const before = view.free[i - 1];
    const everyBefore = isWord(before, 'every', 'each');
    const daily = everyBefore || t.lower === 'nightly';
    return claim(view, i, 1, [{ kind: 'period', period: { period, text: t.text, daily } }], everyBefore ? [before] : []);
  },
  settle(facts) {
    const periods = facts.flatMap((f) => (f.kind === 'period' ? [f.period] : []));
    const [first] = periods;
    const clash = periods.find((p) => p.period !== first?.period);
    if (first && clash) throw contradiction(first.text, clash.text);
  },
};
