/**
 * The OpenAPI document's examples: one organization ("acme") on one Monday morning, its ids
 * and times consistent from one example to the next. Typed by the schemas they illustrate, and
 * test/unit/openapi-examples.test.ts parses every example of the document with the valibot
 * schema its component came from; the schedule examples are what the parser answers.
 * No secret or token here is real.
 */
import type * as v from 'valibot';
import type { CreateKnapSchema } from '../domain/knap-input.js';
import type { Knap, KnapListing } from '../domain/knaps.js';
import {
  type AdminRun,
  type AdminRunDetail,
  type AdminRunPage,
  type MeetingRuns,
  type MeetingTranscription,
  type Run,
  type RunPage,
  runId,
} from '../domain/runs.js';
import type { SchedulePreview, SchedulePreviewRequest } from '../domain/schedule-preview.js';
import type {
  AddSecretRequestSchema,
  AddWebhookRequest,
  AdminClient,
  AdminClientDetailSchema,
  AuditPageSchema,
  ClientJwksSchema,
  ClientSecretSchema,
  CreateClientRequest,
  NewAdminClientSchema,
  NewSecretSchema,
  NewWebhookEndpointSchema,
  UpdateClientRequest,
  UpdateWebhookRequest,
  WebhookEndpointView,
  WebhookSecretSchema,
  WebhookTestResultSchema,
} from '../schemas/admin.js';
import type { KnapPatchSchema } from '../schemas/knap-request.js';
import type { TokenResponse } from '../schemas/responses.js';
import type { TokenForm } from '../schemas/token-request.js';
import { RUN_EVENT_TYPE, type RunMessage } from '../webhooks/message.js';

/** A named example of a media type (OpenAPI's Example Object). */
export interface Example<T = unknown> {
  summary: string;
  value: T;
}
type Examples<T> = Record<string, Example<T>>;

/** Fixed, recognisably fake credentials of the right shape (prefix and length). */
const fake = (prefix: string, seed: string) => `${prefix}${Buffer.from(seed.padEnd(32, '0').slice(0, 32)).toString('base64url')}`;

const CLIENT_ID = 'knap_ci_5f0c9a7e2b4d4c1a8e6f3b2d9c7a1e04';
const CLIENT_SECRET = fake('knap_cs_', 'openapi-example-client-secret');
const ACCESS_TOKEN = fake('knap_at_', 'openapi-example-access-token');
const REFRESH_TOKEN = fake('knap_rt_', 'openapi-example-refresh-token');
const SCOPES = 'read:knaps write:knaps';
const ORG = 'acme';
const USER_ID = 1042;

/** Not a real endpoint's: the knap.run example's headers are signed with it, so a reader can check them. */
export const EXAMPLE_WEBHOOK_SECRET = `whsec_${Buffer.from('knap-openapi-example-secret-0001').toString('base64')}`;

// --- OAuth --------------------------------------------------------------------------------

export const tokenFormExamples: Examples<TokenForm> = {
  clientCredentials: {
    summary: 'Client credentials in the form (client_secret_post)',
    value: { grant_type: 'client_credentials', client_id: CLIENT_ID, client_secret: CLIENT_SECRET, scope: SCOPES },
  },
  readOnly: {
    summary: 'A token that may only read (the client id and secret in HTTP Basic)',
    value: { grant_type: 'client_credentials', scope: 'read:knaps' },
  },
  refresh: {
    summary: 'A new token set for a refresh token',
    value: { grant_type: 'refresh_token', refresh_token: REFRESH_TOKEN, client_id: CLIENT_ID, client_secret: CLIENT_SECRET },
  },
};

export const tokenResponseExamples: Examples<TokenResponse> = {
  tokens: {
    summary: 'An access token for an hour, and a refresh token',
    value: { access_token: ACCESS_TOKEN, token_type: 'Bearer', expires_in: 3600, refresh_token: REFRESH_TOKEN, scope: SCOPES },
  },
};

interface TokenOperationForm {
  token: string;
  token_type_hint?: string;
  client_id?: string;
  client_secret?: string;
}

export const revokeFormExamples: Examples<TokenOperationForm> = {
  refreshToken: {
    summary: 'Revoke a refresh token, and the access tokens issued through it',
    value: { token: REFRESH_TOKEN, token_type_hint: 'refresh_token', client_id: CLIENT_ID, client_secret: CLIENT_SECRET },
  },
};

export const introspectFormExamples: Examples<TokenOperationForm> = {
  accessToken: {
    summary: 'Is this access token live?',
    value: { token: ACCESS_TOKEN, token_type_hint: 'access_token', client_id: CLIENT_ID, client_secret: CLIENT_SECRET },
  },
};

export const introspectionExamples: Examples<Record<string, unknown>> = {
  active: {
    summary: 'A live access token of this client',
    value: { active: true, scope: SCOPES, client_id: CLIENT_ID, token_type: 'Bearer', exp: 1795432502, iat: 1795428902 },
  },
  inactive: { summary: "Unknown, expired, revoked, or another client's", value: { active: false } },
};

// --- Knaps --------------------------------------------------------------------------------

const DIGEST_UUID = '8d1e6f3a-4b2c-4d7e-9f1a-6c3b5e2d8a17';
const MEETING_KNAP_UUID = '3f2b8c4e-9a1d-4e6f-8b7c-2d5e1a9f0c34';

/** When the scheduled example Knap was made: its schedule and next run are the parser's from here. */
export const SCHEDULED_KNAP_CREATED_AT = '2026-11-02T14:20:11Z';

export const createKnapExamples: Examples<v.InferInput<typeof CreateKnapSchema>> = {
  scheduled: {
    summary: 'Scheduled: an English description, read in a time zone',
    value: {
      name: 'Weekly pipeline digest',
      schedule_type: 'scheduled',
      visibility: ORG,
      tool_metadata: {
        action_description: 'Email the sales team a digest of the open pipeline',
        schedule_description: 'every Monday at 8:30',
        timezone: 'America/New_York',
      },
    },
  },
  afterMeeting: {
    summary: 'After a meeting: runs once for every meeting transcription reported',
    value: {
      name: 'Meeting notes to CRM',
      schedule_type: 'post_meeting_transcription',
      visibility: ORG,
      tool_metadata: { action_description: 'Summarize the meeting and log the next steps in the CRM' },
    },
  },
  manual: { summary: 'Manual, private (the defaults): runs only when asked', value: { name: 'Draft the quarterly report' } },
};

/** The scheduled create example, as created: what POST answers and GET reads. */
export const SCHEDULED_KNAP: Knap = {
  uuid: DIGEST_UUID,
  name: 'Weekly pipeline digest',
  creation_user_id: USER_ID,
  schedule_type: 'scheduled',
  is_active: true,
  visibility: ORG,
  can_toggle_default_active: true,
  active_by_default: true,
  tool_metadata: {
    action_description: 'Email the sales team a digest of the open pipeline',
    schedule_description: 'every Monday at 8:30',
    timezone: 'America/New_York',
  },
  creation_timestamp: SCHEDULED_KNAP_CREATED_AT,
  updated_at: SCHEDULED_KNAP_CREATED_AT,
  schedule_info: {
    schedule_type: 'weekly',
    schedule_time: '08:30',
    days_of_week: [1],
    days_of_month: null,
    weeks_of_month: null,
    months_of_year: null,
    interval: 1,
    timezone: 'America/New_York',
    anchor_date: null,
    rrule: 'DTSTART;TZID=America/New_York:20261109T083000\nRRULE:FREQ=WEEKLY;BYDAY=MO;BYHOUR=8;BYMINUTE=30;BYSECOND=0',
  },
  next_run_at: '2026-11-09T13:30:00Z',
};

const MEETING_KNAP: Knap = {
  uuid: MEETING_KNAP_UUID,
  name: 'Meeting notes to CRM',
  creation_user_id: USER_ID,
  schedule_type: 'post_meeting_transcription',
  is_active: true,
  visibility: ORG,
  can_toggle_default_active: true,
  active_by_default: true,
  tool_metadata: { action_description: 'Summarize the meeting and log the next steps in the CRM' },
  creation_timestamp: '2026-11-02T14:20:11Z',
  updated_at: '2026-11-02T14:20:11Z',
  schedule_info: null,
  next_run_at: null,
};

export const knapExamples: Examples<Knap> = {
  scheduled: { summary: 'A scheduled Knap and its next run', value: SCHEDULED_KNAP },
};

export const knapPatchExamples: Examples<v.InferInput<typeof KnapPatchSchema>> = {
  pause: { summary: 'Pause: an inactive Knap never runs (next_run_at null)', value: { is_active: false } },
  reschedule: {
    summary: 'Another schedule: the next run is recomputed from now',
    value: { tool_metadata: { schedule_description: 'every weekday at 9am' } },
  },
  rename: { summary: 'Rename (visibility is fixed at creation)', value: { name: 'Pipeline digest (team)' } },
};

const ADMIN_KNAP = {
  ...SCHEDULED_KNAP,
  schedule_summary: 'Every week on Monday at 08:30, America/New_York',
  last_run: {
    run_id: 'run_q1w2e3r4t5y6u7i8o9p0a1s2d3f4g5h6',
    created_at: '2026-11-23T08:00:03Z',
    status: 'delivered' as const,
    outcome: 'succeeded' as const,
  },
};

export const adminKnapExamples: Examples<typeof ADMIN_KNAP> = {
  knap: { summary: 'A scheduled Knap with its last run', value: ADMIN_KNAP },
};

export const adminKnapPageExamples: Examples<{ knaps: (typeof ADMIN_KNAP)[]; next_cursor: string | null }> = {
  page: { summary: 'The last page', value: { knaps: [ADMIN_KNAP], next_cursor: null } },
};

export const adminKnapPatchExamples: Examples<Record<string, unknown>> = {
  off: { summary: 'Switch it off: no next run until switched on again', value: { is_active: false } },
  rename: { summary: 'Rename', value: { name: 'Pipeline digest (paused)' } },
};

export const knapDeletedExamples: Examples<{ message: 'Knap deleted successfully' }> = {
  deleted: { summary: "Knapsack's answer", value: { message: 'Knap deleted successfully' } },
};

export const patchedKnapExamples: Examples<Knap> = {
  paused: {
    summary: 'The Knap paused',
    value: { ...SCHEDULED_KNAP, is_active: false, updated_at: '2026-11-23T10:20:45Z', next_run_at: null },
  },
};

export const knapListingExamples: Examples<KnapListing> = {
  page: {
    summary: "The client's own Knaps, and those its organization shares",
    value: {
      my_knaps: [SCHEDULED_KNAP],
      organization_knaps: [{ org_name: ORG, knaps: [MEETING_KNAP] }],
      public_knaps: [],
      next_cursor: null,
    },
  },
};

// --- Runs ---------------------------------------------------------------------------------

const MEETING: MeetingTranscription & { user_id: number } = {
  meeting_id: 'weekly-pipeline-2026-11-23',
  title: 'Weekly pipeline review',
  occurred_at: '2026-11-23T09:00:00Z',
  transcript_url: 'https://meetings.acme.example/transcripts/83920475561',
  user_id: USER_ID,
};

const MEETING_RUN: Run = {
  run_id: runId.meeting(MEETING_KNAP_UUID, MEETING.meeting_id),
  knap_uuid: MEETING_KNAP_UUID,
  trigger: 'post_meeting_transcription',
  scheduled_for: null,
  created_at: '2026-11-23T10:15:01Z',
  status: 'pending',
  attempts: 0,
  last_attempt_at: null,
  last_error: null,
  meeting_id: MEETING.meeting_id,
  meeting: {
    meeting_id: MEETING.meeting_id,
    title: MEETING.title ?? null,
    occurred_at: MEETING.occurred_at ?? null,
    transcript_url: MEETING.transcript_url ?? null,
    user_id: MEETING.user_id,
  },
  input: null,
  outcome: null,
  output: null,
  error: null,
  finished_at: null,
};

/** A knap.run message as a receiver gets it: the first attempt of a run after a meeting. */
export const RUN_MESSAGE_EXAMPLE: RunMessage = {
  type: RUN_EVENT_TYPE,
  timestamp: '2026-11-23T10:15:02.418Z',
  data: {
    run: {
      ...MEETING_RUN,
      report_url: `https://api.knap.example/api/studio/runs/${MEETING_RUN.run_id}/events`,
      report_token: 'knap_rpt_AQ3q9W1maVkDcnVuX3A0SGVhZ3pRX0V4YW1wbGVPbmx5XzEyMzQ1Njc4OTAEYWNtZfW8x0QpRk2bN7sLr1cT5yA',
    },
    knap: MEETING_KNAP,
  },
};

const MANUAL_RUN: Run = {
  run_id: 'run_q7Lx2VbN9cRt4KwZ8mPa1sYd6FhJ3uGe',
  knap_uuid: DIGEST_UUID,
  trigger: 'manual',
  scheduled_for: null,
  created_at: '2026-11-23T10:21:07Z',
  status: 'pending',
  attempts: 0,
  last_attempt_at: null,
  last_error: null,
  meeting_id: null,
  meeting: null,
  input: { messages: [{ role: 'user', content: 'Summarize yesterday in three bullets' }], chat_id: 'chat_8812' },
  outcome: null,
  output: null,
  error: null,
  finished_at: null,
};

const SCHEDULED_RUN: Run = {
  run_id: runId.scheduled(DIGEST_UUID, '2026-11-16T13:30:00Z'),
  knap_uuid: DIGEST_UUID,
  trigger: 'scheduled',
  scheduled_for: '2026-11-16T13:30:00Z',
  created_at: '2026-11-16T13:30:00Z',
  status: 'delivered',
  attempts: 2,
  last_attempt_at: '2026-11-16T13:30:41Z',
  last_error: null,
  meeting_id: null,
  meeting: null,
  input: null,
  outcome: 'succeeded',
  output: { summary: '3 new leads, 1 renewal due Friday' },
  error: null,
  finished_at: '2026-11-16T13:31:09Z',
};

export const runExamples: Examples<Run> = {
  manual: { summary: 'A manual run, on its way to the webhook endpoints', value: MANUAL_RUN },
};

export const runPageExamples: Examples<RunPage> = {
  page: {
    summary: 'The newest runs of a Knap',
    value: { runs: [MANUAL_RUN, SCHEDULED_RUN], next_cursor: 'eyJyIjoicnVuX0hjNG5UOHlCMndRZTZSeksiLCJ0IjoxfQ' },
  },
};

export const meetingTranscriptionExamples: Examples<MeetingTranscription> = {
  meeting: { summary: 'A transcribed meeting, every field given', value: MEETING },
  minimal: { summary: 'Only the id: the other fields are null in the runs', value: { meeting_id: 'standup-2026-11-23' } },
};

export const meetingRunsExamples: Examples<MeetingRuns> = {
  runs: {
    summary: 'One after-meeting Knap: its run for this meeting',
    value: { meeting_id: MEETING.meeting_id, runs: [MEETING_RUN] },
  },
};

// --- Schedules ----------------------------------------------------------------------------

/** When the preview example was asked: its answer is the parser's at this instant. */
export const PREVIEW_ASKED_AT = '2026-11-23T10:15:00Z';

export const schedulePreviewRequestExamples: Examples<SchedulePreviewRequest> = {
  weekdays: {
    summary: 'Weekdays at 9, in Paris: the next three runs',
    value: { schedule_description: 'every weekday at 9am', timezone: 'Europe/Paris', count: 3 },
  },
  several_times: {
    summary: 'Twice a day on weekdays, in Paris: every time of day among the runs',
    value: { schedule_description: 'at 9am and 5pm on weekdays', timezone: 'Europe/Paris', count: 4 },
  },
};

export const schedulePreviewExamples: Examples<SchedulePreview> = {
  weekdays: {
    summary: `Read on ${PREVIEW_ASKED_AT}: the runs in UTC`,
    value: {
      schedule_info: {
        schedule_type: 'weekly',
        schedule_time: '09:00',
        days_of_week: [1, 2, 3, 4, 5],
        days_of_month: null,
        weeks_of_month: null,
        months_of_year: null,
        interval: 1,
        timezone: 'Europe/Paris',
        anchor_date: null,
        rrule: 'DTSTART;TZID=Europe/Paris:20261124T090000\nRRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9;BYMINUTE=0;BYSECOND=0',
      },
      next_runs: ['2026-11-24T08:00:00Z', '2026-11-25T08:00:00Z', '2026-11-26T08:00:00Z'],
      description: 'Every weekday at 09:00, Europe/Paris',
    },
  },
  several_times: {
    summary: `Read on ${PREVIEW_ASKED_AT} (a Monday): schedule_times holds every time of day`,
    value: {
      schedule_info: {
        schedule_type: 'weekly',
        schedule_time: '09:00',
        schedule_times: ['09:00', '17:00'],
        days_of_week: [1, 2, 3, 4, 5],
        days_of_month: null,
        weeks_of_month: null,
        months_of_year: null,
        interval: 1,
        timezone: 'Europe/Paris',
        anchor_date: null,
        rrule:
          'DTSTART;TZID=Europe/Paris:20261123T170000\nRRULE:FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;BYHOUR=9,17;BYMINUTE=0;BYSECOND=0',
      },
      next_runs: ['2026-11-23T16:00:00Z', '2026-11-24T08:00:00Z', '2026-11-24T16:00:00Z', '2026-11-25T08:00:00Z'],
      description: 'Every weekday at 09:00 and 17:00, Europe/Paris',
    },
  },
};

// --- Organization admins ------------------------------------------------------------------

const ADMIN_EMAIL = 'dana@acme.example';
const OTHER_CLIENT_ID = 'knap_ci_0b7d3e9f1a2c4b6d8e0f1a3c5b7d9e2f';
const NEW_CLIENT_ID = 'knap_ci_9e2a6c4f8b1d3e5a7c9f0b2d4e6a8c1b';
const ENDPOINT_ID = 'we_4c8e1a7b3d9f2e6a0b5c7d1e';
const NEW_ENDPOINT_ID = 'we_7f1b3d5e9a2c4e6b8d0f2a4c';

const ADMIN_CLIENT: AdminClient = {
  client_id: CLIENT_ID,
  name: 'CRM sync',
  description: 'Pushes meeting notes into the CRM',
  status: 'active',
  rate_limit: 600,
  last_used_at: '2026-11-23T10:15:01Z',
  created_at: '2026-10-05T08:12:40Z',
  user_id: USER_ID,
  scopes: ['read:knaps', 'write:knaps'],
};

export const adminClientListExamples: Examples<{ clients: AdminClient[] }> = {
  clients: {
    summary: 'An active client and a revoked one (revoked clients stay listed)',
    value: {
      clients: [
        ADMIN_CLIENT,
        {
          client_id: OTHER_CLIENT_ID,
          name: 'Old reporting script',
          description: '',
          status: 'revoked',
          rate_limit: 100,
          last_used_at: null,
          created_at: '2026-09-14T16:03:22Z',
          user_id: 1,
          scopes: ['read:knaps'],
        },
      ],
    },
  },
};

export const createClientExamples: Examples<CreateClientRequest> = {
  full: {
    summary: 'Named and described, with a rate limit of its own',
    value: { name: 'Support inbox', description: 'Turns support calls into tickets', rate_limit: 300, user_id: USER_ID },
  },
  readOnly: { summary: 'A client that may only read', value: { name: 'Dashboard', scopes: ['read:knaps'] } },
  minimal: { summary: "Only a name: the deployment's rate limit, user 1", value: { name: 'Reporting' } },
};

export const newClientExamples: Examples<v.InferOutput<typeof NewAdminClientSchema>> = {
  created: {
    summary: 'The client and its secret, shown this once',
    value: {
      client_id: NEW_CLIENT_ID,
      name: 'Support inbox',
      description: 'Turns support calls into tickets',
      status: 'active',
      rate_limit: 300,
      last_used_at: null,
      created_at: '2026-11-23T10:30:12Z',
      user_id: USER_ID,
      scopes: ['read:knaps', 'write:knaps'],
      client_secret: fake('knap_cs_', 'openapi-example-support-inbox'),
    },
  },
};

export const clientSecretExamples: Examples<v.InferOutput<typeof ClientSecretSchema>> = {
  regenerated: {
    summary: 'The new secret, shown this once; tokens issued before it no longer work',
    value: { client_id: CLIENT_ID, client_secret: fake('knap_cs_', 'openapi-example-new-secret') },
  },
};

export const updateClientExamples: Examples<UpdateClientRequest> = {
  rateLimit: { summary: 'A higher rate limit', value: { rate_limit: 1200 } },
  defaultRateLimit: { summary: "Back to the deployment's rate limit", value: { rate_limit: null } },
  rename: { summary: 'A new name and description', value: { name: 'CRM sync (EU)', description: 'Meeting notes to the EU CRM' } },
  readOnly: {
    summary: "Read only: the client's live tokens lose write:knaps at once",
    value: { scopes: ['read:knaps'] },
  },
};

export const updatedClientExamples: Examples<AdminClient> = {
  updated: { summary: 'The client with its new rate limit', value: { ...ADMIN_CLIENT, rate_limit: 1200 } },
};

const ENDPOINT: WebhookEndpointView = {
  endpoint_id: ENDPOINT_ID,
  url: 'https://hooks.acme.example/knap',
  created_at: '2026-10-05T08:20:03Z',
  event_types: null,
  description: 'Runs to the CRM sync',
  disabled: false,
  disabled_at: null,
};

export const webhookListExamples: Examples<{ endpoints: WebhookEndpointView[] }> = {
  endpoints: { summary: "The organization's endpoints", value: { endpoints: [ENDPOINT] } },
};

export const addWebhookExamples: Examples<AddWebhookRequest> = {
  https: { summary: 'An https URL on a public address', value: { url: 'https://hooks.acme.example/knap-eu' } },
  outcomes: {
    summary: 'Only the outcomes of runs, with a description',
    value: {
      url: 'https://hooks.acme.example/knap-outcomes',
      event_types: ['knap.run.succeeded', 'knap.run.failed'],
      description: 'Outcomes to the on-call channel',
    },
  },
};

export const updateWebhookExamples: Examples<UpdateWebhookRequest> = {
  disable: { summary: 'Pause deliveries while the receiver is down', value: { disabled: true } },
  filter: { summary: 'Only failed runs from now on', value: { event_types: ['knap.run.failed'] } },
  everything: {
    summary: 'Every event type again, and a new description',
    value: { event_types: null, description: 'All events' },
  },
};

export const updatedWebhookExamples: Examples<WebhookEndpointView> = {
  disabled: {
    summary: 'The endpoint as changed',
    value: { ...ENDPOINT, disabled: true, disabled_at: '2026-11-23T10:40:00Z' },
  },
};

export const newWebhookExamples: Examples<v.InferOutput<typeof NewWebhookEndpointSchema>> = {
  created: {
    summary: 'The endpoint and its signing secret, shown this once',
    value: {
      endpoint_id: NEW_ENDPOINT_ID,
      url: 'https://hooks.acme.example/knap-eu',
      created_at: '2026-11-23T10:31:55Z',
      event_types: null,
      description: null,
      disabled: false,
      disabled_at: null,
      secret: EXAMPLE_WEBHOOK_SECRET,
    },
  },
};

export const webhookSecretExamples: Examples<v.InferOutput<typeof WebhookSecretSchema>> = {
  rotated: {
    summary: 'The new signing secret, shown this once (the old one signs too for 24 hours)',
    value: { secret: `whsec_${Buffer.from('knap-openapi-example-secret-0002').toString('base64')}` },
  },
};

export const webhookTestExamples: Examples<v.InferOutput<typeof WebhookTestResultSchema>> = {
  delivered: { summary: 'The endpoint answered 2xx', value: { response_status: 204, duration_ms: 87, error: null } },
  refused: {
    summary: 'The endpoint answered 401 (a receiver still on an old secret, say)',
    value: { response_status: 401, duration_ms: 112, error: 'HTTP 401 from https://hooks.acme.example' },
  },
  timedOut: {
    summary: 'No answer in time',
    value: { response_status: null, duration_ms: 10003, error: 'timed out after 10 s (https://hooks.acme.example)' },
  },
};

/** The scheduled run as admins see it: its Knap's name, what each attempt did. */
const ADMIN_SCHEDULED_RUN: AdminRun = {
  ...SCHEDULED_RUN,
  knap_name: 'Weekly pipeline digest',
  delivery_attempts: [
    {
      at: '2026-11-16T13:30:01Z',
      endpoint_id: ENDPOINT_ID,
      status: 'failed',
      error: 'HTTP 503 from https://hooks.acme.example',
      response_status: 503,
      duration_ms: 412,
      response_body: 'Service Unavailable',
      http_status: 503,
    },
    {
      at: '2026-11-16T13:30:41Z',
      endpoint_id: ENDPOINT_ID,
      status: 'delivered',
      error: null,
      response_status: 200,
      duration_ms: 87,
      response_body: '{"ok":true}',
      http_status: 200,
    },
  ],
};

export const adminRunPageExamples: Examples<AdminRunPage> = {
  page: {
    summary: 'The newest runs of the organization, with what each attempt did',
    value: {
      runs: [{ ...MANUAL_RUN, knap_name: 'Weekly pipeline digest', delivery_attempts: [] }, ADMIN_SCHEDULED_RUN],
      next_cursor: 'eyJyIjoicnVuX0hjNG5UOHlCMndRZTZSeksiLCJ0IjoyfQ',
    },
  },
  filtered: {
    summary: 'GET /api/admin/runs?status=delivered&outcome=succeeded: the runs that match, from a bounded read',
    value: { runs: [ADMIN_SCHEDULED_RUN], next_cursor: null },
  },
};

export const adminRunDetailExamples: Examples<AdminRunDetail> = {
  succeeded: {
    summary: 'A scheduled run: delivered at the second attempt, then reported running and succeeded',
    value: {
      ...ADMIN_SCHEDULED_RUN,
      events: [
        { id: 1, type: 'created', at: '2026-11-16T13:30:00Z' },
        { id: 2, type: 'delivered', at: '2026-11-16T13:30:41Z', endpoint_id: ENDPOINT_ID },
        { id: 3, type: 'running', at: '2026-11-16T13:30:42Z', message: null },
        { id: 4, type: 'succeeded', at: '2026-11-16T13:31:09Z', message: null, output: SCHEDULED_RUN.output },
      ],
    },
  },
};

export const redeliveryExamples: Examples<{ run_id: string; status: 'pending' }> = {
  accepted: {
    summary: 'The run is on its way again, with the same webhook-id',
    value: { run_id: SCHEDULED_RUN.run_id, status: 'pending' },
  },
};

export const auditPageExamples: Examples<v.InferOutput<typeof AuditPageSchema>> = {
  page: {
    summary: 'Changes by an admin and by the CLI, and a sign-in, newest first',
    value: {
      events: [
        {
          at: '2026-11-23T10:31:55Z',
          actor: ADMIN_EMAIL,
          action: 'webhook.create',
          target: { type: 'webhook', id: NEW_ENDPOINT_ID },
          source_ip: '203.0.113.24',
        },
        {
          at: '2026-11-23T10:30:12Z',
          actor: ADMIN_EMAIL,
          action: 'client.create',
          target: { type: 'client', id: NEW_CLIENT_ID },
          source_ip: '203.0.113.24',
        },
        {
          at: '2026-11-23T10:29:40Z',
          actor: ADMIN_EMAIL,
          action: 'admin.sign_in',
          target: { type: 'admin', id: ADMIN_EMAIL },
          source_ip: '203.0.113.24',
        },
        {
          at: '2026-11-20T17:02:09Z',
          actor: 'cli',
          action: 'client.revoke',
          target: { type: 'client', id: OTHER_CLIENT_ID },
          source_ip: null,
        },
      ],
      next_cursor: null,
    },
  },
};

// --- Secret rotation and private_key_jwt ---------------------------------------------------

const SECRET_ID = 'cs_q3ZlS0b9xW1mN7tA';
const NEW_SECRET_ID = 'cs_H8vKp2Lr5Yc0eJdU';
const EXAMPLE_JWK = {
  kty: 'EC',
  crv: 'P-256',
  x: 'f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU',
  y: 'x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0',
  kid: 'crm-sync-2026-11',
  use: 'sig',
  alg: 'ES256',
};

export const clientDetailExamples: Examples<v.InferOutput<typeof AdminClientDetailSchema>> = {
  rotating: {
    summary: 'Mid-rotation: the old secret still in use, the new one added, and a public key',
    value: {
      ...ADMIN_CLIENT,
      secrets: [
        { secret_id: SECRET_ID, created_at: '2026-10-05T08:12:40Z', last_used_at: '2026-11-23T10:15:01Z', expires_at: null },
        { secret_id: NEW_SECRET_ID, created_at: '2026-11-23T09:00:00Z', last_used_at: null, expires_at: '2026-12-23T09:00:00Z' },
      ],
      jwks: { keys: [EXAMPLE_JWK] },
    },
  },
};

export const addSecretExamples: Examples<v.InferOutput<typeof AddSecretRequestSchema>> = {
  expiring: { summary: 'A secret that stops working in 30 days', value: { expires_in_days: 30 } },
  untilRetired: { summary: 'A secret that works until it is retired', value: {} },
};

export const newSecretExamples: Examples<v.InferOutput<typeof NewSecretSchema>> = {
  added: {
    summary: 'The new secret, shown this once; the old one keeps working until retired',
    value: {
      secret_id: NEW_SECRET_ID,
      client_secret: fake('knap_cs_', 'openapi-example-rotated-secret'),
      created_at: '2026-11-23T09:00:00Z',
      expires_at: '2026-12-23T09:00:00Z',
    },
  },
};

export const jwksExamples: Examples<v.InferOutput<typeof ClientJwksSchema>> = {
  p256: { summary: 'One P-256 public key', value: { keys: [EXAMPLE_JWK] } },
};
