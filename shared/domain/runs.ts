/**
 * Runs: one per execution of a Knap, scheduled, manual or after a meeting. A run is data
 * (history) and a message (delivered to the organization's webhook endpoints).
 */
import { createHash, randomBytes } from 'node:crypto';
import * as v from 'valibot';
import { RUN_OUTCOMES, RunEventSchema, type RunOutcome } from './run-events.js';

export const RUN_TRIGGERS = ['scheduled', 'manual', 'post_meeting_transcription'] as const;
export type RunTrigger = (typeof RUN_TRIGGERS)[number];

export const RUN_STATUSES = ['pending', 'delivered', 'failed', 'no_endpoint'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

const timestamp = v.pipe(v.string(), v.isoTimestamp(), v.description('ISO 8601, UTC'));

/** The meeting a run was made for: what its report said, a field it did not give null. */
export const RunMeetingSchema = v.pipe(
  v.object({
    meeting_id: v.string(),
    title: v.nullable(v.string()),
    occurred_at: v.pipe(v.nullable(v.string()), v.description('ISO 8601, as reported')),
    transcript_url: v.pipe(v.nullable(v.string()), v.description('An https URL')),
    user_id: v.nullable(v.pipe(v.number(), v.integer())),
  }),
  v.description('The meeting an after-meeting run is for, as it was reported when the run was made'),
);
export type RunMeeting = v.InferOutput<typeof RunMeetingSchema>;

/** The run id format of every trigger: `run_` and 32 base64url characters (192 bits when random). */
export const RUN_ID_PATTERN = '^run_[A-Za-z0-9_-]{32}$';

export const RunSchema = v.object({
  run_id: v.pipe(
    v.string(),
    v.description(
      `Also the webhook-id of every delivery attempt. \`run_\` and 32 base64url characters (${RUN_ID_PATTERN}); compare it as an opaque string`,
    ),
  ),
  knap_uuid: v.pipe(v.string(), v.uuid()),
  trigger: v.picklist(RUN_TRIGGERS),
  scheduled_for: v.pipe(v.nullable(timestamp), v.description('The occurrence a scheduled run is for')),
  created_at: timestamp,
  status: v.picklist(RUN_STATUSES),
  attempts: v.pipe(v.number(), v.integer(), v.minValue(0)),
  last_attempt_at: v.nullable(timestamp),
  last_error: v.nullable(v.string()),
  meeting_id: v.pipe(v.nullable(v.string()), v.description('The meeting of an after-meeting run (meeting.meeting_id)')),
  meeting: v.pipe(v.nullable(RunMeetingSchema), v.description('null unless trigger is post_meeting_transcription')),
  input: v.pipe(
    v.nullable(v.record(v.string(), v.unknown())),
    v.description('What the run was started with (POST .../runs `{"input": {...}}`, at most 64 KB of JSON), or null'),
  ),
  outcome: v.pipe(
    v.nullable(v.picklist(RUN_OUTCOMES)),
    v.description('What the executor reported: null until it reports, then running, succeeded or failed'),
  ),
  output: v.pipe(v.unknown(), v.description('The JSON value a succeeded report gave (at most 64 KB), or null')),
  error: v.pipe(v.nullable(v.string()), v.description('What a failed report said (at most 1 KB), or null')),
  finished_at: v.pipe(v.nullable(timestamp), v.description('When a succeeded or failed report came in, or null')),
});
export type Run = v.InferOutput<typeof RunSchema>;

export const RunPageSchema = v.object({
  runs: v.array(RunSchema),
  next_cursor: v.pipe(v.nullable(v.string()), v.description('Pass as `cursor` for the next page; null at the end')),
});
export type RunPage = v.InferOutput<typeof RunPageSchema>;

/** What one delivery attempt did at one endpoint (or, when nothing was sent, why: endpoint_id null). */
export const DeliveryAttemptEntrySchema = v.object({
  at: timestamp,
  endpoint_id: v.pipe(v.nullable(v.string()), v.description('null when the attempt sent nothing (no endpoint, Knap deleted)')),
  status: v.picklist(['delivered', 'failed', 'no_endpoint']),
  error: v.pipe(
    v.nullable(v.string()),
    v.description(
      "Why it failed (timeout, the endpoint's HTTP status...); never a response body, never a URL's path or query: at most its scheme, host and port",
    ),
  ),
  response_status: v.pipe(
    v.nullable(v.pipe(v.number(), v.integer())),
    v.description(
      'The HTTP status the endpoint answered; null when no answer came (timed out, refused, could not connect), when nothing was sent, or for attempts recorded before this field existed',
    ),
  ),
  duration_ms: v.pipe(
    v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0))),
    v.description('How long the attempt took, from connecting to the answer; null when nothing was sent or for older attempts'),
  ),
  response_body: v.pipe(
    v.nullable(v.string()),
    v.description(
      'The first 1 KB of what the endpoint answered (admin API and console only, never in the studio API); null when no answer came',
    ),
  ),
  http_status: v.pipe(v.nullable(v.pipe(v.number(), v.integer())), v.description('Deprecated: the same as response_status')),
});
export type DeliveryAttemptEntry = v.InferOutput<typeof DeliveryAttemptEntrySchema>;

/** How many attempts a run keeps the details of: the most recent ones (redeliveries add more). */
export const ATTEMPT_LOG_SIZE = 24;

/** A run as organization admins see it: with what each delivery attempt did at each endpoint, oldest first. */
export const AdminRunSchema = v.object({
  ...RunSchema.entries,
  knap_name: v.pipe(
    v.nullable(v.string()),
    v.description(
      "The Knap's name when the run was made (kept on the run, so a deleted Knap's runs still name it); null for runs made before runs kept it",
    ),
  ),
  delivery_attempts: v.pipe(
    v.array(DeliveryAttemptEntrySchema),
    v.description(
      'One entry per attempt at each endpoint, oldest first: the last 8 attempts of each endpoint (runs of earlier versions: their last 24 attempts)',
    ),
  ),
});
export type AdminRun = v.InferOutput<typeof AdminRunSchema>;

export const AdminRunPageSchema = v.object({
  runs: v.array(AdminRunSchema),
  next_cursor: v.pipe(v.nullable(v.string()), v.description('Pass as `cursor` for the next page; null at the end')),
});
export type AdminRunPage = v.InferOutput<typeof AdminRunPageSchema>;

/** GET /api/admin/runs/{run_id}: the run, its attempts and its events. */
export const AdminRunDetailSchema = v.object({
  ...AdminRunSchema.entries,
  events: v.pipe(v.array(RunEventSchema), v.description('Every event of the run, in id order (as GET .../events answers)')),
});
export type AdminRunDetail = v.InferOutput<typeof AdminRunDetailSchema>;

/** What an admin's listing of runs keeps: any of a Knap, a delivery status, an outcome (all must hold). */
export interface OrgRunFilter {
  knapUuid?: string;
  status?: RunStatus;
  outcome?: RunOutcome;
}

/** A run as stored: with the organization it belongs to and the endpoints that already took it. */
export interface StoredRun {
  run: Run;
  orgName: string;
  /** Endpoint ids that answered 2xx, as runs of earlier versions recorded them (newer runs: their delivery items). */
  deliveredTo: string[];
  /** The recent attempts' entries kept on the run item by earlier versions, oldest first (newer runs: none). */
  attemptLog?: DeliveryAttemptEntry[];
  /** `attempts` when the run was last redelivered: retries count from there (0 until then). */
  retryBase?: number;
  /** The Knap's name when the run was made (admins' listings); null or absent for runs of earlier versions. */
  knapName?: string | null;
  /** Times the run was sent again by an admin: each starts a new round of its endpoint deliveries. */
  redeliveries?: number;
  /** Whether the last redelivery asked for every endpoint again (the run had been delivered everywhere). */
  redeliverAll?: boolean;
}

/** Characters after `run_`: 32 base64url characters are 24 bytes (192 bits). */
const RUN_ID_LENGTH = 32;

/** The first 192 of SHA-256's 256 bits (43 base64url characters), as 32 characters. */
const derivedId = (...parts: string[]): string =>
  `run_${createHash('sha256').update(parts.join('\n')).digest('base64url').slice(0, RUN_ID_LENGTH)}`;

/**
 * One format for every trigger: `run_` and 32 base64url characters. Ids of scheduled and
 * after-meeting runs derive from what makes them unique, so a second dispatcher, a retry or a
 * second report of the meeting writes the same run, never another one (the derivation must
 * not change: a run written before an upgrade and retried after it must keep its id). Manual
 * runs take 24 random bytes. Lookups treat ids as opaque, so runs of earlier versions whose
 * ids had another shape (32 hex characters) stay readable.
 */
export const runId = {
  scheduled: (knapUuid: string, scheduledFor: string): string => derivedId('scheduled', knapUuid, scheduledFor),
  meeting: (knapUuid: string, meetingId: string): string => derivedId('meeting', knapUuid, meetingId),
  manual: (): string => `run_${randomBytes((RUN_ID_LENGTH * 3) / 4).toString('base64url')}`,
};

/** A run's `meeting` from its report: the fields given, the others null. */
export const runMeeting = (report: MeetingTranscription): RunMeeting => ({
  meeting_id: report.meeting_id,
  title: report.title ?? null,
  occurred_at: report.occurred_at ?? null,
  transcript_url: report.transcript_url ?? null,
  user_id: report.user_id ?? null,
});

/**
 * A new pending run. An after-meeting run passes its `meeting` (meeting_id is then taken from
 * it); other runs pass meeting_id null and have meeting null.
 */
export const newRun = (
  fields: Pick<Run, 'run_id' | 'knap_uuid' | 'trigger' | 'scheduled_for' | 'meeting_id' | 'created_at'> & {
    meeting?: RunMeeting | null;
    input?: Record<string, unknown> | null;
  },
): Run => ({
  run_id: fields.run_id,
  knap_uuid: fields.knap_uuid,
  trigger: fields.trigger,
  scheduled_for: fields.scheduled_for,
  created_at: fields.created_at,
  status: 'pending',
  attempts: 0,
  last_attempt_at: null,
  last_error: null,
  meeting_id: fields.meeting?.meeting_id ?? fields.meeting_id,
  meeting: fields.meeting ?? null,
  input: fields.input ?? null,
  outcome: null,
  output: null,
  error: null,
  finished_at: null,
});

export { DUE_SHARDS } from './due-shards.js';

/** POST /api/studio/meeting-transcriptions body. */
export const MeetingTranscriptionSchema = v.object({
  meeting_id: v.pipe(
    v.string('meeting_id is required and must be a string'),
    v.minLength(1, 'meeting_id must be 1 to 255 characters'),
    v.maxLength(255, 'meeting_id must be 1 to 255 characters'),
  ),
  title: v.nullish(v.pipe(v.string('title must be a string'), v.maxLength(1000, 'title must be at most 1000 characters'))),
  occurred_at: v.nullish(
    v.pipe(v.string('occurred_at must be a string'), v.isoTimestamp('occurred_at must be an ISO 8601 timestamp')),
  ),
  transcript_url: v.nullish(
    v.pipe(
      v.string('transcript_url must be a string'),
      v.url('transcript_url must be an https URL'),
      v.startsWith('https://', 'transcript_url must be an https URL'),
      v.maxLength(2048, 'transcript_url must be at most 2048 characters'),
    ),
  ),
  user_id: v.nullish(v.pipe(v.number('user_id must be an integer'), v.integer('user_id must be an integer'))),
});
export type MeetingTranscription = v.InferOutput<typeof MeetingTranscriptionSchema>;

/**
 * The Knaps one meeting report makes runs for before it answers, and one page of the queue
 * after it (the contract's bounded work per request).
 */
export const MEETING_FAN_OUT_PAGE = 100;

export const MeetingRunsSchema = v.object({
  meeting_id: v.string(),
  runs: v.pipe(v.array(RunSchema), v.description(`The runs, earlier or new, of up to ${MEETING_FAN_OUT_PAGE} Knaps`)),
  runs_pending: v.optional(
    v.pipe(
      v.number(),
      v.integer(),
      v.minValue(1),
      v.description(
        `Present only when the caller sees more than ${MEETING_FAN_OUT_PAGE} such Knaps: how many more there are. ` +
          "Their runs are made after the answer (once per Knap per meeting, as ever) and show in each Knap's history",
      ),
    ),
  ),
});
export type MeetingRuns = v.InferOutput<typeof MeetingRunsSchema>;

/** Whose Knaps a meeting report runs: those the client created, and those its organization shares. */
export interface MeetingKnapsViewer {
  clientId: string;
  orgName: string;
}

/**
 * A page of the active after-meeting Knaps a client sees: their uuids, all a run needs (the
 * listing reads an index of keys only, never the Knaps themselves).
 */
export interface MeetingKnapsPage {
  uuids: string[];
  /** Where the next page starts (opaque); null when none is left. A page may be the last and still have one. */
  next: string | null;
}

/**
 * The rest of a meeting report, carried by the delivery queue: runs for the Knaps after
 * `cursor`, a page per message. Plain JSON (it travels in an SQS message body), read back
 * through this schema. `client_id` and `org_name`: the reporting client and its organization,
 * whose Knaps (MeetingKnapsViewer).
 */
export const MeetingFanOutSchema = v.object({
  meeting: v.pipe(
    RunMeetingSchema,
    v.check((meeting) => meeting.meeting_id !== ''),
  ),
  client_id: v.string(),
  org_name: v.string(),
  cursor: v.pipe(v.string(), v.minLength(1)),
});
export type MeetingFanOut = v.InferOutput<typeof MeetingFanOutSchema>;

/** How long run history is kept (the item's TTL). */
export const RUN_RETENTION_SECONDS = 90 * 24 * 3600;
