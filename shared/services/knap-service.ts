import { isoSeconds } from '../domain/clock.js';
import type { CreateKnapInput } from '../domain/knap-input.js';
import type { KnapListing } from '../domain/knaps.js';
import { isShared, type Knap, type KnapPage, type StoredKnap, withRunState } from '../domain/knaps.js';
import { isSubHourly, type QuotaKind } from '../domain/quotas.js';
import type { PageRequest } from '../domain/repository.js';
import { ApiError, badRequest } from '../errors.js';
import { METRIC } from '../metrics.js';
import type { Deps } from '../runtime.js';
import { invalidCursor, readPage } from './paging.js';
import { releaseQuota, reserveQuota } from './quotas.js';
import type { Caller } from './request-state.js';
import { scheduleParser } from './schedule-parser.js';

/** `private`, `public`, or the caller's own organization: never another one's. */
export const checkVisibility = (visibility: string, orgName: string): string => {
  if (visibility === 'private' || visibility === 'public' || visibility === orgName) return visibility;
  throw badRequest(`visibility must be 'private', 'public' or your organization's name ('${orgName}')`);
};

const NO_SCHEDULE: Pick<Knap, 'schedule_info' | 'next_run_at'> = Object.freeze({ schedule_info: null, next_run_at: null });

export const scheduleOf = async (input: CreateKnapInput, now: Date): Promise<Pick<Knap, 'schedule_info' | 'next_run_at'>> => {
  if (input.schedule_type !== 'scheduled') return NO_SCHEDULE;
  const description = input.tool_metadata.schedule_description;
  if (description == null || description.trim() === '') {
    throw badRequest('tool_metadata.schedule_description is required when schedule_type is scheduled');
  }
  const { describeSchedule, ScheduleError } = await scheduleParser();
  try {
    const { schedule_info, next_run_at } = describeSchedule(description, {
      timezone: input.tool_metadata.timezone ?? undefined,
      now,
    });
    return { schedule_info, next_run_at };
  } catch (error) {
    if (error instanceof ScheduleError) throw badRequest(error.detail);
    throw error;
  }
};

/**
 * A schedule that ends by itself (issue 46): a one-off run, or one with an end ("until ...",
 * "10 times"). Re-read from its words when the Knap is activated again, it would start over
 * ("tomorrow" would be a new tomorrow); it resumes instead (resumeOf).
 */
export const endsOnItsOwn = (info: Knap['schedule_info']): info is NonNullable<Knap['schedule_info']> =>
  info !== null && (info.schedule_type === 'once' || typeof info.until === 'string');

/** The stored schedule, from now: the run after now, or null once the schedule has ended. */
export const resumeOf = async (
  info: NonNullable<Knap['schedule_info']>,
  now: Date,
): Promise<Pick<Knap, 'schedule_info' | 'next_run_at'>> => {
  const { nextRunOrNull } = await scheduleParser();
  const next = nextRunOrNull(info, now);
  return { schedule_info: info, next_run_at: next ? isoSeconds(next) : null };
};

/** The Knap's fields a client sets (create, PATCH), with what follows from them. */
export const inputFields = (input: CreateKnapInput, visibility: string) => ({
  name: input.name,
  schedule_type: input.schedule_type,
  is_active: input.is_active,
  visibility,
  can_toggle_default_active: isShared(visibility),
  active_by_default: input.active_by_default,
  tool_metadata: input.tool_metadata,
});

/**
 * Builds the whole Knap first, then stores it with one conditional put: all or nothing. The
 * uuid is given (fresh, or fixed by an Idempotency-Key claim); when a Knap with it exists
 * already, an earlier try of the same request stored it, and that Knap is the answer.
 */
export const createKnap = async (deps: Deps, caller: Caller, input: CreateKnapInput, uuid: string): Promise<StoredKnap> => {
  const { client } = caller;
  const visibility = checkVisibility(input.visibility, client.orgName);
  const now = deps.clock.now();
  const timestamp = now.toISOString();
  // Created inactive: the schedule is parsed (and checked) now, its next run set on activation.
  // A manual Knap has no schedule to read: no await (a turn of the event loop) for it.
  const schedule = input.schedule_type === 'scheduled' ? await scheduleOf(input, now) : NO_SCHEDULE;
  // Assigned in the API's field order: a spread after the first key of a literal is a slow copy.
  const fields = Object.assign({ uuid, creation_user_id: client.userId }, inputFields(input, visibility)) as Knap;
  fields.creation_timestamp = timestamp;
  fields.updated_at = timestamp;
  fields.schedule_info = schedule.schedule_info;
  fields.next_run_at = schedule.next_run_at;
  const knap = withRunState(fields);
  const ownership = { orgName: client.orgName, creatorClientId: client.clientId };
  // Its places in the organization's quotas first (one conditional write): a refusal (409) stores nothing.
  const places = quotaKindsOf(knap);
  await reserveQuota(deps, client.orgName, places);
  let stored: boolean;
  try {
    stored = await deps.repo.putKnap(knap, ownership);
  } catch (error) {
    const timedOut = error instanceof Error && error.name === 'TimeoutError';
    // Not stored: the places go back. A put that timed out may still land: they stay then.
    if (!timedOut) await releaseQuota(deps, client.orgName, places);
    deps.log.error('Storing a Knap failed', { error: (error as Error).message, knap: knap.uuid, timedOut });
    // A write that timed out may still land; say so rather than promise it did not.
    throw new ApiError(
      500,
      timedOut
        ? 'Storing the Knap timed out; it may or may not have been saved. List your Knaps before retrying.'
        : 'The Knap could not be created; nothing was stored. Please retry.',
    );
  }
  if (stored) {
    deps.metrics.count(METRIC.knapsCreated);
    return { knap, ownership, version: 1 };
  }
  // An earlier try of this request stored it, and took its places then.
  await releaseQuota(deps, client.orgName, places);
  const earlier = await deps.repo.getKnap(client.orgName, uuid);
  if (earlier?.ownership.creatorClientId !== client.clientId) throw new Error(`Knap ${uuid} exists and is not the caller's`);
  return { ...earlier, knap: withRunState(earlier.knap) };
};

/** The quota places a Knap takes: one Knap, and one sub-hourly schedule when its schedule is one. */
export const quotaKindsOf = (knap: Pick<Knap, 'schedule_info'>): QuotaKind[] =>
  isSubHourly(knap.schedule_info) ? ['knaps', 'subhourly'] : ['knaps'];

/**
 * Where each of the two listings stopped. A listing that is done is `null`, one not yet
 * started is absent; the pair is the API's opaque `cursor`.
 */
interface ListingCursor {
  mine?: string | null;
  shared?: string | null;
}

const readCursor = (cursor: string | undefined): ListingCursor => {
  if (cursor === undefined) return {};
  try {
    const parsed: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) {
      const { mine, shared } = parsed as Record<string, unknown>;
      const valid = (value: unknown) => value === undefined || value === null || typeof value === 'string';
      if (valid(mine) && valid(shared)) return parsed as ListingCursor;
    }
  } catch {
    // fall through
  }
  throw invalidCursor();
};

const writeCursor = (cursor: Required<ListingCursor>): string | null =>
  cursor.mine === null && cursor.shared === null ? null : Buffer.from(JSON.stringify(cursor), 'utf8').toString('base64url');

const DONE: KnapPage = { knaps: [], next: null };

/**
 * What this client created, and what its organization shares (organization-wide and
 * public), newest first; one page of each per call. Other clients' private Knaps live
 * in neither index entry this reads, so they cannot leak.
 */
export const listKnaps = async (deps: Deps, caller: Caller, query: PageRequest): Promise<KnapListing> => {
  const { client } = caller;
  const cursor = readCursor(query.cursor);
  const page = (position: string | null | undefined, read: (cursor?: string) => Promise<KnapPage>) =>
    position === null ? Promise.resolve(DONE) : read(position);
  const [mine, shared] = await readPage(() =>
    Promise.all([
      page(cursor.mine, (start) => deps.repo.listKnapsByCreator(client.clientId, { limit: query.limit, cursor: start })),
      page(cursor.shared, (start) => deps.repo.listSharedKnaps(client.orgName, { limit: query.limit, cursor: start })),
    ]),
  );
  // can_toggle_default_active is the creator's alone (an admin's in the admin API).
  const sharedKnaps = shared.knaps.map((knap, index) => {
    const own = shared.creators?.[index] === client.clientId;
    return withRunState(own || !knap.can_toggle_default_active ? knap : { ...knap, can_toggle_default_active: false });
  });
  const orgKnaps = sharedKnaps.filter((knap) => knap.visibility !== 'public');
  return {
    my_knaps: mine.knaps.map(withRunState),
    organization_knaps: orgKnaps.length > 0 ? [{ org_name: client.orgName, knaps: orgKnaps }] : [],
    public_knaps: sharedKnaps.filter((knap) => knap.visibility === 'public'),
    next_cursor: writeCursor({ mine: mine.next, shared: shared.next }),
  };
};
