/** An organization admin's runs: listed with their attempts, and sent again (see org-admin.ts). */
import type { PageRequest } from '../domain/repository.js';
import type { AdminRun, AdminRunPage, DeliveryAttemptEntry, OrgRunFilter, StoredRun } from '../domain/runs.js';
import type { EndpointDelivery } from '../domain/webhooks.js';
import type { Deps } from '../runtime.js';
import type { RunRedelivery } from '../schemas/admin.js';
import { recordAudit } from './audit-log.js';
import { knownId, notFound } from './org-admin.js';
import { readPage } from './paging.js';
import type { OrgAdmin } from './request-state.js';

/**
 * A run's attempts, oldest first: those on its endpoint deliveries (each keeps its last
 * attempts), after those earlier versions kept on the run item; a run of a still earlier
 * version, which kept only its last attempt's outcome, shows that one attempt without an endpoint.
 */
const attemptsOf = ({ run, attemptLog }: StoredRun, deliveries: readonly EndpointDelivery[]): DeliveryAttemptEntry[] => {
  const logged = [...(attemptLog ?? []), ...deliveries.flatMap((delivery) => delivery.log)];
  if (logged.length > 0) return logged.sort((a, b) => a.at.localeCompare(b.at));
  if (run.last_attempt_at === null) return [];
  const status = run.status === 'delivered' || run.status === 'no_endpoint' ? run.status : 'failed';
  return [
    {
      at: run.last_attempt_at,
      endpoint_id: null,
      status,
      error: run.last_error,
      response_status: null,
      duration_ms: null,
      response_body: null,
      http_status: null,
    },
  ];
};

// Object.assign, not a spread then a new key: each run of a page would pay microseconds on Node.js 20.
export const adminRunView = (stored: StoredRun, deliveries: readonly EndpointDelivery[] = []): AdminRun =>
  Object.assign({}, stored.run, { knap_name: stored.knapName ?? null, delivery_attempts: attemptsOf(stored, deliveries) });

/** Reads of delivery items at once for one page of runs: a page holds at most 100. */
const DELIVERY_READS = 16;

/** Each run's endpoint deliveries (one Query per run, DELIVERY_READS at a time). */
export const deliveriesOf = async (deps: Deps, runs: readonly StoredRun[]): Promise<EndpointDelivery[][]> => {
  const found: EndpointDelivery[][] = new Array(runs.length);
  for (let start = 0; start < runs.length; start += DELIVERY_READS) {
    const slice = runs.slice(start, start + DELIVERY_READS);
    const read = await Promise.all(slice.map((stored) => deps.repo.runDeliveries(stored.run.run_id)));
    read.forEach((deliveries, index) => {
      found[start + index] = deliveries;
    });
  }
  return found;
};

/**
 * GET /api/admin/runs: one page, filtered (OrgRunFilter). The Knap's name comes with each run
 * (kept on it when it was made), so a page is one Query, or a few when filtered (run-store.ts).
 */
export const listOrgRuns = async (
  deps: Deps,
  admin: OrgAdmin,
  page: PageRequest,
  filter: OrgRunFilter = {},
): Promise<AdminRunPage> => {
  const { runs, next } = await readPage(() => deps.repo.listRunsByOrg(admin.orgName, page, filter));
  const deliveries = await deliveriesOf(deps, runs);
  return { runs: runs.map((stored, index) => adminRunView(stored, deliveries[index])), next_cursor: next };
};

/**
 * Sends a run again with the same webhook-id (its run id): to the endpoints that did not take
 * it (or, when every endpoint had it, to all of them again). A run still on
 * its way (pending) keeps its one chain of attempts: accepted, and nothing more is queued.
 */
export const redeliverOrgRun = async (deps: Deps, admin: OrgAdmin, runId: string): Promise<RunRedelivery> => {
  knownId(runId, 'run');
  const outcome = await deps.repo.redeliverRun(runId, admin.orgName);
  if (outcome === 'not_found') throw notFound('run', runId);
  if (outcome === 'redelivering') {
    await deps.deliveries.enqueue(runId, 0, { orgName: admin.orgName });
    await recordAudit(deps, admin.actor, admin.orgName, 'run.redeliver', { type: 'run', id: runId });
  }
  return { run_id: runId, status: 'pending' };
};
