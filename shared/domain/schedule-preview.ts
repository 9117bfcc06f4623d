import * as v from 'valibot';
import { MAX_DESCRIPTION_LENGTH } from '../schedules/types.js';
import { ScheduleInfoSchema } from './knaps.js';

export const MAX_PREVIEW_RUNS = 50;
export const DEFAULT_PREVIEW_RUNS = 5;
/**
 * A preview lists the runs of the next 100 years, at most `count`. A rare schedule ("every 5
 * years on the fifth Wednesday of February") would otherwise answer runs thousands of years
 * away, with years such as +011860 that no ISO 8601 reader expects.
 */
export const PREVIEW_HORIZON_YEARS = 100;

/** POST /api/studio/schedules/preview body. */
export const SchedulePreviewRequestSchema = v.object({
  schedule_description: v.pipe(
    v.string('schedule_description is required and must be a string'),
    v.check(
      (value) => [...value].length <= MAX_DESCRIPTION_LENGTH,
      `schedule_description must be at most ${MAX_DESCRIPTION_LENGTH} characters`,
    ),
  ),
  timezone: v.nullish(v.pipe(v.string('timezone must be a string'), v.maxLength(64, 'timezone must be at most 64 characters'))),
  count: v.optional(
    v.pipe(
      v.number(`count must be a whole number from 1 to ${MAX_PREVIEW_RUNS}`),
      v.integer(`count must be a whole number from 1 to ${MAX_PREVIEW_RUNS}`),
      v.minValue(1, `count must be a whole number from 1 to ${MAX_PREVIEW_RUNS}`),
      v.maxValue(MAX_PREVIEW_RUNS, `count must be a whole number from 1 to ${MAX_PREVIEW_RUNS}`),
    ),
    DEFAULT_PREVIEW_RUNS,
  ),
});
export type SchedulePreviewRequest = v.InferOutput<typeof SchedulePreviewRequestSchema>;

export const SchedulePreviewSchema = v.object({
  schedule_info: ScheduleInfoSchema,
  next_runs: v.pipe(
    v.array(v.pipe(v.string(), v.isoTimestamp())),
    v.description(
      `The next runs, ISO 8601 UTC, soonest first: at most count, and only those in the next ${PREVIEW_HORIZON_YEARS} years (fewer than count when the schedule runs rarely), but always the first run`,
    ),
  ),
  description: v.pipe(v.string(), v.description('The schedule said back in plain English')),
});
export type SchedulePreview = v.InferOutput<typeof SchedulePreviewSchema>;
