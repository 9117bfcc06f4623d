/** Word lists of the schedule grammar. All keys are lower case. */

export const WEEKDAYS: ReadonlyMap<string, number> = buildMap([
  [0, ['sunday', 'sundays', 'sun']],
  [1, ['monday', 'mondays', 'mon']],
  [2, ['tuesday', 'tuesdays', 'tue', 'tues']],
  [3, ['wednesday', 'wednesdays', 'wed', 'weds']],
  [4, ['thursday', 'thursdays', 'thu', 'thur', 'thurs']],
  [5, ['friday', 'fridays', 'fri']],
  [6, ['saturday', 'saturdays', 'sat']],
]);

export const MONTHS: ReadonlyMap<string, number> = buildMap([
  [1, ['january', 'jan']],
  [2, ['february', 'feb']],
  [3, ['march', 'mar']],
  [4, ['april', 'apr']],
  [5, ['may']],
  [6, ['june', 'jun']],
  [7, ['july', 'jul']],
  [8, ['august', 'aug']],
  [9, ['september', 'sep', 'sept']],
  [10, ['october', 'oct']],
  [11, ['november', 'nov']],
  [12, ['december', 'dec']],
]);

export const MONTH_NAMES = [
  '',
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];

export const WEEKDAY_NAMES = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];

/** Most days a month can have (February counts 29: "February 29" is valid in leap years). */
export const MAX_DAYS_IN_MONTH = [0, 31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Ordinal words 1..31 ("twenty-first" arrives as "twenty" + "first"); "last" is -1. */
export const ORDINAL_UNITS: ReadonlyMap<string, number> = new Map([
  ['first', 1],
  ['second', 2],
  ['third', 3],
  ['fourth', 4],
  ['fifth', 5],
  ['sixth', 6],
  ['seventh', 7],
  ['eighth', 8],
  ['ninth', 9],
]);

export const ORDINAL_WORDS: ReadonlyMap<string, number> = new Map([
  ...ORDINAL_UNITS,
  ['tenth', 10],
  ['eleventh', 11],
  ['twelfth', 12],
  ['thirteenth', 13],
  ['fourteenth', 14],
  ['fifteenth', 15],
  ['sixteenth', 16],
  ['seventeenth', 17],
  ['eighteenth', 18],
  ['nineteenth', 19],
  ['twentieth', 20],
  ['thirtieth', 30],
  ['last', -1],
  // "the final Friday of the month", "the final week" (issue 25).
  ['final', -1],
]);

export const ORDINAL_TENS: ReadonlyMap<string, number> = new Map([
  ['twenty', 20],
  ['thirty', 30],
]);

export const CARDINAL_WORDS: ReadonlyMap<string, number> = new Map([
  ['one', 1],
  ['two', 2],
  ['three', 3],
  ['four', 4],
  ['five', 5],
  ['six', 6],
  ['seven', 7],
  ['eight', 8],
  ['nine', 9],
  ['ten', 10],
  ['eleven', 11],
  ['twelve', 12],
]);

export type Unit = 'day' | 'week' | 'month' | 'year' | 'quarter';

/** Words naming a repeat unit, with the interval they imply on their own. */
export const UNIT_WORDS: ReadonlyMap<string, { unit: Unit; interval: number }> = new Map([
  ['day', { unit: 'day', interval: 1 }],
  ['days', { unit: 'day', interval: 1 }],
  ['daily', { unit: 'day', interval: 1 }],
  ['everyday', { unit: 'day', interval: 1 }],
  ['week', { unit: 'week', interval: 1 }],
  ['weeks', { unit: 'week', interval: 1 }],
  ['weekly', { unit: 'week', interval: 1 }],
  ['fortnight', { unit: 'week', interval: 2 }],
  ['fortnights', { unit: 'week', interval: 2 }],
  ['fortnightly', { unit: 'week', interval: 2 }],
  ['biweekly', { unit: 'week', interval: 2 }],
  ['month', { unit: 'month', interval: 1 }],
  ['months', { unit: 'month', interval: 1 }],
  ['monthly', { unit: 'month', interval: 1 }],
  ['year', { unit: 'year', interval: 1 }],
  ['years', { unit: 'year', interval: 1 }],
  ['yearly', { unit: 'year', interval: 1 }],
  ['annually', { unit: 'year', interval: 1 }],
  ['annual', { unit: 'year', interval: 1 }],
  ['quarter', { unit: 'quarter', interval: 1 }],
  ['quarters', { unit: 'quarter', interval: 1 }],
  ['quarterly', { unit: 'quarter', interval: 1 }],
]);

/** Units that cannot take a prefix like "every 2": the word already carries its interval. */
export const SELF_CONTAINED_UNITS = new Set([
  'daily',
  'everyday',
  'weekly',
  'fortnight',
  'fortnights',
  'fortnightly',
  'biweekly',
  'monthly',
  'yearly',
  'annually',
  'annual',
  'quarterly',
]);

/** Largest accepted interval per unit: beyond these the phrase is almost surely a typo. */
export const MAX_INTERVAL: Readonly<Record<Unit, number>> = { day: 365, week: 52, month: 24, year: 10, quarter: 1 };

/** Units under a day (read by families/sub-daily.ts); listed here so typos.ts never corrects them. */
export const SUB_DAILY_WORDS = new Set([
  // Not "second": that is an ordinal ("every second Tuesday").
  'hour',
  'hours',
  'hourly',
  'minute',
  'minutes',
  'min',
  'mins',
  'seconds',
  'secs',
]);

export type Period = 'morning' | 'afternoon' | 'evening' | 'night';

export const PERIOD_WORDS: ReadonlyMap<string, Period> = new Map([
  ['morning', 'morning'],
  ['mornings', 'morning'],
  ['afternoon', 'afternoon'],
  ['afternoons', 'afternoon'],
  ['evening', 'evening'],
  ['evenings', 'evening'],
  ['night', 'night'],
  ['nights', 'night'],
  ['nightly', 'night'],
  ['tonight', 'night'],
]);

/** Words that may appear anywhere without changing the meaning. */
export const FILLER_WORDS = new Set([
  'run',
  'runs',
  'running',
  'rerun',
  'execute',
  'trigger',
  'do',
  'please',
  'pls',
  'kindly',
  'at',
  'on',
  'in',
  'of',
  'the',
  'a',
  'an',
  'and',
  'every',
  'each',
  'per',
  'once',
  'it',
  'this',
  'knap',
  'job',
  'task',
  'schedule',
  'scheduled',
  'repeat',
  'repeats',
  'repeating',
  'recurring',
  'should',
  'will',
  'be',
  'me',
  'us',
  'around',
  'sharp',
  'exactly',
  'time',
  'local',
  "o'clock",
  'oclock',
  'then',
  'also',
  // Cron descriptions: "At 11:20 PM, only on Tuesday".
  'only',
  // "every single day", "Occurs every Monday" (issue 25).
  'single',
  'occurs',
  'occur',
  'recurs',
]);

function buildMap(entries: Array<[number, string[]]>): Map<string, number> {
  const map = new Map<string, number>();
  for (const [value, words] of entries) for (const w of words) map.set(w, value);
  return map;
}
