/** Domain entities to and from DynamoDB items (see keys.ts for the key design). */
import { type ApiClient, type ClientSecret, secretIdOf } from '../domain/clients.js';
import type { IdempotencyRecord } from '../domain/idempotency.js';
import { isShared, type Knap, type KnapOwnership, ScheduleInfoSchema, type StoredKnap } from '../domain/knaps.js';
import { setOwnMember } from '../domain/own-member.js';
import type { MeteredClient } from '../domain/repository.js';
import { RUN_OUTCOMES } from '../domain/run-events.js';
import {
  ATTEMPT_LOG_SIZE,
  type DeliveryAttemptEntry,
  RUN_RETENTION_SECONDS,
  type Run,
  type RunMeeting,
  type StoredRun,
} from '../domain/runs.js';
import { canonicalScopes, SCOPES } from '../domain/scopes.js';
import { parseStoredJson, toJson } from '../domain/storable-json.js';
import type { GrantRecord, TokenKind, TokenRecord } from '../domain/tokens.js';
import { WEBHOOK_EVENT_TYPES, type WebhookEndpoint, type WebhookEventType } from '../domain/webhooks.js';
import { dueShard, key } from './keys.js';

export type { Item } from './table-ops.js';

import type { Item } from './table-ops.js';

// Each item's literal starts with a plain key, its key spread after: on Node.js 20 a literal
// that starts with a spread makes every key after it cost about a microsecond
// (docs/performance.md, "Spreads on Node.js 20").

export const clientToItem = (client: ApiClient): Item => ({
  type: 'client',
  ...key.client(client.clientId),
  gsi3pk: key.orgClients(client.orgName),
  gsi3sk: `${client.createdAt}#${client.clientId}`,
  client_id: client.clientId,
  org_name: client.orgName,
  name: client.name,
  description: client.description,
  user_id: client.userId,
  status: client.status,
  generation: client.generation,
  rate_limit: client.rateLimit ?? undefined,
  scopes: client.scopes,
  client_secrets: secretsToMap(client.secrets),
  created_at: client.createdAt,
  updated_at: client.updatedAt,
  last_used_at: client.lastUsedAt,
  ...Object.fromEntries(Object.entries(client.revocations).map(([id, until]) => [key.revocationMark(id), until])),
});

/** A secret that never expires is stored as expiring at the end of 9999: the metering condition needs no OR. */
export const NEVER_EXPIRES = 253_402_300_799;

/** One entry of the client item's `client_secrets` map (keyed by secret id). */
export const secretToEntry = (secret: ClientSecret): Item => ({
  secret_hash: secret.secretHash,
  created_at: secret.createdAt,
  last_used_at: secret.lastUsedAt ?? undefined,
  expires_epoch: secret.expiresAt === null ? NEVER_EXPIRES : Math.floor(Date.parse(secret.expiresAt) / 1000),
});

export const secretsToMap = (secrets: readonly ClientSecret[]): Item =>
  Object.fromEntries(secrets.map((secret) => [secret.secretId, secretToEntry(secret)]));

const isoOfEpoch = (epoch: number): string => new Date(epoch * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The client's secrets: the `client_secrets` map, or the one `secret_hash` of earlier versions. */
const itemSecrets = (item: Item): ClientSecret[] => {
  const map = item.client_secrets;
  if (map && typeof map === 'object') {
    return Object.entries(map as Record<string, Item>)
      .map(([secretId, entry]) => ({
        secretId,
        secretHash: String(entry.secret_hash),
        createdAt: String(entry.created_at),
        lastUsedAt: typeof entry.last_used_at === 'string' ? entry.last_used_at : null,
        expiresAt:
          typeof entry.expires_epoch === 'number' && entry.expires_epoch < NEVER_EXPIRES ? isoOfEpoch(entry.expires_epoch) : null,
      }))
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.secretId.localeCompare(b.secretId));
  }
  if (typeof item.secret_hash !== 'string') return [];
  const secretHash = item.secret_hash;
  return [
    {
      secretId: secretIdOf(secretHash),
      secretHash,
      createdAt: String(item.created_at),
      lastUsedAt: typeof item.last_used_at === 'string' ? item.last_used_at : null,
      expiresAt: null,
    },
  ];
};

const REVOCATION = key.revocationMark('');

/** The `rv_` marks earlier versions set on a client item: id to the epoch second they last matter. */
export const clientRevocationMarks = (item: Item): Record<string, number> => {
  // Every metered request reads its client's item: one array of its names, no entry arrays.
  // Object.keys, not for-in: an unmarshalled item of twenty attributes is a dictionary-mode
  // object, whose for-in costs more (437 against 314 ns here).
  const marks: Record<string, number> = {};
  const names = Object.keys(item);
  for (let index = 0; index < names.length; index += 1) {
    const name = names[index] as string;
    const until = item[name];
    if (typeof until !== 'number' || !name.startsWith(REVOCATION)) continue;
    setOwnMember(marks, name.slice(REVOCATION.length), until);
  }
  return marks;
};

export const itemToClient = (item: Item): ApiClient => ({
  clientId: String(item.client_id),
  orgName: String(item.org_name),
  name: String(item.name),
  description: String(item.description ?? ''),
  userId: Number(item.user_id),
  status: item.status === 'revoked' ? 'revoked' : 'active',
  generation: Number(item.generation),
  rateLimit: typeof item.rate_limit === 'number' ? item.rate_limit : null,
  // Clients stored before scopes were chosen per client hold every scope; old names read as the new.
  scopes: Array.isArray(item.scopes) ? canonicalScopes(item.scopes.map(String)) : [...SCOPES],
  secrets: itemSecrets(item),
  legacySecret: !item.client_secrets && typeof item.secret_hash === 'string',
  createdAt: String(item.created_at),
  updatedAt: String(item.updated_at ?? item.created_at),
  lastUsedAt: typeof item.last_used_at === 'string' ? item.last_used_at : null,
  revocations: clientRevocationMarks(item),
});

export const itemToMetered = (item: Item): MeteredClient => ({
  client: itemToClient(item),
  window: typeof item.rl_window === 'number' ? item.rl_window : null,
  count: typeof item.rl_count === 'number' ? item.rl_count : 0,
  ...(typeof item.wt === 'string' ? { writeToken: item.wt } : {}),
});

export const tokenToItem = (record: TokenRecord): Item => ({
  type: 'token',
  ...key.token(record.tokenHash),
  kind: record.kind,
  client_id: record.clientId,
  generation: record.generation,
  scope: record.scope,
  issued_at: record.issuedAt,
  expires_at: record.expiresAt,
  // A string set, so a refresh grant can ADD to it in one write.
  ...(record.accessHashes && record.accessHashes.length > 0 ? { access_hashes: new Set(record.accessHashes) } : {}),
});

export const itemToToken = (tokenHash: string, item: Item): TokenRecord => ({
  tokenHash,
  kind: item.kind as TokenKind,
  clientId: String(item.client_id),
  generation: Number(item.generation),
  scope: String(item.scope ?? ''),
  issuedAt: Number(item.issued_at),
  expiresAt: Number(item.expires_at),
  ...(item.access_hashes instanceof Set ? { accessHashes: [...item.access_hashes].map(String) } : {}),
});

export const grantToItem = (grant: GrantRecord): Item => ({
  type: 'grant',
  ...key.grant(grant.grantKey),
  grant_id: grant.grantId,
  client_id: grant.clientId,
  generation: grant.generation,
  scope: grant.scope,
  issued_at: grant.issuedAt,
  expires_at: grant.expiresAt,
});

export const itemToGrant = (item: Item): GrantRecord => ({
  grantKey: String(item.pk).slice(key.grant('').pk.length),
  grantId: String(item.grant_id),
  clientId: String(item.client_id),
  generation: Number(item.generation),
  scope: String(item.scope ?? ''),
  issuedAt: Number(item.issued_at),
  expiresAt: Number(item.expires_at),
});

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
const RUN_FIELDS = [
  'run_id',
  'knap_uuid',
  'trigger',
  'scheduled_for',
  'created_at',
  'status',
  'attempts',
  'last_attempt_at',
  'last_error',
  'meeting_id',
] as const satisfies readonly Exclude<keyof Run, 'meeting' | RunJsonField | RunOutcomeField>[];

/** Members kept as JSON text (input_json, output_json), so numbers keep their digits and members their order. */
type RunJsonField = 'input' | 'output';
/** Members of runs stored before outcomes existed, read as null. */
type RunOutcomeField = 'outcome' | 'error' | 'finished_at';

const jsonOrNull = (text: unknown): unknown => (typeof text === 'string' ? parseStoredJson(text) : null);

const stringOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);

/**
 * A run's `meeting`, its fields in the schema's order (a DynamoDB map keeps none). Runs
 * stored before `meeting` existed have only meeting_id: an after-meeting one reads as
 * `{meeting_id, the rest null}`, any other as null.
 */
const readMeeting = (item: Item): RunMeeting | null => {
  const stored = item.meeting;
  const meetingId = stringOrNull(item.meeting_id);
  if (stored === null || typeof stored !== 'object') {
    return meetingId === null
      ? null
      : { meeting_id: meetingId, title: null, occurred_at: null, transcript_url: null, user_id: null };
  }
  const meeting = stored as Record<string, unknown>;
  return {
    meeting_id: stringOrNull(meeting.meeting_id) ?? meetingId ?? '',
    title: stringOrNull(meeting.title),
    occurred_at: stringOrNull(meeting.occurred_at),
    transcript_url: stringOrNull(meeting.transcript_url),
    user_id: typeof meeting.user_id === 'number' ? meeting.user_id : null,
  };
};

/** The index entry that lists a run among its organization's (runs of earlier versions get it by backfill). */
export const orgRunsEntry = (run: Pick<Run, 'run_id' | 'created_at'>, orgName: string): Item => ({
  gsi2pk: key.orgRuns(orgName),
  gsi2sk: `${run.created_at}#${run.run_id}`,
});

/**
 * A run keeps the entries of its last ATTEMPT_LOG_SIZE attempts, attempt n in attribute
 * `da_<n mod ATTEMPT_LOG_SIZE>`: a ring the attempt's own write overwrites, so however often
 * a run is redelivered the item stays bounded, and no read comes before the write.
 */
export const attemptLogAttribute = (attemptNumber: number): string => `da_${attemptNumber % ATTEMPT_LOG_SIZE}`;

const readAttemptLog = (item: Item): DeliveryAttemptEntry[] =>
  Object.entries(item)
    .filter(([name, value]) => /^da_\d+$/.test(name) && value !== null && typeof value === 'object')
    .map(([, value]) => value as { n?: unknown; entries?: unknown })
    .filter((slot) => typeof slot.n === 'number' && Array.isArray(slot.entries))
    .sort((a, b) => (a.n as number) - (b.n as number))
    .flatMap((slot) =>
      (slot.entries as Record<string, unknown>[]).map((entry) => ({
        at: String(entry.at),
        endpoint_id: stringOrNull(entry.endpoint_id),
        status: entry.status as DeliveryAttemptEntry['status'],
        error: stringOrNull(entry.error),
        response_status: typeof entry.http_status === 'number' ? entry.http_status : null,
        duration_ms: null,
        response_body: null,
        http_status: typeof entry.http_status === 'number' ? entry.http_status : null,
      })),
    );

export const runToItem = ({ run, orgName, deliveredTo, knapName }: StoredRun): Item => {
  const { input, output, ...fields } = run;
  return {
    type: 'run',
    ...key.run(run.run_id),
    gsi1pk: key.knapRuns(run.knap_uuid),
    gsi1sk: `${run.created_at}#${run.run_id}`,
    ...orgRunsEntry(run, orgName),
    org_name: orgName,
    delivered_to: deliveredTo,
    expires_at: runExpiry(run.created_at),
    ...fields,
    ...(input === null ? {} : { input_json: toJson(input) }),
    ...(output === null || output === undefined ? {} : { output_json: toJson(output) }),
    ...(typeof knapName === 'string' ? { knap_name: knapName } : {}),
  };
};

/** A run's TTL (epoch seconds); its events keep the same. */
export const runExpiry = (createdAt: string): number => Math.floor(Date.parse(createdAt) / 1000) + RUN_RETENTION_SECONDS;

const OUTCOMES: readonly unknown[] = RUN_OUTCOMES;

export const itemToRun = (item: Item): Run =>
  Object.assign(
    Object.fromEntries(RUN_FIELDS.map((field) => [field, item[field] ?? null])) as Omit<
      Run,
      'meeting' | RunJsonField | RunOutcomeField
    >,
    {
      meeting: readMeeting(item),
      input: jsonOrNull(item.input_json) as Run['input'],
      outcome: OUTCOMES.includes(item.outcome) ? (item.outcome as Run['outcome']) : null,
      output: jsonOrNull(item.output_json),
      error: stringOrNull(item.error),
      finished_at: stringOrNull(item.finished_at),
    },
  );

export const itemToStoredRun = (item: Item): StoredRun => ({
  run: itemToRun(item),
  orgName: String(item.org_name),
  deliveredTo: Array.isArray(item.delivered_to) ? item.delivered_to.map(String) : [],
  attemptLog: readAttemptLog(item),
  retryBase: typeof item.retry_base === 'number' ? item.retry_base : 0,
  knapName: stringOrNull(item.knap_name),
  redeliveries: typeof item.redeliveries === 'number' ? item.redeliveries : 0,
});

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
