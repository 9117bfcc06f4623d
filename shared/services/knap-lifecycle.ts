/**
 * One Knap: read, change, delete. Who may do what (the contract's "One Knap"): a Knap the
 * caller cannot see is a 404, never a 403, so existence is not disclosed; one it sees but did
 * not create is a 403 on change and delete; an If-Match that no longer matches is a 412. Every
 * write holds only while the Knap is at the version that was read, so two racing writes
 * cannot both land.
 */
import { readKnapInput, sentMetadataProblem } from '../domain/knap-input.js';
import {
  activeByDefaultProblem,
  canToggleDefaultActive,
  KNAP_BODY_FIELDS,
  readOnlyProblem,
  unknownMemberProblem,
  visibilityProblem,
} from '../domain/knap-members.js';
import {
  canChange,
  canSee,
  ifMatchAllows,
  KNAP_INPUT_FIELDS,
  type Knap,
  type StoredKnap,
  withRunState,
} from '../domain/knaps.js';
import { isJsonObject, mergePatch } from '../domain/merge-patch.js';
import { isSubHourly } from '../domain/quotas.js';
import { ApiError, badRequest } from '../errors.js';
import type { Deps } from '../runtime.js';
import { checkVisibility, endsOnItsOwn, inputFields, quotaKindsOf, resumeOf, scheduleOf } from './knap-service.js';
import { knownOrgOf } from './meter.js';
import { releaseQuota, reserveQuota } from './quotas.js';
import type { Caller } from './request-state.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** DELETE's answer, as Knapsack's API words it. */
export const KNAP_DELETED = 'Knap deleted successfully';

export const knapNotFound = (): ApiError => new ApiError(404, 'Knap not found');

const notYours = (): ApiError => new ApiError(403, 'Only the API client that created this Knap may change or delete it');

const preconditionFailed = (): ApiError =>
  new ApiError(412, 'The Knap has changed since the ETag in If-Match: read it again and retry with its new ETag');

/** A Knap's read, started beside the metering write (see readKnapBeside). */
export interface EarlyKnapRead {
  orgName: string;
  uuid: string;
  stored: Promise<StoredKnap | null>;
}

/**
 * Starts the read of a Knap beside the metering write (apiHandler's `beside`): once the
 * container has metered the client before, its organization, and so the Knap's key, is known
 * before the write answers, and GET and PATCH are one round trip shallower. The read is
 * trusted only after authentication has passed (when it refuses, the read is dropped unseen:
 * the refusal is the same whether the Knap exists or not), and only for the organization of
 * the client that was metered; otherwise (a client this container has not seen, or whose
 * metering it refused in this window: at its limit, revoked; a string that is not a UUID)
 * nothing starts, and readKnap reads after authentication as before.
 */
export const readKnapBeside = (deps: Deps, clientId: string, uuid: string | undefined): EarlyKnapRead | undefined => {
  const orgName = knownOrgOf(clientId, deps.clock.now());
  if (orgName === undefined || uuid === undefined || !UUID.test(uuid)) return undefined;
  const id = uuid.toLowerCase();
  const stored = deps.repo.getKnap(orgName, id);
  stored.catch(() => {}); // awaited by readKnap; never, when authentication refuses
  return { orgName, uuid: id, stored };
};

/** apiHandler's `beside` for the routes of one Knap (GET, PATCH, DELETE): its read, by the path's uuid. */
export const knapReadBeside = (
  deps: Deps,
  event: { pathParameters?: Record<string, string | undefined> },
  clientId: string,
): EarlyKnapRead | undefined => readKnapBeside(deps, clientId, event.pathParameters?.uuid);

/**
 * A Knap this caller sees, or a 404. A string that is not a UUID cannot name one: no read. An
 * item stored inactive with a next run (written before that rule) reads with none. `early`:
 * the read readKnapBeside started, used when it is of this caller's organization and Knap.
 */
export const readKnap = async (deps: Deps, caller: Caller, uuid: string, early?: EarlyKnapRead): Promise<StoredKnap> => {
  if (!UUID.test(uuid)) throw knapNotFound();
  const id = uuid.toLowerCase();
  const { orgName } = caller.client;
  const stored =
    early && early.orgName === orgName && early.uuid === id ? await early.stored : await deps.repo.getKnap(orgName, id);
  if (!stored || !canSee(stored, caller.client)) throw knapNotFound();
  return { ...stored, knap: withRunState(stored.knap) };
};

/** A Knap this caller may change at the If-Match it sent; 404, 403 or 412 otherwise, in that order. */
const changeableKnap = async (deps: Deps, caller: Caller, uuid: string, ifMatch: string | undefined, early?: EarlyKnapRead) => {
  const stored = await readKnap(deps, caller, uuid, early);
  if (!canChange(stored, caller.client)) throw notYours();
  if (!ifMatchAllows(ifMatch, stored.version)) throw preconditionFailed();
  return stored;
};

/** The create body a stored Knap answers to: what a merge patch applies to. */
const inputOf = (knap: Knap): Record<string, unknown> => {
  const input: Record<string, unknown> = {};
  for (const field of KNAP_INPUT_FIELDS) input[field] = knap[field];
  return input;
};

/** The schedule's inputs, as JSON would compare them (absent is null). */
const sameSchedule = (a: Pick<Knap, 'schedule_type' | 'tool_metadata'>, b: Pick<Knap, 'schedule_type' | 'tool_metadata'>) =>
  a.schedule_type === b.schedule_type &&
  sameJson(a.tool_metadata.schedule_description ?? null, b.tool_metadata.schedule_description ?? null) &&
  sameJson(a.tool_metadata.timezone ?? null, b.tool_metadata.timezone ?? null);

/** Two members of tool_metadata, equal as JSON: strings (what is validated) at once, anything an older version stored by its JSON. */
const sameJson = (a: unknown, b: unknown): boolean =>
  a === b || (typeof a === 'object' && typeof b === 'object' && JSON.stringify(a) === JSON.stringify(b));

/**
 * The Knap a merge patch makes of a stored one (PATCH, PUT, an admin's PATCH), validated as a
 * whole as a create body is. Read-only members were checked against the Knap as answered
 * (readOnlyProblem); only the fields a client sets are applied.
 */
export const patched = async (deps: Deps, orgName: string, stored: StoredKnap, patch: Record<string, unknown>): Promise<Knap> => {
  const changes: Record<string, unknown> = {};
  for (const field in patch) {
    if (Object.hasOwn(patch, field) && (KNAP_INPUT_FIELDS as readonly string[]).includes(field)) changes[field] = patch[field];
  }
  const before = stored.knap;
  const read = readKnapInput(mergePatch(inputOf(before), changes));
  if ('problem' in read) throw badRequest(read.problem);
  const { input } = read;
  const fixed = visibilityProblem(input.visibility, before.visibility);
  if (fixed) throw badRequest(fixed);
  const visibility = checkVisibility(input.visibility, orgName);
  const defaultActive = activeByDefaultProblem(visibility, input.active_by_default, before.active_by_default);
  if (defaultActive) throw badRequest(defaultActive);
  const now = deps.clock.now();
  // When the schedule's inputs are as they were and the Knap was not re-activated, its runs stay as they were.
  const same = sameSchedule(input, before);
  const reschedule = !same || (input.is_active && !before.is_active);
  // Activated again with the same words, a one-off or a schedule with an end resumes where it
  // was (issue 46): after its last run it has no next run, rather than starting over.
  const resume = same && endsOnItsOwn(before.schedule_info) && before.schedule_type === 'scheduled';
  // Deactivated: no next run (and so out of the due index) until activated again.
  return withRunState({
    ...before,
    ...inputFields(input, visibility),
    updated_at: now.toISOString(),
    // From now: missed runs are not caught up.
    ...(reschedule
      ? await (resume ? resumeOf(before.schedule_info as NonNullable<Knap['schedule_info']>, now) : scheduleOf(input, now))
      : {}),
  });
};

/**
 * A PUT or PATCH body as sent: a JSON object whose top-level members are all among `fields`
 * (an unknown one, likely misspelt, is refused rather than silently dropped), with no
 * `__proto__` in tool_metadata (checked before the merge: merging one would set a prototype).
 */
export const checkedPatch = (patch: unknown, fields: readonly string[]): Record<string, unknown> => {
  if (!isJsonObject(patch)) throw badRequest('Request body must be a JSON object (a JSON merge patch)');
  const unknown = unknownMemberProblem(patch, fields);
  if (unknown) throw badRequest(unknown);
  const refused = sentMetadataProblem(patch);
  if (refused) throw badRequest(refused);
  return patch;
};

/** How often a PATCH without If-Match re-reads after losing a race to another writer. */
const MAX_ATTEMPTS = 3;

/** PATCH: a JSON merge patch of the create fields; the result is validated as a create body is. */
export const updateKnap = async (
  deps: Deps,
  caller: Caller,
  uuid: string,
  patch: unknown,
  ifMatch: string | undefined,
  early?: EarlyKnapRead,
): Promise<StoredKnap> => {
  const body = checkedPatch(patch, KNAP_BODY_FIELDS);
  for (let attempt = 1; ; attempt += 1) {
    // The first try may use the read made beside authentication; a retry reads again.
    const stored = await changeableKnap(deps, caller, uuid, ifMatch, attempt === 1 ? early : undefined);
    // The creator changes it: the Knap as it was answered to its creator.
    const readOnly = readOnlyProblem(body, {
      ...stored.knap,
      can_toggle_default_active: canToggleDefaultActive(stored.knap.visibility, true),
    });
    if (readOnly) throw badRequest(readOnly);
    const knap = await patched(deps, caller.client.orgName, stored, body);
    // A schedule made sub-hourly takes a quota place first (409 when none is left: nothing
    // changes); one no longer sub-hourly gives its place back once the change has landed.
    const wasSubHourly = isSubHourly(stored.knap.schedule_info);
    const isNowSubHourly = isSubHourly(knap.schedule_info);
    const { orgName } = stored.ownership;
    if (isNowSubHourly && !wasSubHourly) await reserveQuota(deps, orgName, ['subhourly']);
    if (await deps.repo.replaceKnap(knap, stored.ownership, stored.version)) {
      if (wasSubHourly && !isNowSubHourly) await releaseQuota(deps, orgName, ['subhourly']);
      return { knap, ownership: stored.ownership, version: stored.version + 1 };
    }
    if (isNowSubHourly && !wasSubHourly) await releaseQuota(deps, orgName, ['subhourly']);
    // Changed or deleted since the read: with an If-Match that is the caller's 412 (or 404),
    // found on the next read; without one, merge into the newer version.
    if (attempt === MAX_ATTEMPTS) {
      throw new ApiError(409, 'The Knap is being changed by other requests; retry', { 'Retry-After': '1' });
    }
  }
};

/** DELETE: gone from GET, the listings and the schedule in one conditional delete. */
export const deleteKnap = async (
  deps: Deps,
  caller: Caller,
  uuid: string,
  ifMatch: string | undefined,
  early?: EarlyKnapRead,
): Promise<void> => {
  for (let attempt = 1; ; attempt += 1) {
    // The first try may use the read made beside authentication; a retry reads again.
    const stored = await changeableKnap(deps, caller, uuid, ifMatch, attempt === 1 ? early : undefined);
    if (await deps.repo.deleteKnap(stored.ownership.orgName, stored.knap.uuid, stored.version)) {
      // This delete removed it (at the version read): its places come back once.
      await releaseQuota(deps, stored.ownership.orgName, quotaKindsOf(stored.knap));
      return;
    }
    if (attempt === MAX_ATTEMPTS) {
      throw new ApiError(409, 'The Knap is being changed by other requests; retry', { 'Retry-After': '1' });
    }
  }
};
