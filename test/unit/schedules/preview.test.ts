/**
 * previewSchedule (POST /api/studio/schedules/preview) searches the runs with the schedule
 * compiled once and reuses describeSchedule's text for the first: the runs must be nextRunAt's,
 * one after another from next_run_at, written as isoSeconds writes them.
 */
import { isoSeconds } from '../../../shared/domain/clock.js';
import type { Deps } from '../../../shared/runtime.js';
import * as Schedules from '../../../shared/schedules/index.js';
import { describeSchedule, nextRunAt, sayScheduleInEnglish } from '../../../shared/schedules/index.js';
import { previewSchedule } from '../../../shared/services/schedule-preview.js';

const NOW = new Date('2026-03-04T10:00:00Z');
const deps = { clock: { now: () => NOW } } as Deps;

/** What the preview answers, worked out from the parser's public functions one call at a time. */
function expected(description: string, timezone: string | null, count: number) {
  const { schedule_info, next_run_at } = describeSchedule(description, { timezone: timezone ?? undefined, now: NOW });
  const horizon = new Date(NOW);
  horizon.setUTCFullYear(horizon.getUTCFullYear() + 100);
  const runs = [new Date(next_run_at)];
  while (runs.length < count) {
    let run: Date;
    try {
      run = nextRunAt(schedule_info, runs[runs.length - 1] as Date);
    } catch {
      break;
    }
    if (run.getTime() > horizon.getTime()) break;
    runs.push(run);
  }
  return { schedule_info, next_runs: runs.map(isoSeconds), description: sayScheduleInEnglish(schedule_info) };
}

test.each<[string, string | null, number]>([
  ['every weekday at 9am', 'Europe/Berlin', 5],
  ['every 15 minutes', null, 12],
  ['on the first Monday of each month at 8:30 in the Tokyo timezone', null, 5],
  ['every day at noon', 'America/New_York', 50],
  ['every other week on Tuesday at 7:45pm starting next Tuesday', 'Australia/Sydney', 9],
  ['every 5 years on the fifth Wednesday of February', 'UTC', 50],
  ['0 9 * * 1-5', 'Europe/Paris', 1],
  // Issue 46: every time of day among the runs.
  ['at 9am and 5pm on weekdays', 'Europe/Berlin', 6],
  ['0 9,17 * * 1-5', 'America/New_York', 10],
  // Issue 46: a schedule that ends has fewer runs than asked for.
  ['every day 10 times', 'UTC', 50],
  ['every Monday for 4 weeks', 'Europe/Berlin', 50],
  ['tomorrow at 9am and 5pm', 'America/New_York', 5],
])('%s (%s, count %d): the runs nextRunAt finds one after another', (description, timezone, count) => {
  const preview = previewSchedule(Schedules, deps, { schedule_description: description, timezone, count });
  expect(preview).toEqual(expected(description, timezone, count));
  if (/10 times/.test(description)) expect(preview.next_runs).toHaveLength(10);
  if (/4 weeks/.test(description)) expect(preview.next_runs).toHaveLength(4);
  if (/tomorrow/.test(description)) expect(preview.next_runs).toHaveLength(2);
  expect(preview.next_runs[0]).toBe(describeSchedule(description, { timezone: timezone ?? undefined, now: NOW }).next_run_at);
});
