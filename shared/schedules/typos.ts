/**
 * Weekday and month names one edit away ("tuesdya", "saturady", "febuary", "wendesday"): an
 * insertion, a deletion, a substitution or two neighbouring letters swapped. A word is corrected
 * only when it is not a word the parser knows, has at least five letters, every name one edit away
 * means the same day or month, and that name starts with the word's first letter. The token keeps
 * the user's text, so error messages still quote what was typed; only its lower-case form, which
 * the readers match, changes.
 */
import { quote, ScheduleError } from './errors.js';
import { ZONE_ABBREVIATIONS } from './timezones.js';
import type { Token } from './tokens.js';
import {
  CARDINAL_WORDS,
  FILLER_WORDS,
  MONTHS,
  ORDINAL_TENS,
  ORDINAL_WORDS,
  PERIOD_WORDS,
  SUB_DAILY_WORDS,
  UNIT_WORDS,
  WEEKDAYS,
} from './vocabulary.js';

/** Shortest word corrected: shorter ones ("mon", "sun", "mar") are too close to everything. */
const MIN_LENGTH = 5;

/** Full names (singular and plural weekdays, months) with the key the readers look up. */
const NAMES: ReadonlyArray<[name: string, key: string, kind: 'weekday' | 'month']> = [
  ...['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'].flatMap(
    (d): Array<[string, string, 'weekday']> => [
      [d, d, 'weekday'],
      [`${d}s`, `${d}s`, 'weekday'],
    ],
  ),
  ...['january', 'february', 'march', 'april', 'june', 'july', 'august', 'september', 'october', 'november', 'december'].map(
    (m): [string, string, 'month'] => [m, m, 'month'],
  ),
];

/** English words one edit from a name: never read as the name. */
const REAL_WORDS = [
  'marsh',
  'match',
  'sundry',
  'marches',
  'matches',
  'marshes',
  'junes',
  'julys',
  'sundae',
  'sundaes',
  'augusta',
];

/** Words of the grammar that are not in the vocabulary maps. */
const GRAMMAR_WORDS = [
  'weekday',
  'weekdays',
  'weekend',
  'weekends',
  'workday',
  'workdays',
  'business',
  'working',
  'starting',
  'through',
  'until',
  'other',
  'noon',
  'midday',
  'midnight',
  'half',
  'quarter',
  'past',
  'end',
  'beginning',
  'start',
  'from',
  'except',
  'hours',
];

const KNOWN: ReadonlySet<string> = new Set([
  ...WEEKDAYS.keys(),
  ...MONTHS.keys(),
  ...UNIT_WORDS.keys(),
  ...FILLER_WORDS,
  ...PERIOD_WORDS.keys(),
  ...ORDINAL_WORDS.keys(),
  ...ORDINAL_TENS.keys(),
  ...CARDINAL_WORDS.keys(),
  ...SUB_DAILY_WORDS,
  ...Object.keys(ZONE_ABBREVIATIONS),
  ...GRAMMAR_WORDS,
  ...REAL_WORDS,
]);

/**
 * Misspellings people make that are two edits from the name (issue 46): Wednesday's silent "d"
 * and "e". Read as the name wherever the word stands; errors still quote what was typed.
 */
const COMMON_MISSPELLINGS: ReadonlyMap<string, string> = new Map([
  ['wendsday', 'wednesday'],
  ['wendsdays', 'wednesdays'],
  ['wensday', 'wednesday'],
  ['wensdays', 'wednesdays'],
  ['wedsday', 'wednesday'],
  ['wedsdays', 'wednesdays'],
  ['wednsday', 'wednesday'],
  ['wednsdays', 'wednesdays'],
]);

/** Whether a and b are at most one insertion, deletion, substitution or adjacent swap apart. */
export function oneEditApart(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) {
    if (a.slice(i + 1) === b.slice(i + 1)) return true; // substitution
    return a[i] === b[i + 1] && a[i + 1] === b[i] && a.slice(i + 2) === b.slice(i + 2); // swap
  }
  const [long, short] = a.length > b.length ? [a, b] : [b, a];
  return long.slice(i + 1) === short.slice(i);
}

const capitalise = (w: string) => w.charAt(0).toUpperCase() + w.slice(1).replace(/s$/, '');

/** The names one edit from a word that is not a known word (several when it is ambiguous). */
function namesNear(word: string): string[] {
  if (word.length < MIN_LENGTH || KNOWN.has(word) || !/^\p{L}+$/u.test(word)) return [];
  const matches = NAMES.filter(([name]) => oneEditApart(word, name));
  const byValue = new Map<string, string>();
  for (const [, key, kind] of matches) {
    byValue.set(`${kind}:${kind === 'weekday' ? WEEKDAYS.get(key) : MONTHS.get(key)}`, key);
  }
  return [...byValue.values()];
}

/**
 * Rewrites the lower-case form of misspelt weekday and month names in place; a word one edit
 * from two different names ("munday": Sunday or Monday) is refused rather than guessed.
 */
export function correctTypos(tokens: readonly Token[]): void {
  for (const t of tokens) {
    if (t.kind !== 'word') continue;
    const common = COMMON_MISSPELLINGS.get(t.lower);
    if (common) {
      t.lower = common;
      continue;
    }
    const names = namesNear(t.lower);
    if (names.length > 1) {
      const choices = names.map(capitalise).join(' or ');
      throw new ScheduleError(`${quote(t.text)} could be ${choices}: please spell it out`);
    }
    // Never a new first letter: "Moonday" may be Monday, "Funday" is no Sunday.
    if (names[0] && names[0][0] === t.lower[0]) t.lower = names[0];
  }
}
