/**
 * An organization admin watching a run: GET /api/admin/runs/{run_id} (the run, its attempts
 * and its events) and .../events (JSON or Server-Sent Events). The studio's watching code
 * (run-watch.ts) answers both; only the way to the run differs: any run of the admin's
 * organization, whatever its Knap (deleted ones too), and another organization's is a 404.
 * Apart from org-runs.ts so that the listing's bundle carries none of it.
 */
import type { AdminRunDetail } from '../domain/runs.js';
import type { Deps } from '../runtime.js';
import { knownId, notFound } from './org-admin.js';
import { adminRunView } from './org-runs.js';
import type { OrgAdmin } from './request-state.js';
import { expireIfDue } from './run-events.js';
import { allRunEvents, type RunWatcher } from './run-watch.js';

/** The admin as a watcher of runs: their organization's, and a stream's slots of their own. */
export const adminWatcher = (admin: OrgAdmin): RunWatcher => ({
  readRun: async (deps, runId) => {
    knownId(runId, 'run');
    const stored = await deps.repo.getRun(runId);
    if (!stored || stored.orgName !== admin.orgName) throw notFound('run', runId);
    // As the studio's read: a report window that closed unreported gets its `expired` event.
    await expireIfDue(deps, stored);
    return stored;
  },
  slotOwner: `admin#${admin.orgName}#${admin.actor.name}`,
  slotHolder: 'admin',
});

/**
 * GET /api/admin/runs/{run_id}: the run as the listing shows it, with every event. Two reads
 * (the run, then its events and its endpoint deliveries); a run whose report window closed unreported first gets its
 * `expired` event (a Query and a conditional Put), as the studio's read does.
 */
export const getOrgRun = async (deps: Deps, admin: OrgAdmin, runId: string): Promise<AdminRunDetail> => {
  const stored = await adminWatcher(admin).readRun(deps, runId);
  const [events, deliveries] = await Promise.all([allRunEvents(deps, stored), deps.repo.runDeliveries(runId)]);
  return Object.assign(adminRunView(stored, deliveries), { events });
};
