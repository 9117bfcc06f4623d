/**
 * What a phrase family is, in the manner of chrono-node's parsers: a reader that looks at one
 * position of the token list and either declines or says what it claimed and what it found.
 * It never marks tokens itself; the runner (index.ts) applies claims in the order of the list,
 * so the effect of every family is visible in one place.
 */

import type { PeriodMention, TimeMention } from '../time-of-day.js';
import type { Token } from '../tokens.js';
import type { Unit } from '../vocabulary.js';
import type { TimesPerMention } from './frequency-words.js';
import type { RelativeDay } from './relative-start.js';
import type { StartMention } from './start-date.js';

/** A date as written: with its year, or without (the next one on or after today). */
export interface WrittenDate {
  year: number | null;
  month: number;
  day: number;
}

/**
 * An end (issue 46, ends.ts): "until 31 December 2026" (a date, its day included), "10 times"
 * (a count of runs), "for 4 weeks" (a duration from the start, or from today).
 */
export interface EndMention {
  date?: WrittenDate;
  count?: number;
  duration?: { unit: 'day' | 'week' | 'month' | 'year'; n: number };
  text: string;
}

/** A one-off run (issue 46, one-offs.ts): "tomorrow", "next Friday", "on 3 March 2027". */
export interface OnceMention {
  date: WrittenDate | null;
  relative: RelativeDay | null;
  text: string;
}

export interface UnitMention {
  unit: Unit;
  interval: number;
  text: string;
}

export interface DaySetMention {
  days: number[];
  text: string;
}

export interface NthMention {
  weeks: number[];
  days: number[];
  text: string;
  /** "every second Tuesday": without a month in sight it means every other Tuesday. */
  everyOrdinal: number | null;
  /**
   * "first business day", "last weekday" (issue 46): `weeks` are positions among the month's
   * `days` (RFC 5545 BYSETPOS), not weeks of the month.
   */
  setPositions?: boolean;
}

export interface ValueMention {
  value: number;
  token: Token;
}

export interface ZoneMention {
  zone: string;
  text: string;
}

/** "every 4 hours", "hourly", "every 20 minutes" (family 1). */
export interface FrequencyMention {
  unit: 'hour' | 'minute';
  interval: number;
  text: string;
}

/** "at :15", "15 past the hour", "on the hour", "quarter to": the minute of each hour (family 1). */
export interface MinuteMention {
  minute: number;
  text: string;
  /** "quarter to", "ten to the hour": minutes before the next hour, which every N hours counts to. */
  toHour?: boolean;
}

/** "between 8am and 8pm", "from 9:00 to 17:00", "from 9am": the hours a sub-daily schedule runs in. */
export interface WindowMention {
  /** Minutes since midnight. */
  start: number | null;
  end: number | null;
  text: string;
}

/** "the first and third week of each month", "week 2": weeks of the month, for the weekdays named elsewhere. */
export interface WeeksMention {
  weeks: number[];
  text: string;
}

/** "except August", "except in July and August": months taken out (issue 25, family 7). */
export interface MonthSetMention {
  months: number[];
  text: string;
}

/** One fact a family found; `kind` says which collection of `Facts` it joins. */
export type Fact =
  | { kind: 'start'; start: StartMention }
  | { kind: 'zone'; zone: ZoneMention }
  | { kind: 'time'; time: TimeMention }
  | { kind: 'period'; period: PeriodMention }
  | { kind: 'unit'; unit: UnitMention }
  | { kind: 'weekdays'; days: DaySetMention }
  | { kind: 'excluded'; days: DaySetMention }
  | { kind: 'onlyInMonths' }
  | { kind: 'nth'; nth: NthMention }
  | { kind: 'monthDay'; day: ValueMention }
  | { kind: 'month'; month: ValueMention }
  | { kind: 'frequency'; frequency: FrequencyMention }
  | { kind: 'minuteOfHour'; minute: MinuteMention }
  | { kind: 'window'; window: WindowMention }
  | { kind: 'timesPer'; timesPer: TimesPerMention }
  | { kind: 'weeksOfMonth'; weeks: WeeksMention }
  | { kind: 'excludedMonths'; months: MonthSetMention }
  | { kind: 'end'; end: EndMention }
  | { kind: 'once'; once: OnceMention };

/** What a family read at a position. */
export interface Claim {
  /** How many tokens of the view, from the position, the scan steps over. */
  length: number;
  /** Every token claimed: those stepped over, and any before the position ("every"). */
  tokens: Token[];
  facts: Fact[];
}

/** What a family sees: the tokens no earlier stage claimed, in order. */
export interface View {
  /** Unclaimed tokens when the stage began; claims made since do not remove any. */
  readonly free: readonly Token[];
  /** Every token, claimed or not: for readers that need the true neighbours ("Paris time"). */
  readonly all: readonly Token[];
  readonly description: string;
}

/**
 * Stages run in the order given in index.ts; within a stage the view is scanned left to
 * right, and at each position the stage's families are tried in list order.
 */
export type Stage = 'start' | 'one-offs' | 'zone' | 'place-zone' | 'sub-daily' | 'time' | 'period' | 'recurrence';

export interface PhraseFamily {
  name: string;
  stage: Stage;
  read(view: View, i: number): Claim | null;
  /**
   * Checks across mentions ("9am and 10pm", two zones), run when the family's stage is over
   * with every fact found so far; throws a ScheduleError when they do not fit together.
   */
  settle?(facts: readonly Fact[]): void;
}

/** A claim of `length` tokens from position i, plus `before` (claimed tokens ahead of i). */
export function claim(view: View, i: number, length: number, facts: Fact[], before: Token[] = []): Claim {
  return { length, tokens: [...before, ...view.free.slice(i, i + length)], facts };
}
