import { epochSeconds } from '../domain/clock.js';
import type { Deps } from '../runtime.js';
import { rruleOf } from '../schedules/rrule.js';
import type { ScheduleInfo } from '../schedules/types.js';

/**
 * One step of `knap-admin migrate`: brings items written by earlier versions to the shape this
 * version reads. Every step is idempotent (a second run changes nothing and says so), so the
 * command is safe to run after every deploy; a release that changes stored items adds its step
 * at the end of MIGRATIONS, never edits one already released.
 */
export interface MigrationStep {
  readonly id: string;
  readonly description: string;
  /** What the step changed, by kind (all zero when there was nothing left to do). */
  run(deps: Deps): Promise<Record<string, number>>;
}

export const MIGRATIONS: readonly MigrationStep[] = [
  {
    id: 'due-index',
    description: 'scheduled Knaps stored before runs existed get their due-index entry',
    run: async (deps) => ({ added: await deps.repo.backfillDueIndex() }),
  },
  {
    id: 'run-index',
    description: "runs made before admins could list them join their organization's listing",
    run: async (deps) => ({ added: await deps.repo.backfillOrgRunsIndex() }),
  },
  {
    id: 'revocations',
    description: 'revocation marks kept on client items move to revocation items',
    run: async (deps) => {
      const { moved, removed } = await deps.repo.migrateClientRevocations(epochSeconds(deps.clock.now()));
      return { moved, removed };
    },
  },
  {
    id: 'schedule-rrule',
    description: 'scheduled Knaps stored before schedule_info.rrule get theirs, from their next run on',
    run: async (deps) => ({
      added: await deps.repo.backfillScheduleRrules((info, first) =>
        first === null ? null : rruleOf(info as ScheduleInfo, new Date(first)),
      ),
    }),
  },
  {
    id: 'meeting-index',
    description: 'active after-meeting Knaps join the meeting index that meeting reports read',
    run: async (deps) => ({ added: await deps.repo.backfillMeetingIndex() }),
  },
  {
    id: 'quota-counts',
    description: 'organizations counted for their quotas (Knaps, sub-hourly schedules, endpoints, clients) once',
    run: async (deps) => ({ organizations: await deps.repo.recountQuotas() }),
  },
];

/** Runs every step in order; a step that fails stops the command (the next run starts over, safely). */
export const runMigrations = async (
  deps: Deps,
  steps: readonly MigrationStep[] = MIGRATIONS,
): Promise<{ id: string; description: string; changed: Record<string, number> }[]> => {
  const done: { id: string; description: string; changed: Record<string, number> }[] = [];
  for (const step of steps) done.push({ id: step.id, description: step.description, changed: await step.run(deps) });
  return done;
};
