/**
 * Issue 25, family 10, windows of the day in words: "starting at 9 and finishing at 17",
 * "beginning 8am, ending 6pm", "between the hours of 8am and 6pm", "from 9 and ending at 5". The
 * sub-daily family reads a window with these leads and separators; without a frequency "starting
 * at 9am" is the time of day ("every day starting at 9am"), claimed by startingAtTime.
 */
import { isWord, type Token } from '../tokens.js';
import { claim, type PhraseFamily } from './family.js';

const LEADS = ['between', 'from', 'starting', 'beginning', 'start', 'starts', 'commencing', 'during'];
const ENDS = ['finishing', 'finish', 'finishes', 'ending', 'end', 'ends', 'stopping', 'stop', 'stops'];
const RANGE = ['to', 'until', 'till', 'til', 'through', 'thru'];

/** How many tokens open a window at i: "between", "from", "starting at", "between the hours of"; 0 if none. */
export function windowLead(free: readonly Token[], i: number): number {
  if (!isWord(free[i], ...LEADS)) return 0;
  if (isWord(free[i + 1], 'the') && isWord(free[i + 2], 'hours') && isWord(free[i + 3], 'of')) return 4;
  return isWord(free[i + 1], 'at') ? 2 : 1;
}

/**
 * How many tokens separate a window's edges at j: "and" after "between" only; "-", "to",
 * "until", "and finishing at", "ending at", "and ending by" after any lead. 0 if none.
 */
export function windowSeparator(free: readonly Token[], j: number, between: boolean): number {
  const and = isWord(free[j], 'and') ? 1 : 0;
  const word = free[j + and];
  if (isWord(word, ...ENDS) || (and && isWord(word, ...RANGE))) {
    return and + 1 + (isWord(free[j + and + 1], 'at', 'by') ? 1 : 0);
  }
  if (and) return between ? 1 : 0;
  if (free[j]?.kind === 'dash') return 1;
  return isWord(free[j], ...RANGE) ? 1 + (isWord(free[j + 1], 'at') ? 1 : 0) : 0;
}

/** "every day starting at 9am", "beginning at 6": without a frequency, the lead word of a time of day. */
export const startingAtTime: PhraseFamily = {
  name: 'starting at a time',
  stage: 'period',
  read(view, i) {
    const t = view.free[i];
    if (!isWord(t, 'starting', 'beginning', 'commencing')) return null;
    const next: Token | undefined = view.all[view.all.indexOf(t) + 1];
    // The time after it ("at 9am", "9am") was claimed by the time stage.
    const timeWord = next?.kind === 'clock' || next?.kind === 'num' || ['at', 'noon', 'midnight'].includes(next?.lower ?? '');
    if (!next?.used || !timeWord) return null;
    return claim(view, i, 1, []);
  },
};
