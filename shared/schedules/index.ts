/** Natural-language schedules -> schedule_info + next_run_at. Pure: no I/O, no AWS types. */
export { sayScheduleInEnglish } from './english.js';
export { ScheduleError } from './errors.js';
export { nextRunAt, nextRunOrNull, runSearch, runSearchOrNull } from './next-run.js';
export { describeSchedule, parseSchedule } from './parse.js';
export { DEFAULT_TIMEZONE, resolveZone, ZONE_ABBREVIATIONS } from './timezones.js';
export type { DescribeOptions, ParseOptions, ScheduleDescription, ScheduleInfo, ScheduleKind } from './types.js';
export { MAX_DESCRIPTION_LENGTH, SCHEDULE_KINDS, SUB_DAILY_KINDS } from './types.js';
