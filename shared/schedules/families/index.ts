/**
 * The phrase families, in order, and the runner that applies them (chrono-node's parser list,
 * in stages). Stages run in the order their families first appear below: a start date first
 * (its weekday is not the recurrence's), one-off dates, zones, then sub-daily frequencies and
 * windows (before times, whose "at 15" they would otherwise read), times of day, parts of the
 * day, and last the recurrence itself. Within a stage the tokens no earlier stage claimed are
 * scanned left to right; at each position the stage's families are tried in list order and the
 * first claim wins. To add a family: write families/<name>.ts, put it in FAMILIES, add its test.
 */

import type { PeriodMention, TimeMention } from '../time-of-day.js';
import { markUsed, type Token, unused } from '../tokens.js';
import { bareMonthDays, months } from './calendar-dates.js';
import { dayLists } from './day-lists.js';
import { dayNumbers } from './day-numbers.js';
import { daysOfTheWeek } from './days-of-the-week.js';
import { ends } from './ends.js';
import { exclusions } from './exclusions.js';
import type {
  DaySetMention,
  EndMention,
  Fact,
  FrequencyMention,
  MinuteMention,
  MonthSetMention,
  NthMention,
  OnceMention,
  PhraseFamily,
  Stage,
  UnitMention,
  ValueMention,
  View,
  WeeksMention,
  WindowMention,
  ZoneMention,
} from './family.js';
import { frequencyWords, type TimesPerMention } from './frequency-words.js';
import { intervals } from './intervals.js';
import { monthExclusions } from './month-exclusions.js';
import { deicticDates, writtenDates } from './one-offs.js';
import { openEnded } from './open-ended.js';
import { ordinalDays } from './ordinal-days.js';
import { partsOfDay } from './parts-of-day.js';
import { placeNames } from './place-names.js';
import { relativeStart } from './relative-start.js';
import { severalTimes } from './several-times.js';
import type { StartMention } from './start-date.js';
import { startDate } from './start-date.js';
import { subDaily } from './sub-daily.js';
import { placeTimes, zoneNames } from './time-zones.js';
import { timesOfDay } from './times-of-day.js';
import { endOf, units } from './units.js';
import { weekdays } from './weekdays.js';
import { weeksOfMonth } from './weeks-of-month.js';
import { startingAtTime } from './window-words.js';
import { zoneKeywords, zoneWordAfterPlace } from './zone-keywords.js';

export type {
  DaySetMention,
  FrequencyMention,
  MinuteMention,
  MonthSetMention,
  NthMention,
  TimesPerMention,
  UnitMention,
  ValueMention,
  WeeksMention,
  WindowMention,
  ZoneMention,
};

export const FAMILIES: readonly PhraseFamily[] = [
  ends,
  openEnded,
  relativeStart,
  startDate,
  deicticDates,
  writtenDates,
  zoneKeywords,
  zoneNames,
  placeTimes,
  zoneWordAfterPlace,
  placeNames,
  subDaily,
  timesOfDay,
  severalTimes,
  partsOfDay,
  startingAtTime,
  daysOfTheWeek,
  frequencyWords,
  weeksOfMonth,
  intervals,
  ordinalDays,
  dayNumbers,
  dayLists,
  bareMonthDays,
  months,
  monthExclusions,
  exclusions,
  weekdays,
  units,
  endOf,
];

/** Everything the families found, gathered by kind. */
export interface Facts {
  start: StartMention | null;
  /** The first zone named (settle has made sure any other is the same zone). */
  zone: ZoneMention | null;
  /** The first time of day named. */
  time: TimeMention | null;
  /** Every time of day named, in the order written, each once ("12am (midnight)" is one). */
  times: TimeMention[];
  period: PeriodMention | null;
  units: UnitMention[];
  weekdayGroups: DaySetMention[];
  /** "except Sunday", "but not Mondays": weekdays taken out of the others. */
  excludedWeekdays: DaySetMention[];
  /** "only in March and April" (cron descriptions): with no day named, every day of them. */
  onlyInMonths: boolean;
  nth: NthMention[];
  monthDays: ValueMention[];
  months: ValueMention[];
  frequencies: FrequencyMention[];
  minutesOfHour: MinuteMention[];
  windows: WindowMention[];
  /** "twice a month": runs per unit, checked against the days named (issue 25, family 5). */
  timesPer: TimesPerMention[];
  /** "the first and third week of each month": weeks for the weekdays named (issue 25, family 8). */
  weeksOfMonth: WeeksMention[];
  /** "except August": months taken out of the others (issue 25, family 7). */
  excludedMonths: MonthSetMention[];
  /** "until 31 December 2026", "10 times", "for 4 weeks" (issue 46, family 4). */
  ends: EndMention[];
  /** "tomorrow", "next Friday", "on 3 March 2027" (issue 46, family 4). */
  once: OnceMention | null;
}

/** The facts of one kind. */
const ofKind = <K extends Fact['kind']>(facts: readonly Fact[], kind: K) =>
  facts.filter((f): f is Extract<Fact, { kind: K }> => f.kind === kind);

/** Each time of day once, in the order written; a time restated in brackets is not one more. */
function distinctTimes(mentions: readonly TimeMention[]): TimeMention[] {
  const times: TimeMention[] = [];
  for (const m of mentions) {
    if (m.restates) continue;
    if (!times.some((t) => t.time.hour === m.time.hour && t.time.minute === m.time.minute)) times.push(m);
  }
  return times;
}

function gather(facts: readonly Fact[]): Facts {
  const periods = ofKind(facts, 'period').map((f) => f.period);
  const [period] = periods;
  return {
    start: ofKind(facts, 'start')[0]?.start ?? null,
    zone: ofKind(facts, 'zone')[0]?.zone ?? null,
    time: ofKind(facts, 'time')[0]?.time ?? null,
    times: distinctTimes(ofKind(facts, 'time').map((f) => f.time)),
    // Any "every morning" or "nightly" makes the part of the day a daily recurrence.
    period: period ? { ...period, daily: periods.some((p) => p.daily) } : null,
    units: ofKind(facts, 'unit').map((f) => f.unit),
    weekdayGroups: ofKind(facts, 'weekdays').map((f) => f.days),
    excludedWeekdays: ofKind(facts, 'excluded').map((f) => f.days),
    onlyInMonths: ofKind(facts, 'onlyInMonths').length > 0,
    nth: ofKind(facts, 'nth').map((f) => f.nth),
    monthDays: ofKind(facts, 'monthDay').map((f) => f.day),
    months: ofKind(facts, 'month').map((f) => f.month),
    frequencies: ofKind(facts, 'frequency').map((f) => f.frequency),
    minutesOfHour: ofKind(facts, 'minuteOfHour').map((f) => f.minute),
    windows: ofKind(facts, 'window').map((f) => f.window),
    timesPer: ofKind(facts, 'timesPer').map((f) => f.timesPer),
    weeksOfMonth: ofKind(facts, 'weeksOfMonth').map((f) => f.weeks),
    excludedMonths: ofKind(facts, 'excludedMonths').map((f) => f.months),
    ends: ofKind(facts, 'end').map((f) => f.end),
    once: ofKind(facts, 'once')[0]?.once ?? null,
  };
}

/** The families of each stage, stages in order of first appearance. */
type StagePlan = ReadonlyArray<readonly PhraseFamily[]>;

function planStages(families: readonly PhraseFamily[]): StagePlan {
  const stages: Stage[] = [...new Set(families.map((f) => f.stage))];
  return stages.map((stage) => families.filter((f) => f.stage === stage));
}

/**
 * Plans made so far, by family list: FAMILIES' once for the process rather than once a parse
 * (tests pass lists of their own). Weak keys: a list no one holds takes its plan with it.
 */
const plans = new WeakMap<readonly PhraseFamily[], StagePlan>();

function stagePlan(families: readonly PhraseFamily[]): StagePlan {
  let plan = plans.get(families);
  if (!plan) {
    plan = planStages(families);
    plans.set(families, plan);
  }
  return plan;
}

/** Scans one stage: at each position the first family that reads something claims it. */
function runStage(tokens: readonly Token[], description: string, families: readonly PhraseFamily[], found: Fact[]): void {
  const view: View = { free: unused(tokens), all: tokens, description };
  for (let i = 0; i < view.free.length; ) {
    let step = 1;
    for (const family of families) {
      const read = family.read(view, i);
      if (!read || read.length <= 0) continue;
      markUsed(read.tokens);
      found.push(...read.facts);
      step = read.length;
      break;
    }
    i += step;
  }
  for (const family of families) family.settle?.(found);
}

/** Runs every family over the tokens, marking what they claim; the rest is left for leftovers.ts. */
export function readFamilies(tokens: readonly Token[], description: string, families = FAMILIES): Facts {
  const found: Fact[] = [];
  for (const stage of stagePlan(families)) runStage(tokens, description, stage, found);
  return gather(found);
}
