import { isoSeconds } from '../domain/clock.js';
import { PREVIEW_HORIZON_YEARS, type SchedulePreview, type SchedulePreviewRequest } from '../domain/schedule-preview.js';
import { badRequest } from '../errors.js';
import type { Deps } from '../runtime.js';
import type * as Schedules from '../schedules/index.js';

/** The same instant PREVIEW_HORIZON_YEARS calendar years on (29 February goes to 1 March). */
const horizonOf = (now: Date): number => {
  const horizon = new Date(now);
  horizon.setUTCFullYear(horizon.getUTCFullYear() + PREVIEW_HORIZON_YEARS);
  return horizon.getTime();
};

/** The run after `after`, or null when there is none before the horizon (or none the parser can find). */
const runBefore = (
  ScheduleError: typeof Schedules.ScheduleError,
  nextRun: (after: Date) => Date,
  after: Date,
  horizon: number,
): Date | null => {
  try {
    const run = nextRun(after);
    return run.getTime() <= horizon ? run : null;
  } catch (error) {
    // "No run in the next 400 years" after a later run: past the horizon, not a refusal.
    if (error instanceof ScheduleError) return null;
    throw error;
  }
};

/**
 * How a description will be read, before any Knap is made of it: the same parser and errors as
 * create (given, so that the route can load it beside its bundle: shared/services/schedule-parser.ts).
 * The runs stop at the horizon, so there may be fewer than `count`; the first run, the
 * Knap's next_run_at, is always there.
 */
export const previewSchedule = (parser: typeof Schedules, deps: Deps, request: SchedulePreviewRequest): SchedulePreview => {
  const { describeSchedule, runSearch, ScheduleError, sayScheduleInEnglish } = parser;
  if (request.schedule_description.trim() === '') throw badRequest('schedule_description must not be blank');
  const now = deps.clock.now();
  try {
    const { schedule_info, next_run_at } = describeSchedule(request.schedule_description, {
      timezone: request.timezone ?? undefined,
      now,
    });
    const horizon = horizonOf(now);
    // nextRunAt's search, the schedule compiled once for all the runs (describeSchedule has
    // just found a run of it, so it compiles).
    const nextRun = runSearch(schedule_info);
    const runs = [new Date(next_run_at)];
    while (runs.length < request.count) {
      const run = runBefore(ScheduleError, nextRun, runs[runs.length - 1] as Date, horizon);
      if (!run) break;
      runs.push(run);
    }
    // The first run as describeSchedule wrote it: isoSeconds of the Date read back from it, once
    // more, is the same text (~0.4 µs for toISOString).
    const next_runs = [next_run_at, ...runs.slice(1).map(isoSeconds)];
    return { schedule_info, next_runs, description: sayScheduleInEnglish(schedule_info) };
  } catch (error) {
    if (error instanceof ScheduleError) throw badRequest(error.detail);
    throw error;
  }
};
