/**
 * The Knap entity. Its shape is a valibot schema so that the type, the response
 * validation and the OpenAPI document all derive from one definition.
 */
import * as v from 'valibot';
import { SCHEDULE_KINDS } from '../schedules/types.js';

export const SCHEDULE_TYPES = ['manual', 'scheduled', 'post_meeting_transcription'] as const;
export type KnapScheduleType = (typeof SCHEDULE_TYPES)[number];

const days = (description: string) => v.nullable(v.pipe(v.array(v.pipe(v.number(), v.integer())), v.description(description)));

export const ScheduleInfoSchema = v.object({
  schedule_type: v.picklist(SCHEDULE_KINDS),
  schedule_time: v.pipe(
    v.string(),
    v.regex(/^\d{2}:\d{2}$/),
    v.description('Local time of day, HH:MM, 24-hour; hourly and minutely: the first run of each day'),
  ),
  schedule_times: v.optional(
    v.pipe(
      v.array(v.pipe(v.string(), v.regex(/^\d{2}:\d{2}$/))),
      v.description(
        'Only on schedules that run at several times of day ("at 9am and 5pm", "0 9,17 * * 1-5"): every time, HH:MM, ascending; schedule_time is the first',
      ),
    ),
  ),
  end_time: v.optional(
    v.nullable(
      v.pipe(
        v.string(),
        v.regex(/^\d{2}:\d{2}$/),
        v.description('Hourly and minutely only: the latest run of each day, HH:MM, or null for none before midnight'),
      ),
    ),
  ),
  days_of_week: days('0 = Sunday ... 6 = Saturday'),
  days_of_month: days('1..31, -1 = last day of the month'),
  weeks_of_month: days('1..5, -1 = last; with days_of_week ("first Monday")'),
  months_of_year: days('1 = January ... 12 = December'),
  set_positions: v.optional(
    v.pipe(
      v.array(v.pipe(v.number(), v.integer())),
      v.description(
        'Only on working-day schedules ("first business day of the month": days_of_week Monday to Friday, [1]; "last weekday": [-1]): RFC 5545 BYSETPOS among the month\'s days the other fields allow',
      ),
    ),
  ),
  interval: v.pipe(
    v.number(),
    v.integer(),
    v.minValue(1),
    v.description('Every N minutes, hours, days, weeks, months or years (the unit is schedule_type)'),
  ),
  timezone: v.pipe(v.string(), v.description('IANA time zone of schedule_time')),
  anchor_date: v.nullable(
    v.pipe(
      v.string(),
      v.isoDate(),
      v.description('Local date of the first run when interval > 1; of the one run of a once schedule'),
    ),
  ),
  until: v.optional(
    v.pipe(
      v.string(),
      v.isoTimestamp(),
      v.description(
        'Only on schedules that end ("until 31 December 2026", "for 4 weeks", "10 times"): the last instant a run may be at, inclusive, ISO 8601 UTC',
      ),
    ),
  ),
  count: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.description('Only on "10 times" schedules: how many runs in all, missed ones included; until is the last'),
    ),
  ),
  rrule: v.optional(
    v.nullable(
      v.pipe(
        v.string(),
        v.description(
          'RFC 5545 DTSTART and RRULE lines, separated by "\\n", whose occurrences are exactly the runs from the first (next_run_at when the schedule was read): DTSTART;TZID=<timezone>:<local time>, or DTSTART:<UTC time>Z. Null when one RRULE cannot say the schedule (docs/schedules.md); absent on Knaps stored before it was added',
        ),
      ),
    ),
  ),
});

const timestamp = v.pipe(v.string(), v.isoTimestamp(), v.description('ISO 8601, UTC'));

export const KnapSchema = v.object({
  uuid: v.pipe(v.string(), v.uuid()),
  name: v.pipe(v.string(), v.minLength(1)),
  creation_user_id: v.pipe(v.number(), v.integer()),
  schedule_type: v.picklist(SCHEDULE_TYPES),
  is_active: v.boolean(),
  visibility: v.pipe(v.string(), v.description("'private', 'public', or the organization's name")),
  can_toggle_default_active: v.pipe(v.boolean(), v.description('True exactly when the Knap is shared (not private)')),
  active_by_default: v.boolean(),
  tool_metadata: v.pipe(
    v.record(v.string(), v.unknown()),
    v.description(
      'Free-form JSON object, every member kept as sent; numbers are kept exactly as sent, 64-bit integers included. A member named __proto__, at any depth, is refused (400)',
    ),
  ),
  creation_timestamp: timestamp,
  updated_at: timestamp,
  schedule_info: v.nullable(ScheduleInfoSchema),
  next_run_at: v.pipe(
    v.nullable(timestamp),
    v.description('The next scheduled run; null for manual and after-meeting Knaps, and while the Knap is inactive'),
  ),
});
export type Knap = v.InferOutput<typeof KnapSchema>;

/** GET /api/studio/knap-tools: one page of each listing. */
export const KnapListingSchema = v.object({
  my_knaps: v.array(KnapSchema),
  organization_knaps: v.array(v.object({ org_name: v.string(), knaps: v.array(KnapSchema) })),
  public_knaps: v.array(KnapSchema),
  next_cursor: v.pipe(v.nullable(v.string()), v.description('Pass as `cursor` for the next page; null at the end')),
});
export type KnapListing = v.InferOutput<typeof KnapListingSchema>;

/** Where a Knap lives and who made it: what listing and isolation need besides the Knap itself. */
export interface KnapOwnership {
  orgName: string;
  creatorClientId: string;
}

/** A Knap as stored: with where it lives and its version, which changes on every write (the ETag). */
export interface StoredKnap {
  knap: Knap;
  ownership: KnapOwnership;
  version: number;
}

export interface KnapPage {
  knaps: Knap[];
  /** The client id that created each Knap, in the same order (absent: not read). */
  creators?: string[];
  /** Opaque position to continue from, or null at the end. */
  next: string | null;
}

export const isShared = (visibility: string): boolean => visibility !== 'private';

/**
 * An inactive Knap never runs, so it has no next run: `next_run_at` is null while inactive and
 * recomputed from now when it is activated again (the contract's "Runs"). Every Knap the
 * service writes or answers passes through here, so items stored before the rule (inactive,
 * with a past next_run_at) read as null too, and are written back so on their next change.
 */
export const withRunState = (knap: Knap): Knap =>
  knap.is_active || knap.next_run_at === null ? knap : { ...knap, next_run_at: null };

/** The fields a client sets: the create body, and what a PATCH may change. */
export const KNAP_INPUT_FIELDS = [
  'name',
  'schedule_type',
  'is_active',
  'visibility',
  'active_by_default',
  'tool_metadata',
] as const;

/** A client sees a Knap it created, and the Knaps its organization shares (any visibility but private). */
export const canSee = (stored: StoredKnap, client: { clientId: string; orgName: string }): boolean =>
  stored.ownership.creatorClientId === client.clientId ||
  (stored.ownership.orgName === client.orgName && isShared(stored.knap.visibility));

/** Only the client that created a Knap changes or deletes it. */
export const canChange = (stored: StoredKnap, client: { clientId: string }): boolean =>
  stored.ownership.creatorClientId === client.clientId;

/** A strong ETag for a version of a Knap. */
export const etagOf = (version: number): string => `"${version}"`;

/** If-Match (RFC 9110 section 13.1.1): `*` or a list of strong entity tags; absent matches anything. */
export const ifMatchAllows = (ifMatch: string | undefined, version: number): boolean => {
  if (ifMatch === undefined) return true;
  const tags = ifMatch.split(',').map((tag) => tag.trim());
  return tags.includes('*') || tags.includes(etagOf(version));
};
