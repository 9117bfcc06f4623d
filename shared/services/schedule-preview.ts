import { isoSeconds } from '../domain/clock.js';
import type { SchedulePreview, SchedulePreviewRequest } from '../domain/schedule-preview.js';
import { badRequest } from '../errors.js';
import type { Deps } from '../runtime.js';
import { describeSchedule, nextRunAt, ScheduleError, sayScheduleInEnglish } from '../schedules/index.js';

/** How a description will be read, before any Knap is made of it: the same parser and errors as create. */
export const previewSchedule = (deps: Deps, request: SchedulePreviewRequest): SchedulePreview => {
  if (request.schedule_description.trim() === '') throw badRequest('schedule_description must not be blank');
  try {
    const { schedule_info, next_run_at } = describeSchedule(request.schedule_description, {
      timezone: request.timezone ?? undefined,
      now: deps.clock.now(),
    });
    const runs = [new Date(next_run_at)];
    while (runs.length < request.count) runs.push(nextRunAt(schedule_info, runs[runs.length - 1] as Date));
    return { schedule_info, next_runs: runs.map(isoSeconds), description: sayScheduleInEnglish(schedule_info) };
  } catch (error) {
    if (error instanceof ScheduleError) throw badRequest(error.detail);
    throw error;
  }
};
