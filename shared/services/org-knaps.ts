/**
 * An organization admin's Knaps (Knapsack: "owner or organization admin"): every Knap of the
 * admin's organization, private ones included, read, changed and deleted by the admin (see
 * org-admin.ts). Another organization's Knap is a 404: its key names the admin's organization,
 * so it is never read. Each change is one conditional write on the Knap's version, then audited
 * with the Knap's uuid.
 */
import { viewedBy } from '../domain/knap-members.js';
import { ifMatchAllows, type Knap, type StoredKnap, withRunState } from '../domain/knaps.js';
import type { PageRequest } from '../domain/repository.js';
import { ApiError } from '../errors.js';
import type { Deps } from '../runtime.js';
import { ADMIN_KNAP_FIELDS, type AdminKnap, type LastRun } from '../schemas/admin-knaps.js';
import { recordAudit } from './audit-log.js';
import { checkedPatch, knapNotFound, patched } from './knap-lifecycle.js';
import { quotaKindsOf } from './knap-service.js';
import { readPage } from './paging.js';
import { releaseQuota } from './quotas.js';
import type { OrgAdmin } from './request-state.js';
import { scheduleParser } from './schedule-parser.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const MAX_ATTEMPTS = 3;

const preconditionFailed = (): ApiError =>
  new ApiError(412, 'The Knap has changed since the ETag in If-Match: read it again and retry with its new ETag');

const racing = (): ApiError => new ApiError(409, 'The Knap is being changed by other requests; retry', { 'Retry-After': '1' });

/** The schedule said back in English, as the preview says it; null without one (or one this version cannot say). */
const summaryOf = async (knap: Knap): Promise<string | null> => {
  if (knap.schedule_info === null) return null;
  const { sayScheduleInEnglish } = await scheduleParser();
  try {
    return sayScheduleInEnglish(knap.schedule_info);
  } catch {
    return null;
  }
};

/** The Knap's newest run: one Query of one item on its runs' index, whatever its history. */
const lastRunOf = async (deps: Deps, uuid: string): Promise<LastRun | null> => {
  const [run] = (await deps.repo.listRuns(uuid, { limit: 1 })).runs;
  return run ? { run_id: run.run_id, created_at: run.created_at, status: run.status, outcome: run.outcome ?? null } : null;
};

/** A Knap as an admin sees it: `can_toggle_default_active` as for its organization's admins, with its schedule and last run in brief. */
export const adminKnapView = async (deps: Deps, stored: StoredKnap): Promise<AdminKnap> => {
  const knap = viewedBy({ ...stored, knap: withRunState(stored.knap) }, 'admin');
  const [schedule_summary, last_run] = await Promise.all([summaryOf(knap), lastRunOf(deps, knap.uuid)]);
  return { ...knap, schedule_summary, last_run };
};

/** A Knap of the admin's organization, or a 404 (a string that is not a UUID: no read). */
const orgKnap = async (deps: Deps, admin: OrgAdmin, uuid: string): Promise<StoredKnap> => {
  if (!UUID.test(uuid)) throw knapNotFound();
  const stored = await deps.repo.getKnap(admin.orgName, uuid.toLowerCase());
  if (!stored) throw knapNotFound();
  return stored;
};

/**
 * One page of the organization's Knaps (by uuid), each with its last run: at most `limit`
 * one-item Queries beside the page's, made at once.
 */
export const listOrgKnaps = async (
  deps: Deps,
  admin: OrgAdmin,
  page: PageRequest,
): Promise<{ knaps: AdminKnap[]; next_cursor: string | null }> => {
  const { knaps, next } = await readPage(() => deps.repo.listOrgKnaps(admin.orgName, page));
  return { knaps: await Promise.all(knaps.map((stored) => adminKnapView(deps, stored))), next_cursor: next };
};

export const getOrgKnap = async (deps: Deps, admin: OrgAdmin, uuid: string): Promise<{ knap: AdminKnap; version: number }> => {
  const stored = await orgKnap(deps, admin, uuid);
  return { knap: await adminKnapView(deps, stored), version: stored.version };
};

/**
 * PATCH: `name`, `is_active`, `active_by_default`, `tool_metadata` as a merge patch, validated
 * as the creator's PATCH is (the schedule follows `is_active` and the description). Turned off,
 * the Knap has no next run and leaves the due index in the same write: it does not run.
 */
export const updateOrgKnap = async (
  deps: Deps,
  admin: OrgAdmin,
  uuid: string,
  body: unknown,
  ifMatch: string | undefined,
): Promise<{ knap: AdminKnap; version: number }> => {
  const patch = checkedPatch(body, ADMIN_KNAP_FIELDS);
  for (let attempt = 1; ; attempt += 1) {
    const stored = await orgKnap(deps, admin, uuid);
    if (!ifMatchAllows(ifMatch, stored.version)) throw preconditionFailed();
    const knap = await patched(deps, admin.orgName, stored, patch);
    if (await deps.repo.replaceKnap(knap, stored.ownership, stored.version)) {
      await recordAudit(deps, admin.actor, admin.orgName, 'knap.update', { type: 'knap', id: knap.uuid });
      const written = { knap, ownership: stored.ownership, version: stored.version + 1 };
      return { knap: await adminKnapView(deps, written), version: written.version };
    }
    if (attempt === MAX_ATTEMPTS) throw racing();
  }
};

/** DELETE: gone from every read and listing, and from the schedule, in one conditional delete. */
export const deleteOrgKnap = async (deps: Deps, admin: OrgAdmin, uuid: string, ifMatch: string | undefined): Promise<void> => {
  for (let attempt = 1; ; attempt += 1) {
    const stored = await orgKnap(deps, admin, uuid);
    if (!ifMatchAllows(ifMatch, stored.version)) throw preconditionFailed();
    if (await deps.repo.deleteKnap(admin.orgName, stored.knap.uuid, stored.version)) {
      // This delete removed it (at the version read): its quota places come back once.
      await releaseQuota(deps, admin.orgName, quotaKindsOf(stored.knap));
      await recordAudit(deps, admin.actor, admin.orgName, 'knap.delete', { type: 'knap', id: stored.knap.uuid });
      return;
    }
    if (attempt === MAX_ATTEMPTS) throw racing();
  }
};
