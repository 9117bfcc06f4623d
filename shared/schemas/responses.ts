import * as v from 'valibot';
import { SCHEDULE_TYPES } from '../domain/knaps.js';
import { SCHEDULE_KINDS } from '../schedules/types.js';

/** What the API answers. Types below are derived from these, and so is docs/openapi.json. */
export const ErrorSchema = v.object({ detail: v.string() });

export const TokenResponseSchema = v.object({
  access_token: v.pipe(v.string(), v.startsWith('knap_at_')),
  token_type: v.literal('Bearer'),
  expires_in: v.literal(3600),
  refresh_token: v.pipe(v.string(), v.startsWith('knap_rt_')),
  scope: v.pipe(v.string(), v.description('Space-separated scopes granted')),
});
export type TokenResponse = v.InferOutput<typeof TokenResponseSchema>;

const days = (description: string) => v.nullable(v.pipe(v.array(v.pipe(v.number(), v.integer())), v.description(description)));

export const ScheduleInfoSchema = v.object({
  schedule_type: v.picklist(SCHEDULE_KINDS),
  schedule_time: v.pipe(v.string(), v.regex(/^\d{2}:\d{2}$/), v.description('Local time of day, HH:MM, 24-hour')),
  days_of_week: days('0 = Sunday ... 6 = Saturday'),
  days_of_month: days('1..31, -1 = last day of the month'),
  weeks_of_month: days('1..5, -1 = last; with days_of_week ("first Monday")'),
  months_of_year: days('1 = January ... 12 = December'),
  interval: v.pipe(v.number(), v.integer(), v.minValue(1), v.description('Every N days, weeks, months or years')),
  timezone: v.pipe(v.string(), v.description('IANA time zone of schedule_time')),
  anchor_date: v.nullable(v.pipe(v.string(), v.isoDate(), v.description('Local date of the first run when interval > 1'))),
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
  tool_metadata: v.record(v.string(), v.unknown()),
  creation_timestamp: timestamp,
  updated_at: timestamp,
  schedule_info: v.nullable(ScheduleInfoSchema),
  next_run_at: v.nullable(timestamp),
});
export type Knap = v.InferOutput<typeof KnapSchema>;

export const KnapListingSchema = v.object({
  my_knaps: v.array(KnapSchema),
  organization_knaps: v.array(v.object({ org_name: v.string(), knaps: v.array(KnapSchema) })),
  public_knaps: v.array(KnapSchema),
  next_cursor: v.pipe(v.nullable(v.string()), v.description('Pass as `cursor` for the next page; null at the end')),
});
export type KnapListing = v.InferOutput<typeof KnapListingSchema>;
