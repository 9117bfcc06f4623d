/**
 * The OpenAPI 3.1 document, derived from the valibot schemas the handlers validate with.
 * Served at GET /api/openapi.json; `npm run openapi` writes docs/openapi.json, and a test
 * fails when that file is stale.
 */
import { toJsonSchemaDefs } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { CreateKnapSchema } from '../domain/knap-input.js';
import { KnapListingSchema, KnapSchema } from '../domain/knaps.js';
import { MeetingRunsSchema, MeetingTranscriptionSchema, RunMeetingSchema, RunPageSchema, RunSchema } from '../domain/runs.js';
import { SchedulePreviewRequestSchema, SchedulePreviewSchema } from '../domain/schedule-preview.js';
import { TokenResponseSchema } from '../domain/tokens.js';
import { KnapPatchSchema } from '../schemas/knap-request.js';
import { ErrorSchema } from '../schemas/responses.js';
import { TokenFormSchema } from '../schemas/token-request.js';
import { messageBody, RUN_EVENT_TYPE, type RunMessage, RunMessageSchema, signedHeaders } from '../webhooks/message.js';

/** Where `npm start` serves the API: the server of the committed document. */
export const LOCAL_SERVER_URL = 'http://127.0.0.1:3000';

const formField = v.optional(v.pipe(v.string(), v.maxLength(1000)));
const clientAuthMethods = v.pipe(v.array(v.string()), v.description("'client_secret_post' and 'client_secret_basic'"));

/** The revocation (RFC 7009) and introspection (RFC 7662) form. */
const TokenOperationFormSchema = v.looseObject({
  token: v.pipe(v.string(), v.maxLength(1000), v.description('The access or refresh token')),
  token_type_hint: v.pipe(formField, v.description("'access_token' or 'refresh_token'; a hint only")),
  client_id: v.pipe(v.optional(v.string()), v.description('client_secret_post; or use HTTP Basic')),
  client_secret: v.pipe(formField, v.description('client_secret_post; or use HTTP Basic')),
});

const epochSeconds = (description: string) => v.pipe(v.number(), v.integer(), v.description(description));

/** What introspection (RFC 7662) answers: the token's details, or only that it is not live. */
const TokenIntrospectionSchema = v.union([
  v.object({
    active: v.literal(true),
    scope: v.pipe(v.string(), v.description('Space-separated scopes of the token')),
    client_id: v.string(),
    token_type: v.literal('Bearer'),
    exp: epochSeconds('Expiry, epoch seconds'),
    iat: epochSeconds('Issued at, epoch seconds'),
  }),
  v.pipe(
    v.strictObject({ active: v.literal(false) }),
    v.description('Unknown, expired or revoked, or a token of another client'),
  ),
]);

/** OAuth 2.0 Authorization Server Metadata (RFC 8414). */
const AuthorizationServerMetadataSchema = v.object({
  issuer: v.pipe(v.string(), v.url(), v.description('The base URL the request came in on')),
  token_endpoint: v.pipe(v.string(), v.url()),
  revocation_endpoint: v.pipe(v.string(), v.url()),
  introspection_endpoint: v.pipe(v.string(), v.url()),
  grant_types_supported: v.pipe(v.array(v.string()), v.description("'client_credentials' and 'refresh_token'")),
  token_endpoint_auth_methods_supported: clientAuthMethods,
  revocation_endpoint_auth_methods_supported: clientAuthMethods,
  introspection_endpoint_auth_methods_supported: clientAuthMethods,
  scopes_supported: v.array(v.string()),
  response_types_supported: v.pipe(
    v.array(v.string()),
    v.maxLength(0),
    v.description('Empty: no authorization endpoint, machine-to-machine only'),
  ),
  service_documentation: v.pipe(v.string(), v.url(), v.description('The API reference page')),
});

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
/** A bearer route's scope, by either description of its tokens: a Bearer header, or client credentials. */
const scoped = (scope: 'knaps:read' | 'knaps:write') => [{ bearer: [scope] }, { clientCredentials: [scope] }];
const json = (schema: string) => ({ 'application/json': { schema: ref(schema) } });
const problem = (description: string) => ({ description, content: json('Error') });
const integerHeader = (description: string) => ({ description, schema: { type: 'integer' } });
const rateLimitHeaders = {
  'RateLimit-Limit': integerHeader('Requests per minute this client may make'),
  'RateLimit-Remaining': integerHeader('Requests left in the current minute'),
  'RateLimit-Reset': integerHeader('Seconds until the current minute ends'),
};
const etagHeader = { ETag: { description: 'The Knap version, for If-Match', schema: { type: 'string' } } };
const tooMany = {
  description: 'Over the client rate limit',
  headers: { 'Retry-After': integerHeader('Seconds to wait'), ...rateLimitHeaders },
  content: json('Error'),
};
const unavailable = problem('DynamoDB is unavailable or throttling; retry (Retry-After)');
const bearerErrors = {
  '401': problem('Missing, unknown, expired or invalidated token, or a revoked client (WWW-Authenticate: Bearer)'),
  '403': problem('The token lacks the scope this endpoint needs'),
  '429': tooMany,
  '503': unavailable,
};
const jsonBodyErrors = {
  '400': problem('Invalid body (the detail names the field), malformed JSON or invalid UTF-8'),
  '413': problem('Body over the size limit'),
  '415': problem('Content-Type is not JSON, or a charset other than UTF-8'),
};
const knapUuid = {
  name: 'uuid',
  in: 'path',
  required: true,
  schema: { type: 'string', format: 'uuid' },
  description: 'The Knap uuid',
};
const ifMatch = {
  name: 'If-Match',
  in: 'header',
  required: false,
  schema: { type: 'string' },
  description: 'The ETag of the version read; the request fails with 412 if the Knap changed since',
};
const notFound = problem('No Knap with this uuid that this client can see');
const notYours = problem('The Knap is shared with this client, which did not create it; or the token lacks knaps:write');
const stale = problem('If-Match does not match the current ETag');
const racing = problem('Other requests kept changing the Knap; retry');
const noStoreHeaders = { 'Cache-Control': { schema: { type: 'string', const: 'no-store' } } };
const ignoredBodyTooLarge = problem('A body over 64 KB (this endpoint reads none)');
/** Client authentication at the token, revocation and introspection endpoints. */
const clientAuthDescription = 'Client authentication by client_id and client_secret in the form, or by HTTP Basic.';
const tokenOperationErrors = {
  '400': problem('Missing token or client credentials, credentials sent both ways, or an unparseable body'),
  '401': problem('Invalid client credentials or a revoked client (WWW-Authenticate: Basic to an HTTP Basic client)'),
  '413': problem('Body over 16 KB'),
  '415': problem('A charset other than UTF-8'),
  '429': tooMany,
  '503': unavailable,
};
const tokenOperationBody = {
  required: true,
  content: { 'application/x-www-form-urlencoded': { schema: ref('TokenOperationForm') } },
};

/** A knap.run message as a receiver gets it: the first attempt of a run after a meeting. */
const RUN_MESSAGE_EXAMPLE: RunMessage = {
  type: RUN_EVENT_TYPE,
  timestamp: '2026-11-23T10:15:02.418Z',
  data: {
    run: {
      run_id: 'run_Yp3Z0c8kQm1vT4xW9bN2fR6hJ7sL5aE_',
      knap_uuid: '3f2b8c4e-9a1d-4e6f-8b7c-2d5e1a9f0c34',
      trigger: 'post_meeting_transcription',
      scheduled_for: null,
      created_at: '2026-11-23T10:15:01Z',
      status: 'pending',
      attempts: 0,
      last_attempt_at: null,
      last_error: null,
      meeting_id: 'weekly-pipeline-2026-11-23',
      meeting: {
        meeting_id: 'weekly-pipeline-2026-11-23',
        title: 'Weekly pipeline review',
        occurred_at: '2026-11-23T09:00:00Z',
        transcript_url: 'https://meetings.acme.example/transcripts/83920475561',
        user_id: 1042,
      },
    },
    knap: {
      uuid: '3f2b8c4e-9a1d-4e6f-8b7c-2d5e1a9f0c34',
      name: 'Meeting notes to CRM',
      creation_user_id: 1042,
      schedule_type: 'post_meeting_transcription',
      is_active: true,
      visibility: 'acme',
      can_toggle_default_active: true,
      active_by_default: true,
      tool_metadata: { action_description: 'Summarize the meeting and log the next steps in the CRM' },
      creation_timestamp: '2026-11-02T14:20:11Z',
      updated_at: '2026-11-02T14:20:11Z',
      schedule_info: null,
      next_run_at: null,
    },
  },
};

/** Not a real endpoint's: the example headers are signed with it, so a reader can check them. */
const EXAMPLE_WEBHOOK_SECRET = `whsec_${Buffer.from('knap-openapi-example-secret-0001').toString('base64')}`;
const EXAMPLE_HEADERS = signedHeaders(
  EXAMPLE_WEBHOOK_SECRET,
  RUN_MESSAGE_EXAMPLE.data.run.run_id,
  new Date(RUN_MESSAGE_EXAMPLE.timestamp),
  messageBody(RUN_MESSAGE_EXAMPLE),
);

const webhookHeader = (name: string, description: string) => ({
  name,
  in: 'header',
  required: true,
  schema: { type: 'string' },
  description,
  example: EXAMPLE_HEADERS[name],
});

/** The `webhooks` entry (OpenAPI 3.1): what the API sends, not an endpoint it serves. */
const runWebhook = {
  post: {
    operationId: 'receiveKnapRun',
    tags: ['Runs'],
    summary: 'knap.run: a Knap ran (sent to every webhook endpoint of its organization)',
    description:
      "A [Standard Webhooks](https://www.standardwebhooks.com) message, POSTed to each webhook endpoint of the organization for every run (scheduled, manual or after a meeting). Verify it with any Standard Webhooks library and the endpoint's `whsec_` secret, and drop a `webhook-id` you have already handled: every retry of a run repeats it. A 2xx answer within 10 s delivers the run to that endpoint; anything else is retried with exponential backoff (at least 6 attempts over at least an hour), after which the run is `failed`.",
    security: [{}],
    parameters: [
      webhookHeader(
        'webhook-id',
        'The run_id: the same on every attempt and for every endpoint; the idempotency key of the message',
      ),
      webhookHeader('webhook-timestamp', 'When this attempt was sent, Unix seconds; signed'),
      webhookHeader(
        'webhook-signature',
        `\`v1,\` and the base64 HMAC-SHA256 of \`<webhook-id>.<webhook-timestamp>.<body>\`, keyed with the base64-decoded part of the endpoint secret after \`whsec_\` (the example: the example body as sent, compact JSON, signed with ${EXAMPLE_WEBHOOK_SECRET})`,
      ),
    ],
    requestBody: {
      required: true,
      content: {
        'application/json': {
          schema: ref('RunMessage'),
          examples: { meeting: { summary: 'A run after a meeting, first attempt', value: RUN_MESSAGE_EXAMPLE } },
        },
      },
    },
    responses: {
      '2XX': { description: 'Taken: the run is delivered to this endpoint and not sent to it again' },
      '4XX': { description: 'Not taken (e.g. a bad signature): the attempt failed and is retried' },
      '5XX': { description: 'Not taken: the attempt failed and is retried' },
    },
  },
};

export const openApiDocument = (serverUrl = LOCAL_SERVER_URL) => ({
  openapi: '3.1.0',
  info: {
    title: 'Knap API',
    version: '1.0.0',
    description:
      'OAuth 2.0 client-credentials tokens, and Knaps: automations run manually, on an English schedule, or after a meeting transcription. Every error body is `{"detail": "..."}`.',
    license: { name: 'Apache 2.0', identifier: 'Apache-2.0' },
  },
  servers: [{ url: serverUrl }],
  tags: [
    { name: 'OAuth', description: 'Tokens for API clients' },
    { name: 'Knaps', description: 'Automations of an organization' },
    { name: 'Runs', description: 'Knaps that run, and their webhook deliveries' },
    { name: 'Schedules', description: 'Natural-language schedules' },
    { name: 'Documentation', description: 'This document and its page' },
  ],
  paths: {
    '/.well-known/oauth-authorization-server': {
      get: {
        operationId: 'getAuthorizationServerMetadata',
        tags: ['OAuth'],
        summary: 'Authorization server metadata (RFC 8414): where the OAuth endpoints are',
        security: [{}],
        responses: {
          '200': {
            description: 'The metadata; issuer is the base URL the request came in on',
            headers: { 'Cache-Control': { schema: { type: 'string' }, description: 'Public and cacheable' } },
            content: json('AuthorizationServerMetadata'),
          },
          '413': ignoredBodyTooLarge,
        },
      },
    },
    '/api/oauth/token': {
      post: {
        operationId: 'issueToken',
        tags: ['OAuth'],
        summary: 'Issue tokens (client_credentials or refresh_token grant)',
        description: clientAuthDescription,
        security: [{}, { clientBasic: [] }],
        requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: ref('TokenForm') } } },
        responses: {
          '200': {
            description: 'A token set',
            headers: { ...rateLimitHeaders, ...noStoreHeaders },
            content: json('TokenResponse'),
          },
          '400': problem('Unsupported or missing grant_type, missing fields, invalid scope, unparseable body'),
          '401': problem(
            'Invalid client credentials, revoked client, or an invalid refresh token (WWW-Authenticate: Basic to an HTTP Basic client)',
          ),
          '413': problem('Body over 16 KB'),
          '415': problem('A charset other than UTF-8'),
          '429': tooMany,
          '503': unavailable,
        },
      },
    },
    '/api/oauth/revoke': {
      post: {
        operationId: 'revokeToken',
        tags: ['OAuth'],
        summary: 'Revoke an access or refresh token (RFC 7009)',
        description: `${clientAuthDescription} The answer is the same whether or not the token was known; a token of another client is left alone. Revoking a refresh token also ends the access tokens issued through it.`,
        security: [{}, { clientBasic: [] }],
        requestBody: tokenOperationBody,
        responses: {
          '200': {
            description: 'Revoked, or nothing to revoke: an empty body',
            headers: { ...rateLimitHeaders, ...noStoreHeaders },
          },
          ...tokenOperationErrors,
        },
      },
    },
    '/api/oauth/introspect': {
      post: {
        operationId: 'introspectToken',
        tags: ['OAuth'],
        summary: 'Is a token live, and what may it do (RFC 7662)',
        description: `${clientAuthDescription} A token that is unknown, expired, revoked or another client's is {"active": false}, never an error.`,
        security: [{}, { clientBasic: [] }],
        requestBody: tokenOperationBody,
        responses: {
          '200': {
            description: 'The token state',
            headers: { ...rateLimitHeaders, ...noStoreHeaders },
            content: json('TokenIntrospection'),
          },
          ...tokenOperationErrors,
        },
      },
    },
    '/api/studio/knap-tools': {
      post: {
        operationId: 'createKnap',
        tags: ['Knaps'],
        summary: 'Create a Knap',
        security: scoped('knaps:write'),
        parameters: [
          {
            name: 'Idempotency-Key',
            in: 'header',
            required: false,
            schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x20-\\x7e]+$' },
            description:
              'Retry safely: the same key and body within 24 hours answer the first response again (Idempotent-Replayed: true)',
          },
        ],
        requestBody: { required: true, content: json('CreateKnap') },
        responses: {
          '201': { description: 'The created Knap', headers: { ...rateLimitHeaders, ...etagHeader }, content: json('Knap') },
          ...jsonBodyErrors,
          '409': problem('A request with this Idempotency-Key is still in progress (Retry-After)'),
          '422': problem('This Idempotency-Key was used with a different body'),
          '500': problem('The Knap could not be stored; nothing was written'),
          ...bearerErrors,
        },
      },
      get: {
        operationId: 'listKnaps',
        tags: ['Knaps'],
        summary: 'List the Knaps this client may see, newest first',
        security: scoped('knaps:read'),
        parameters: [
          {
            name: 'limit',
            in: 'query',
            schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 },
            description: 'At most this many of my_knaps, and at most this many shared ones (organization and public together)',
          },
          { name: 'cursor', in: 'query', schema: { type: 'string' }, description: 'next_cursor of the previous page' },
        ],
        responses: {
          '200': { description: 'One page of each list', headers: rateLimitHeaders, content: json('KnapListing') },
          '400': problem('Invalid limit or cursor'),
          ...bearerErrors,
        },
      },
    },
    '/api/studio/knap-tools/{uuid}': {
      get: {
        operationId: 'getKnap',
        tags: ['Knaps'],
        summary: 'Read one Knap',
        security: scoped('knaps:read'),
        parameters: [knapUuid],
        responses: {
          '200': { description: 'The Knap', headers: { ...rateLimitHeaders, ...etagHeader }, content: json('Knap') },
          '404': notFound,
          ...bearerErrors,
        },
      },
      patch: {
        operationId: 'updateKnap',
        tags: ['Knaps'],
        summary: 'Change a Knap this client created (JSON merge patch)',
        description:
          'Any of the create fields; tool_metadata merges key by key, and null removes a field. The result is validated as a create body. The schedule is recomputed from now when its inputs change or the Knap is activated.',
        security: scoped('knaps:write'),
        parameters: [knapUuid, ifMatch],
        requestBody: {
          required: true,
          content: {
            'application/merge-patch+json': { schema: ref('KnapPatch') },
            'application/json': { schema: ref('KnapPatch') },
          },
        },
        responses: {
          '200': { description: 'The changed Knap', headers: { ...rateLimitHeaders, ...etagHeader }, content: json('Knap') },
          ...jsonBodyErrors,
          ...bearerErrors,
          '403': notYours,
          '404': notFound,
          '409': racing,
          '412': stale,
        },
      },
      delete: {
        operationId: 'deleteKnap',
        tags: ['Knaps'],
        summary: 'Delete a Knap this client created',
        security: scoped('knaps:write'),
        parameters: [knapUuid, ifMatch],
        responses: {
          '204': { description: 'Deleted: gone from reads and lists, and it never runs again', headers: rateLimitHeaders },
          ...bearerErrors,
          '403': notYours,
          '404': notFound,
          '409': racing,
          '412': stale,
        },
      },
    },
    '/api/studio/knap-tools/{uuid}/runs': {
      post: {
        operationId: 'startRun',
        tags: ['Runs'],
        summary: 'Run a Knap now (a manual run)',
        description: 'No body. The run is delivered to the webhook endpoints of the organization in the background.',
        security: scoped('knaps:write'),
        parameters: [knapUuid],
        responses: {
          '202': { description: 'The run, pending', headers: rateLimitHeaders, content: json('Run') },
          ...bearerErrors,
          '404': notFound,
          '409': problem('The Knap is not active'),
        },
      },
      get: {
        operationId: 'listRuns',
        tags: ['Runs'],
        summary: "A Knap's runs, newest first",
        security: scoped('knaps:read'),
        parameters: [
          knapUuid,
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 } },
          { name: 'cursor', in: 'query', schema: { type: 'string' }, description: 'next_cursor of the previous page' },
        ],
        responses: {
          '200': { description: 'One page of runs', headers: rateLimitHeaders, content: json('RunPage') },
          '400': problem('Invalid limit or cursor'),
          ...bearerErrors,
          '404': notFound,
        },
      },
    },
    '/api/studio/meeting-transcriptions': {
      post: {
        operationId: 'reportMeeting',
        tags: ['Runs'],
        summary: 'A meeting was transcribed: run every active after-meeting Knap the client sees, once per meeting',
        security: scoped('knaps:write'),
        requestBody: { required: true, content: json('MeetingTranscription') },
        responses: {
          '202': {
            description:
              'The runs of this meeting, new or earlier, of up to 100 Knaps. With more than 100 such Knaps the rest are made ' +
              'after the answer (`runs_pending` says how many), each once per meeting as ever',
            headers: rateLimitHeaders,
            content: json('MeetingRuns'),
          },
          ...jsonBodyErrors,
          ...bearerErrors,
        },
      },
    },
    '/api/studio/schedules/preview': {
      post: {
        operationId: 'previewSchedule',
        tags: ['Schedules'],
        summary: 'Read a schedule description: schedule_info, the next runs, and the schedule said back in English',
        security: scoped('knaps:read'),
        requestBody: { required: true, content: json('SchedulePreviewRequest') },
        responses: {
          '200': { description: 'How the description reads', headers: rateLimitHeaders, content: json('SchedulePreview') },
          ...jsonBodyErrors,
          ...bearerErrors,
        },
      },
    },
    '/api/openapi.json': {
      get: {
        operationId: 'getOpenApiDocument',
        tags: ['Documentation'],
        summary: 'This OpenAPI document',
        security: [{}],
        responses: {
          '200': { description: 'The document', content: { 'application/json': { schema: { type: 'object' } } } },
          '413': ignoredBodyTooLarge,
        },
      },
    },
    '/api/docs': {
      get: {
        operationId: 'getApiReference',
        tags: ['Documentation'],
        summary: 'The API reference page (HTML) rendering this document',
        security: [{}],
        responses: {
          '200': { description: 'The page', content: { 'text/html': { schema: { type: 'string' } } } },
          '413': ignoredBodyTooLarge,
        },
      },
    },
  },
  webhooks: { [RUN_EVENT_TYPE]: runWebhook },
  components: {
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer', description: 'An access token (knap_at_...) from /api/oauth/token' },
      // The same tokens, described so a tool (the docs page's Authorize button) can get one itself.
      clientCredentials: {
        type: 'oauth2',
        description: "OAuth 2.0 client credentials: an API client's id and secret buy an access token",
        flows: {
          clientCredentials: {
            tokenUrl: `${serverUrl}/api/oauth/token`,
            refreshUrl: `${serverUrl}/api/oauth/token`,
            scopes: {
              'knaps:read': 'Read Knaps, their runs and schedule previews',
              'knaps:write': 'Create, change, delete and run Knaps',
            },
          },
        },
      },
      clientBasic: { type: 'http', scheme: 'basic', description: 'client_secret_basic: client id and secret' },
    },
    // Pipes with custom checks (lengths in characters, storable JSON) are enforced by the API
    // but have no JSON Schema form; they are left out here rather than guessed.
    schemas: toJsonSchemaDefs(
      {
        TokenForm: TokenFormSchema,
        TokenResponse: TokenResponseSchema,
        TokenOperationForm: TokenOperationFormSchema,
        TokenIntrospection: TokenIntrospectionSchema,
        AuthorizationServerMetadata: AuthorizationServerMetadataSchema,
        CreateKnap: CreateKnapSchema,
        KnapPatch: KnapPatchSchema,
        Knap: KnapSchema,
        KnapListing: KnapListingSchema,
        Run: RunSchema,
        RunMeeting: RunMeetingSchema,
        RunPage: RunPageSchema,
        RunMessage: RunMessageSchema,
        MeetingTranscription: MeetingTranscriptionSchema,
        MeetingRuns: MeetingRunsSchema,
        SchedulePreviewRequest: SchedulePreviewRequestSchema,
        SchedulePreview: SchedulePreviewSchema,
        Error: ErrorSchema,
      } satisfies Record<string, v.GenericSchema>,
      {
        target: 'draft-2020-12',
        errorMode: 'ignore',
        typeMode: 'ignore',
        overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
      },
    ),
  },
});
