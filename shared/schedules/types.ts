export type ScheduleKind = 'daily' | 'weekly' | 'monthly' | 'yearly' | 'hourly' | 'minutely' | 'once';

export const SCHEDULE_KINDS: readonly ScheduleKind[] = ['daily', 'weekly', 'monthly', 'yearly', 'hourly', 'minutely', 'once'];

/** Schedules that run several times a day: every `interval` hours or minutes from `schedule_time`. */
export const SUB_DAILY_KINDS: readonly ScheduleKind[] = ['hourly', 'minutely'];

/** Longest schedule description read. Here, free of the parser's imports, so the request schema can share it. */
export const MAX_DESCRIPTION_LENGTH = 500;

/**
 * A parsed recurrence. Every run is at `schedule_time` (local wall time in `timezone`) on each
 * date that satisfies all the non-null constraints. Arrays are sorted ascending with -1 last.
 */
export interface ScheduleInfo {
  schedule_type: ScheduleKind;
  /**
   * 'HH:MM', 24-hour; '09:00' when the description names no time. Hourly and minutely: the
   * first run of each day, the others following every `interval` hours / minutes.
   */
  schedule_time: string;
  /**
   * Daily to yearly schedules that run at several times of day only (absent otherwise): every
   * time, 'HH:MM', ascending without repeats, at least two; `schedule_time` is its first.
   */
  schedule_times?: string[];
  /**
   * Hourly and minutely only (absent otherwise): 'HH:MM', the latest time of day a run may
   * be at ("between 8am and 8pm"), or null for no limit before midnight.
   */
  end_time?: string | null;
  /** 0 = Sunday ... 6 = Saturday. */
  days_of_week: number[] | null;
  /** 1..31, -1 = last day of the month. */
  days_of_month: number[] | null;
  /** 1..5, -1 = last; only together with days_of_week ("first Monday"). */
  weeks_of_month: number[] | null;
  /** 1 = January ... 12 = December. */
  months_of_year: number[] | null;
  /**
   * Working days of the month (issue 46; absent otherwise): RFC 5545 BYSETPOS within each month
   * over the days the other fields allow ("first business day": days_of_week Monday to Friday,
   * set_positions [1]; "last weekday": [-1]). 1..23 or -1..-23, ascending with negatives last.
   */
  set_positions?: number[];
  /** Every N minutes / hours / days / weeks / months / years (unit given by schedule_type); default 1. */
  interval: number;
  /** IANA time zone name; default 'UTC'. */
  timezone: string;
  /**
   * Schedules with an end only (issue 46; absent otherwise): the last instant a run may be at,
   * ISO 8601 UTC with 'Z' and no milliseconds, inclusive ("until 31 December 2026" is that day's
   * last second in `timezone`; "10 times" the tenth run).
   */
  until?: string;
  /** "10 times" (issue 46; absent otherwise): how many runs, missed ones included; `until` is the last. */
  count?: number;
  /**
   * Issue 46, set by describeSchedule (absent on Knaps stored before): the RFC 5545 DTSTART and
   * RRULE lines, "\n" between them, whose occurrences are exactly the runs from the first on;
   * null where one RRULE cannot say them (rrule.ts).
   */
  rrule?: string | null;
  /**
   * 'YYYY-MM-DD' local date of the first run when interval > 1 (daily to yearly); for a 'once'
   * schedule (issue 46) the date of its one run; else null. Runs happen only
   * on or after it, in the periods (day / ISO week / month / year) that are a multiple of
   * `interval` away from the anchor's period.
   */
  anchor_date: string | null;
}

export interface ParseOptions {
  /** IANA name (or one of the documented abbreviations); a zone in the text wins over it. */
  timezone?: string;
  /** Reference instant: the anchor for interval > 1 is the first run strictly after it. */
  now?: Date;
}

export interface DescribeOptions {
  timezone?: string;
  now: Date;
}

export interface ScheduleDescription {
  schedule_info: ScheduleInfo;
  /** ISO 8601 UTC with 'Z' and no milliseconds. */
  next_run_at: string;
}
