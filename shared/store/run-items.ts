/** Runs to and from DynamoDB items (see keys.ts for the key design). */
import { RUN_OUTCOMES } from '../domain/run-events.js';
import {
  ATTEMPT_LOG_SIZE,
  type DeliveryAttemptEntry,
  RUN_RETENTION_SECONDS,
  type Run,
  type RunMeeting,
  type StoredRun,
} from '../domain/runs.js';
import { parseStoredJson, toJson } from '../domain/storable-json.js';
import { key } from './keys.js';

import type { Item } from './table-ops.js';

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
