/** Knaps, webhooks and idempotency records to and from DynamoDB items (see keys.ts for the key design; client-items.ts and run-items.ts for the rest). */
import type { IdempotencyRecord } from '../domain/idempotency.js';
import { isShared, type Knap, type KnapOwnership, ScheduleInfoSchema, type StoredKnap } from '../domain/knaps.js';
import { parseStoredJson, toJson } from '../domain/storable-json.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEndpoint, type WebhookEventType } from '../domain/webhooks.js';
import { dueShard, key } from './keys.js';

export type { Item } from './table-ops.js';

import type { Item } from './table-ops.js';

// Each item's literal starts with a plain key, its key spread after: on Node.js 20 a literal
// that starts with a spread makes every key after it cost about a microsecond
// (docs/performance.md, "Spreads on Node.js 20").

const KNAP_FIELDS = [
  'uuid',
  'name',
  'creation_user_id',
  'schedule_type',
  'is_active',
  'visibility',
  'can_toggle_default_active',
  'active_by_default',
  'tool_metadata',
  'creation_timestamp',
  'updated_at',
  'schedule_info',
  'next_run_at',
] as const satisfies readonly (keyof Knap)[];

/** Every field of a Knap is in KNAP_FIELDS: the typechecker refuses this line otherwise. */
const everyKnapField: Exclude<keyof Knap, (typeof KNAP_FIELDS)[number]> extends never ? true : never = true;
void everyKnapField;

/**
 * The Knap's item. Built by assignment rather than spreads: each spread after the first in an
 * object literal is a slow copy in V8, and every create and PATCH writes one.
 */
export const knapToItem = (knap: Knap, ownership: KnapOwnership, version = 1): Item => {
  const order = `${knap.creation_timestamp}#${knap.uuid}`;
  const { pk, sk } = key.knap(ownership.orgName, knap.uuid);
  const item: Item = {
    pk,
    sk,
    type: 'knap',
    org_name: ownership.orgName,
    creator_client_id: ownership.creatorClientId,
    gsi1pk: key.creatorKnaps(ownership.creatorClientId),
    gsi1sk: order,
  };
  // Sparse indexes: private Knaps never enter the shared listing, only active scheduled
  // Knaps the due index, and only active after-meeting Knaps the meeting index (both gsi3).
  if (isShared(knap.visibility)) {
    item.gsi2pk = key.sharedKnaps(ownership.orgName);
    item.gsi2sk = order;
  }
  const entry = knapGsi3Entry(knap, ownership);
  if (entry.gsi3pk !== undefined) {
    item.gsi3pk = entry.gsi3pk;
    item.gsi3sk = entry.gsi3sk;
  }
  for (const field of KNAP_FIELDS) item[field] = knap[field];
  item.tool_metadata = toJson(knap.tool_metadata);
  item.version = version;
  return item;
};

/**
 * tool_metadata is stored as JSON text so every number keeps its digits; items written
 * before that hold it as a DynamoDB map, read as it is.
 */
const readToolMetadata = (stored: unknown): Record<string, unknown> => {
  if (typeof stored === 'string') return parseStoredJson(stored) as Record<string, unknown>;
  return stored !== null && typeof stored === 'object' ? (stored as Record<string, unknown>) : {};
};

const SCHEDULE_INFO_FIELDS = Object.keys(ScheduleInfoSchema.entries);

/**
 * schedule_info in the schema's field order: DynamoDB keeps no order in a map (DynamoDB Local
 * and the service hand its keys back in another), and answers should read the same every time.
 */
const readScheduleInfo = (stored: unknown): Knap['schedule_info'] => {
  if (stored === null || typeof stored !== 'object') return null;
  const info = stored as Record<string, unknown>;
  const ordered: Record<string, unknown> = {};
  for (const field of SCHEDULE_INFO_FIELDS) if (field in info) ordered[field] = info[field];
  return ordered as Knap['schedule_info'];
};

/** A listing maps dozens of items: plain loops, no arrays of entries. */
export const itemToKnap = (item: Item): Knap => {
  const fields: Record<string, unknown> = {};
  for (const field of KNAP_FIELDS) fields[field] = item[field] ?? null;
  const knap = fields as unknown as Knap;
  knap.tool_metadata = readToolMetadata(item.tool_metadata);
  knap.schedule_info = readScheduleInfo(item.schedule_info);
  return knap;
};

const stringMap = (value: unknown): Record<string, string> =>
  value !== null && typeof value === 'object'
    ? Object.fromEntries(Object.entries(value).filter((entry): entry is [string, string] => typeof entry[1] === 'string'))
    : {};

export const itemToIdempotency = (item: Item): IdempotencyRecord => ({
  clientId: String(item.client_id),
  key: String(item.idempotency_key),
  requestHash: String(item.request_hash),
  state: item.state === 'done' || item.state === 'released' ? item.state : 'in_flight',
  resourceId: String(item.resource_id),
  response:
    typeof item.response_status === 'number' && typeof item.response_body === 'string'
      ? { status: item.response_status, headers: stringMap(item.response_headers), body: item.response_body }
      : null,
  expiresAt: Number(item.expires_at),
  leaseUntil: Number(item.lease_until),
});

/** The due-index keys of a Knap that will run, or none. */
export const dueIndexEntry = (knap: Pick<Knap, 'uuid' | 'schedule_type' | 'is_active' | 'next_run_at'>): Item =>
  knap.schedule_type === 'scheduled' && knap.is_active && knap.next_run_at
    ? { gsi3pk: key.due(dueShard(knap.uuid)), gsi3sk: `${knap.next_run_at}#${knap.uuid}` }
    : {};

/**
 * The meeting-index keys of a Knap that runs after meetings, or none: a private one under its
 * creator, a shared one under its organization (one entry, so each is listed once).
 */
export const meetingIndexEntry = (
  knap: Pick<Knap, 'uuid' | 'schedule_type' | 'is_active' | 'visibility' | 'creation_timestamp'>,
  ownership: KnapOwnership,
): Item =>
  knap.schedule_type === 'post_meeting_transcription' && knap.is_active
    ? {
        gsi3pk: isShared(knap.visibility)
          ? key.orgMeetingKnaps(ownership.orgName)
          : key.creatorMeetingKnaps(ownership.creatorClientId),
        gsi3sk: `${knap.creation_timestamp}#${knap.uuid}`,
      }
    : {};

/** A Knap's gsi3 entry: its due entry (scheduled) or its meeting entry (after meetings); the two never meet. */
export const knapGsi3Entry = (knap: Knap, ownership: KnapOwnership): Item =>
  knap.schedule_type === 'scheduled' ? dueIndexEntry(knap) : meetingIndexEntry(knap, ownership);

/** Items written before versions existed count as version 0. */
export const itemToStoredKnap = (item: Item): StoredKnap => ({
  knap: itemToKnap(item),
  ownership: { orgName: String(item.org_name), creatorClientId: String(item.creator_client_id) },
  version: typeof item.version === 'number' ? item.version : 0,
});

/** The run's fields in the order of the API, `meeting` apart (readMeeting). */
export const webhookToItem = (endpoint: WebhookEndpoint): Item => ({
  type: 'webhook',
  ...key.webhook(endpoint.endpointId),
  gsi3pk: key.orgWebhooks(endpoint.orgName),
  gsi3sk: `${endpoint.createdAt}#${endpoint.endpointId}`,
  endpoint_id: endpoint.endpointId,
  org_name: endpoint.orgName,
  url: endpoint.url,
  secret: endpoint.secret,
  created_at: endpoint.createdAt,
  // Absent on items of earlier versions: every event type, no description, enabled.
  event_types: endpoint.eventTypes ?? null,
  description: endpoint.description ?? null,
  disabled: endpoint.disabled ?? false,
  disabled_at: endpoint.disabledAt ?? null,
  // Only after a rotation: older items have neither.
  ...(endpoint.previousSecret
    ? { previous_secret: endpoint.previousSecret, previous_secret_expires_at: endpoint.previousSecretExpiresAt ?? null }
    : {}),
});

const eventTypesOf = (value: unknown): WebhookEventType[] | null =>
  Array.isArray(value)
    ? value.filter((type): type is WebhookEventType => (WEBHOOK_EVENT_TYPES as readonly unknown[]).includes(type))
    : null;

export const itemToWebhook = (item: Item): WebhookEndpoint => ({
  endpointId: String(item.endpoint_id),
  orgName: String(item.org_name),
  url: String(item.url),
  secret: String(item.secret),
  createdAt: String(item.created_at),
  eventTypes: eventTypesOf(item.event_types),
  description: typeof item.description === 'string' ? item.description : null,
  disabled: item.disabled === true,
  disabledAt: typeof item.disabled_at === 'string' ? item.disabled_at : null,
  previousSecret: typeof item.previous_secret === 'string' ? item.previous_secret : null,
  previousSecretExpiresAt: typeof item.previous_secret_expires_at === 'string' ? item.previous_secret_expires_at : null,
  failStreak: typeof item.fail_streak === 'number' ? item.fail_streak : 0,
  failStreakSince: typeof item.fail_streak_since === 'string' ? item.fail_streak_since : null,
  // Absent on items of earlier versions (and after a success): no recorded times.
  recentFailures: Array.isArray(item.recent_failures)
    ? item.recent_failures.filter((at): at is string => typeof at === 'string')
    : [],
  failRev: typeof item.fail_rev === 'string' ? item.fail_rev : null,
});
