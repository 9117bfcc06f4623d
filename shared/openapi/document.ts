/**
 * The OpenAPI 3.1 document, derived from the valibot schemas the handlers validate with.
 * Served at GET /api/openapi.json; `npm run openapi` writes docs/openapi.json, and a test
 * fails when that file is stale.
 */
import { toJsonSchemaDefs } from '@valibot/to-json-schema';
import * as v from 'valibot';
import packageJson from '../../package.json' with { type: 'json' };
import { CreateKnapSchema } from '../domain/knap-input.js';
import { KnapListingSchema, KnapSchema } from '../domain/knaps.js';
import { authorizationServerMetadata } from '../domain/oauth-metadata.js';
import { RUN_OUTCOMES, RunEventListSchema, RunEventSchema, RunReportSchema } from '../domain/run-events.js';
import {
  AdminRunDetailSchema,
  AdminRunPageSchema,
  AdminRunSchema,
  DeliveryAttemptEntrySchema,
  MeetingRunsSchema,
  MeetingTranscriptionSchema,
  RUN_STATUSES,
  RunMeetingSchema,
  RunPageSchema,
  RunSchema,
} from '../domain/runs.js';
import { SchedulePreviewRequestSchema, SchedulePreviewSchema } from '../domain/schedule-preview.js';
import {
  AddSecretRequestSchema,
  AddWebhookRequestSchema,
  AdminClientDetailSchema,
  AdminClientListSchema,
  AdminClientSchema,
  AuditEventSchema,
  AuditPageSchema,
  ClientJwksSchema,
  ClientSecretSchema,
  CreateClientRequestSchema,
  NewAdminClientSchema,
  NewSecretSchema,
  NewWebhookEndpointSchema,
  RunRedeliverySchema,
  UpdateClientRequestSchema,
  UpdateWebhookRequestSchema,
  WebhookEndpointListSchema,
  WebhookEndpointSchema,
  WebhookSecretSchema,
  WebhookTestResultSchema,
} from '../schemas/admin.js';
import { AdminKnapPageSchema, AdminKnapPatchSchema, AdminKnapSchema } from '../schemas/admin-knaps.js';
import { KnapDeletedSchema, KnapPatchSchema, StartRunSchema } from '../schemas/knap-request.js';
import { ErrorSchema, TokenResponseSchema } from '../schemas/responses.js';
import { TokenFormSchema } from '../schemas/token-request.js';
import { WebhookAttemptPageSchema } from '../schemas/webhook-attempts.js';
import { RecoverWebhookRequestSchema, WebhookRecoverySchema } from '../schemas/webhook-recovery.js';
import { messageBody, RUN_EVENT_TYPE, RunMessageSchema, signedHeaders } from '../webhooks/message.js';
import * as examples from './examples.js';
import { EXAMPLE_WEBHOOK_SECRET, type Example, RUN_MESSAGE_EXAMPLE } from './examples.js';

/** Where `npm start` serves the API: the server of the committed document. */
export const LOCAL_SERVER_URL = 'http://127.0.0.1:3000';

const formField = v.optional(v.pipe(v.string(), v.maxLength(1000)));
const clientAuthMethods = v.pipe(
  v.array(v.string()),
  v.description("'client_secret_post', 'client_secret_basic' and 'private_key_jwt'"),
);
const signingAlgorithms = v.pipe(
  v.array(v.string()),
  v.description('What private_key_jwt assertions may be signed with: RS256, PS256, ES256, EdDSA'),
);

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
  token_endpoint_auth_signing_alg_values_supported: signingAlgorithms,
  revocation_endpoint_auth_signing_alg_values_supported: signingAlgorithms,
  introspection_endpoint_auth_signing_alg_values_supported: signingAlgorithms,
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
const scoped = (scope: 'read:knaps' | 'write:knaps') => [{ bearer: [scope] }, { clientCredentials: [scope] }];
/** A JSON body of a component schema, with its named examples (test/unit/openapi-examples.test.ts parses each). */
const json = (schema: string, exampleSet?: Record<string, Example>) => ({
  'application/json': { schema: ref(schema), ...(exampleSet ? { examples: exampleSet } : {}) },
});
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
const runIdParameter = {
  name: 'run_id',
  in: 'path',
  required: true,
  schema: { type: 'string' },
  description: 'The run id (`run_` and 32 base64url characters)',
};
/** The events of a run that succeeded, for the examples. */
const RUN_EVENTS_EXAMPLE = [
  { id: 1, type: 'created', at: '2026-11-23T10:21:07Z' },
  { id: 2, type: 'delivered', at: '2026-11-23T10:21:08Z', endpoint_id: 'we_3f9a1c2b7d4e5f60718293a4' },
  { id: 3, type: 'running', at: '2026-11-23T10:21:09Z', message: null },
  { id: 4, type: 'progress', at: '2026-11-23T10:21:20Z', message: 'Read 120 of 300 messages' },
  { id: 5, type: 'succeeded', at: '2026-11-23T10:21:41Z', message: null, output: { summary: '3 new leads' } },
];
const lastEventIdHeader = {
  name: 'Last-Event-ID',
  in: 'header',
  required: false,
  schema: { type: 'integer', minimum: 0 },
  description: 'Stream only: the last event id received; events after it are sent',
};
/** A run's events: JSON, or one answer of a Server-Sent Events stream. */
const runEventsContent = {
  ...json('RunEventList', { events: { summary: 'A run that succeeded', value: { events: RUN_EVENTS_EXAMPLE } } }),
  'text/event-stream': {
    schema: { type: 'string' },
    example: `retry: 1000\n\n${RUN_EVENTS_EXAMPLE.map((event) => `id: ${event.id}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join('')}`,
  },
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
const notYours = problem('The Knap is shared with this client, which did not create it; or the token lacks write:knaps');
const stale = problem('If-Match does not match the current ETag');
const racing = problem('Other requests kept changing the Knap; retry');
const noStoreHeaders = { 'Cache-Control': { schema: { type: 'string', const: 'no-store' } } };
const ignoredBodyTooLarge = problem('A body over 64 KB (this endpoint reads none)');

/** Admin operations: an organization admin's access token (OpenID Connect), never an API client's. */
const adminSecurity = [{ adminOpenIdConnect: [] }];
/** Every admin answer, errors included, is `Cache-Control: no-store`. */
const adminProblem = (description: string) => ({ description, headers: noStoreHeaders, content: json('Error') });
const adminOk = (description: string, schema: string, exampleSet: Record<string, Example>) => ({
  description,
  headers: noStoreHeaders,
  content: json(schema, exampleSet),
});
const adminErrors = {
  '401': {
    description:
      "No admin access token, or an expired, tampered or unknown one (another issuer's, an ID token, or an API client's `knap_at_` token)",
    headers: {
      ...noStoreHeaders,
      'WWW-Authenticate': {
        description: '`Bearer realm="knap"`, with `error="invalid_token"` and its description when a token was sent',
        schema: { type: 'string' },
      },
    },
    content: json('Error'),
  },
  '429': {
    description:
      'Over the per-admin rate limit (120 requests a minute by default: `{"detail"}` with Retry-After), or over the admin routes\' throttle of the deployed stack (API Gateway answers `{"message": "Too Many Requests"}`); admin routes are not metered by API-client rate limits',
    headers: { ...noStoreHeaders, 'Retry-After': integerHeader('Seconds to wait'), ...rateLimitHeaders },
    content: json('Error'),
  },
  '503': adminProblem(
    'Admin sign-in is not configured for this deployment (no admin issuer), or DynamoDB is unavailable or throttling (Retry-After)',
  ),
};
const adminBodyErrors = {
  '400': adminProblem('Invalid body (the detail names the field), an unknown field, malformed JSON or invalid UTF-8'),
  '413': adminProblem('Body over the size limit'),
  '415': adminProblem('Content-Type is not JSON, or a charset other than UTF-8'),
};
const adminPageErrors = { '400': adminProblem('Invalid limit or cursor') };
const adminPageParameters = [
  {
    name: 'limit',
    in: 'query',
    schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 },
    description: 'At most this many per page',
  },
  { name: 'cursor', in: 'query', schema: { type: 'string' }, description: 'next_cursor of the previous page' },
];
const pathId = (name: string, description: string) => ({
  name,
  in: 'path',
  required: true,
  schema: { type: 'string' },
  description,
});
const clientId = pathId('client_id', 'The API client id (`knap_ci_...`)');
const adminRunId = pathId('run_id', 'The run id (`run_...`)');
const adminRunNotFound = adminProblem(
  "No run with this id in the admin's organization (another organization's is never disclosed)",
);
const clientNotFound = adminProblem(
  "No API client with this id in the admin's organization (another organization's is never disclosed)",
);
const adminKnapNotFound = adminProblem(
  "No Knap with this uuid in the admin's organization (another organization's is never disclosed): `Knap not found`",
);
const clientRevoked = adminProblem('The client is revoked; revocation is permanent');
const adminBody = (schema: string, exampleSet: Record<string, Example>) => ({
  required: true,
  content: json(schema, exampleSet),
});

/** What a method a path has no route for is answered (components.responses.MethodNotAllowed). */
const METHOD_NOT_ALLOWED = '#/components/responses/MethodNotAllowed';

/** The 405 of every operation: its path with a method of no route. */
const withMethodNotAllowed = <P extends Record<string, Record<string, { responses: Record<string, unknown> }>>>(paths: P): P =>
  Object.fromEntries(
    Object.entries(paths).map(([path, operations]) => [
      path,
      Object.fromEntries(
        Object.entries(operations).map(([method, operation]) => [
          method,
          { ...operation, responses: { ...operation.responses, '405': { $ref: METHOD_NOT_ALLOWED } } },
        ]),
      ),
    ]),
  ) as unknown as P;

/** The component schemas, by name: each a valibot schema the API validates or answers with. */
export const componentSchemas = {
  TokenForm: TokenFormSchema,
  TokenResponse: TokenResponseSchema,
  TokenOperationForm: TokenOperationFormSchema,
  TokenIntrospection: TokenIntrospectionSchema,
  AuthorizationServerMetadata: AuthorizationServerMetadataSchema,
  CreateKnap: CreateKnapSchema,
  KnapPatch: KnapPatchSchema,
  KnapDeleted: KnapDeletedSchema,
  AdminKnap: AdminKnapSchema,
  AdminKnapPage: AdminKnapPageSchema,
  AdminKnapPatch: AdminKnapPatchSchema,
  Knap: KnapSchema,
  KnapListing: KnapListingSchema,
  Run: RunSchema,
  RunMeeting: RunMeetingSchema,
  RunPage: RunPageSchema,
  RunMessage: RunMessageSchema,
  StartRun: StartRunSchema,
  RunEvent: RunEventSchema,
  RunEventList: RunEventListSchema,
  RunReport: RunReportSchema,
  MeetingTranscription: MeetingTranscriptionSchema,
  MeetingRuns: MeetingRunsSchema,
  SchedulePreviewRequest: SchedulePreviewRequestSchema,
  SchedulePreview: SchedulePreviewSchema,
  CreateClientRequest: CreateClientRequestSchema,
  UpdateClientRequest: UpdateClientRequestSchema,
  AdminClient: AdminClientSchema,
  NewAdminClient: NewAdminClientSchema,
  AdminClientList: AdminClientListSchema,
  ClientSecret: ClientSecretSchema,
  AdminClientDetail: AdminClientDetailSchema,
  AddSecretRequest: AddSecretRequestSchema,
  NewSecret: NewSecretSchema,
  ClientJwks: ClientJwksSchema,
  AddWebhookRequest: AddWebhookRequestSchema,
  UpdateWebhookRequest: UpdateWebhookRequestSchema,
  RecoverWebhookRequest: RecoverWebhookRequestSchema,
  WebhookRecovery: WebhookRecoverySchema,
  WebhookAttemptPage: WebhookAttemptPageSchema,
  WebhookEndpoint: WebhookEndpointSchema,
  NewWebhookEndpoint: NewWebhookEndpointSchema,
  WebhookEndpointList: WebhookEndpointListSchema,
  WebhookSecret: WebhookSecretSchema,
  WebhookTestResult: WebhookTestResultSchema,
  DeliveryAttempt: DeliveryAttemptEntrySchema,
  AdminRun: AdminRunSchema,
  AdminRunPage: AdminRunPageSchema,
  AdminRunDetail: AdminRunDetailSchema,
  RunRedelivery: RunRedeliverySchema,
  AuditEvent: AuditEventSchema,
  AuditPage: AuditPageSchema,
  Error: ErrorSchema,
} satisfies Record<string, v.GenericSchema>;
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
const tokenOperationBody = (exampleSet: Record<string, Example>) => ({
  required: true,
  content: { 'application/x-www-form-urlencoded': { schema: ref('TokenOperationForm'), examples: exampleSet } },
});

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

/**
 * The document as served at `serverUrl`. `adminIssuer`: the OpenID Connect issuer of
 * organization admins (ADMIN_ISSUER); by default the local provider `npm start` serves under
 * /oidc of the same address.
 */
export const openApiDocument = (serverUrl = LOCAL_SERVER_URL, adminIssuer = `${serverUrl}/oidc`) => ({
  openapi: '3.1.0',
  info: {
    title: 'Knap API',
    // The package's version: the document changes with the release that serves it.
    version: PACKAGE_VERSION,
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
    {
      name: 'Organization admins',
      description:
        "An organization admin's own API clients, webhook endpoints, runs and audit log, with an admin's access token (OpenID Connect). Another organization's client, endpoint or run is a 404; every answer is `Cache-Control: no-store`.",
    },
    { name: 'Documentation', description: 'This document and its page' },
  ],
  paths: withMethodNotAllowed({
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
            content: json('AuthorizationServerMetadata', {
              local: { summary: 'The metadata of this server', value: authorizationServerMetadata(serverUrl) },
            }),
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
        requestBody: {
          required: true,
          content: {
            'application/x-www-form-urlencoded': { schema: ref('TokenForm'), examples: examples.tokenFormExamples },
          },
        },
        responses: {
          '200': {
            description: 'A token set',
            headers: { ...rateLimitHeaders, ...noStoreHeaders },
            content: json('TokenResponse', examples.tokenResponseExamples),
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
        requestBody: tokenOperationBody(examples.revokeFormExamples),
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
        requestBody: tokenOperationBody(examples.introspectFormExamples),
        responses: {
          '200': {
            description: 'The token state',
            headers: { ...rateLimitHeaders, ...noStoreHeaders },
            content: json('TokenIntrospection', examples.introspectionExamples),
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
        security: scoped('write:knaps'),
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
        requestBody: { required: true, content: json('CreateKnap', examples.createKnapExamples) },
        responses: {
          '201': {
            description: 'The created Knap',
            headers: { ...rateLimitHeaders, ...etagHeader },
            content: json('Knap', examples.knapExamples),
          },
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
        security: scoped('read:knaps'),
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
          '200': {
            description: 'One page of each list',
            headers: rateLimitHeaders,
            content: json('KnapListing', examples.knapListingExamples),
          },
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
        security: scoped('read:knaps'),
        parameters: [knapUuid],
        responses: {
          '200': {
            description: 'The Knap',
            headers: { ...rateLimitHeaders, ...etagHeader },
            content: json('Knap', examples.knapExamples),
          },
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
        security: scoped('write:knaps'),
        parameters: [knapUuid, ifMatch],
        requestBody: {
          required: true,
          content: {
            'application/merge-patch+json': { schema: ref('KnapPatch'), examples: examples.knapPatchExamples },
            'application/json': { schema: ref('KnapPatch'), examples: examples.knapPatchExamples },
          },
        },
        responses: {
          '200': {
            description: 'The changed Knap',
            headers: { ...rateLimitHeaders, ...etagHeader },
            content: json('Knap', examples.patchedKnapExamples),
          },
          ...jsonBodyErrors,
          ...bearerErrors,
          '403': notYours,
          '404': notFound,
          '409': racing,
          '412': stale,
        },
      },
      put: {
        operationId: 'putKnap',
        tags: ['Knaps'],
        summary: "Change a Knap this client created (Knapsack's update: the fields given change)",
        description:
          "Knapsack's update, answered as PATCH is: every field is optional, the fields given change as a JSON merge patch would (tool_metadata merges key by key). Read-only members (uuid, creation_user_id, creation_timestamp, updated_at, schedule_info, next_run_at, can_toggle_default_active) sent back as they were answered are ignored; changed, a 400. visibility cannot change after creation (the same value is accepted). An unknown top-level member is a 400 naming the field it resembles.",
        security: scoped('write:knaps'),
        parameters: [knapUuid, ifMatch],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: ref('KnapPatch'), examples: examples.knapPatchExamples } },
        },
        responses: {
          '200': {
            description: 'The changed Knap',
            headers: { ...rateLimitHeaders, ...etagHeader },
            content: json('Knap', examples.patchedKnapExamples),
          },
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
        security: scoped('write:knaps'),
        parameters: [knapUuid, ifMatch],
        responses: {
          '200': {
            description: "Deleted: gone from reads and lists, and it never runs again (Knapsack's answer; 204 before 0.2.0)",
            headers: rateLimitHeaders,
            content: json('KnapDeleted', examples.knapDeletedExamples),
          },
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
        description:
          'An optional body `{"input": {...}}` (a JSON object of at most 64 KB; Knapsack-style `messages` and `chat_id` are ordinary members) is kept on the run and delivered in `data.run.input`; no body is no input. The run is delivered to the webhook endpoints of the organization in the background.',
        security: scoped('write:knaps'),
        parameters: [knapUuid],
        requestBody: {
          required: false,
          content: json('StartRun', {
            input: {
              summary: 'With input',
              value: { input: { messages: [{ role: 'user', content: 'Summarize yesterday' }], chat_id: 'chat_8812' } },
            },
          }),
        },
        responses: {
          '202': { description: 'The run, pending', headers: rateLimitHeaders, content: json('Run', examples.runExamples) },
          '400': problem('input is not a JSON object, is over 64 KB, or the body is malformed'),
          '413': problem('Body over 72 KB'),
          '415': problem('Content-Type is not JSON, or a charset other than UTF-8'),
          ...bearerErrors,
          '404': notFound,
          '409': problem('The Knap is not active'),
        },
      },
      get: {
        operationId: 'listRuns',
        tags: ['Runs'],
        summary: "A Knap's runs, newest first",
        security: scoped('read:knaps'),
        parameters: [
          knapUuid,
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 } },
          { name: 'cursor', in: 'query', schema: { type: 'string' }, description: 'next_cursor of the previous page' },
        ],
        responses: {
          '200': {
            description: 'One page of runs',
            headers: rateLimitHeaders,
            content: json('RunPage', examples.runPageExamples),
          },
          '400': problem('Invalid limit or cursor'),
          ...bearerErrors,
          '404': notFound,
        },
      },
    },
    '/api/studio/runs/{run_id}': {
      get: {
        operationId: 'getRun',
        tags: ['Runs'],
        summary: 'One run, with its input and outcome',
        description: "For whoever sees the run's Knap; any other run is a 404.",
        security: scoped('read:knaps'),
        parameters: [runIdParameter],
        responses: {
          '200': { description: 'The run', headers: rateLimitHeaders, content: json('Run', examples.runExamples) },
          ...bearerErrors,
          '404': problem('No such run, or one whose Knap this client does not see'),
        },
      },
    },
    '/api/studio/runs/{run_id}/events': {
      get: {
        operationId: 'listRunEvents',
        tags: ['Runs'],
        summary: "A run's events, as JSON or as Server-Sent Events",
        description:
          "JSON `{\"events\": [...]}` in id order. With `Accept: text/event-stream`, Server-Sent Events (`id:`, `event:`, `data:`, a `retry:` hint) after `Last-Event-ID`: at once when something newer exists, else after waiting up to 10 s for it (an answer with no event is a comment only). API Gateway's HTTP API buffers a Lambda's answer, so each answer ends and the client reconnects with the last id it got; the answer with the terminal event is the last, and a resume from it is a 204. At most 2 streams of a client wait at once. Send the bearer token in `Authorization` (a browser's EventSource cannot: use a fetch-based reader).",
        security: scoped('read:knaps'),
        parameters: [runIdParameter, lastEventIdHeader],
        responses: {
          '200': {
            description: 'The events (JSON), or the next events of the stream',
            headers: rateLimitHeaders,
            content: runEventsContent,
          },
          '204': { description: 'Stream only: resumed at the terminal event; nothing more will come' },
          '400': problem('Last-Event-ID is not an event id'),
          ...bearerErrors,
          '404': problem('No such run, or one whose Knap this client does not see'),
          '429': {
            description: 'Over the client rate limit, or 2 streams of this client are waiting already',
            headers: { 'Retry-After': integerHeader('Seconds to wait') },
            content: json('Error'),
          },
        },
      },
      post: {
        operationId: 'reportRunEvent',
        tags: ['Runs'],
        summary: "The run's executor reports what it did",
        description:
          'The `report_url` of a `knap.run` message, with its `report_token` as the bearer: `running`, `progress` (`message`), `succeeded` (`output`, a JSON value of at most 64 KB) or `failed` (`error`, at most 1 KB); `message` (at most 1 KB) fits any. A `succeeded` or `failed` report ends the run. At most 100 reported events per run (a terminal report is always taken). No RateLimit headers: reports are metered per organization.',
        security: [{ reportToken: [] }],
        parameters: [runIdParameter],
        requestBody: {
          required: true,
          content: json('RunReport', {
            progress: { summary: 'Progress', value: { type: 'progress', message: 'Read 120 of 300 messages' } },
            succeeded: { summary: 'Done, with an output', value: { type: 'succeeded', output: { summary: '3 new leads' } } },
          }),
        },
        responses: {
          '201': {
            description: 'The stored event',
            content: json('RunEvent', { progress: { summary: 'A progress report, stored', value: RUN_EVENTS_EXAMPLE[3] } }),
          },
          ...jsonBodyErrors,
          '401': problem(
            "Missing, altered or expired report token, another run's, or any other credential (WWW-Authenticate: Bearer)",
          ),
          '409': problem('The run has ended, or has 100 reported events'),
          '429': {
            description: 'Too many reports of this run at once, or of the organization in this minute',
            headers: { 'Retry-After': integerHeader('Seconds to wait') },
            content: json('Error'),
          },
          '503': unavailable,
        },
      },
    },
    '/api/studio/meeting-transcriptions': {
      post: {
        operationId: 'reportMeeting',
        tags: ['Runs'],
        summary: 'A meeting was transcribed: run every active after-meeting Knap the client sees, once per meeting',
        security: scoped('write:knaps'),
        requestBody: { required: true, content: json('MeetingTranscription', examples.meetingTranscriptionExamples) },
        responses: {
          '202': {
            description:
              'The runs of this meeting, new or earlier, of up to 100 Knaps. With more than 100 such Knaps the rest are made ' +
              'after the answer (`runs_pending` says how many), each once per meeting as ever',
            headers: rateLimitHeaders,
            content: json('MeetingRuns', examples.meetingRunsExamples),
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
        security: scoped('read:knaps'),
        requestBody: { required: true, content: json('SchedulePreviewRequest', examples.schedulePreviewRequestExamples) },
        responses: {
          '200': {
            description: 'How the description reads',
            headers: rateLimitHeaders,
            content: json('SchedulePreview', examples.schedulePreviewExamples),
          },
          ...jsonBodyErrors,
          ...bearerErrors,
        },
      },
    },
    '/api/admin/clients': {
      get: {
        operationId: 'adminListClients',
        tags: ['Organization admins'],
        summary: "The organization's API clients, revoked ones included",
        description: 'Never a secret or its hash.',
        security: adminSecurity,
        responses: {
          '200': adminOk('The clients', 'AdminClientList', examples.adminClientListExamples),
          ...adminErrors,
        },
      },
      post: {
        operationId: 'adminCreateClient',
        tags: ['Organization admins'],
        summary: 'Create an API client; its secret is shown this once',
        description: 'The client may read and write Knaps (read:knaps write:knaps); audited as client.create.',
        security: adminSecurity,
        requestBody: adminBody('CreateClientRequest', examples.createClientExamples),
        responses: {
          '201': adminOk('The client and its `client_secret`, never shown again', 'NewAdminClient', examples.newClientExamples),
          ...adminBodyErrors,
          '403': adminProblem("The organization the token names cannot have API clients (the identity provider's setup)"),
          ...adminErrors,
        },
      },
    },
    '/api/admin/clients/{client_id}': {
      get: {
        operationId: 'adminGetClient',
        tags: ['Organization admins'],
        summary: "One API client, with its secrets' ids and dates and its public keys",
        description: 'Never a secret or its hash: each secret by its id, creation, last use and expiry.',
        security: adminSecurity,
        parameters: [clientId],
        responses: {
          '200': adminOk('The client', 'AdminClientDetail', examples.clientDetailExamples),
          '404': clientNotFound,
          ...adminErrors,
        },
      },
      patch: {
        operationId: 'adminUpdateClient',
        tags: ['Organization admins'],
        summary: "Change an API client's name, description or rate limit",
        description: 'Fields left out stay as they are; an empty body changes nothing. Audited as client.update.',
        security: adminSecurity,
        parameters: [clientId],
        requestBody: adminBody('UpdateClientRequest', examples.updateClientExamples),
        responses: {
          '200': adminOk('The client as changed', 'AdminClient', examples.updatedClientExamples),
          ...adminBodyErrors,
          '404': clientNotFound,
          '409': clientRevoked,
          ...adminErrors,
        },
      },
      delete: {
        operationId: 'adminRevokeClient',
        tags: ['Organization admins'],
        summary: 'Revoke an API client for good',
        description:
          'Every token of the client stops working at once; the client stays listed as `revoked`. Revoking a revoked client again changes nothing (204). Audited as client.revoke.',
        security: adminSecurity,
        parameters: [clientId],
        responses: {
          '204': { description: 'Revoked', headers: noStoreHeaders },
          '404': clientNotFound,
          ...adminErrors,
        },
      },
    },
    '/api/admin/clients/{client_id}/secrets': {
      post: {
        operationId: 'adminAddSecret',
        tags: ['Organization admins'],
        summary: 'A second live secret: rotation with overlap',
        description:
          'The body is optional. Both secrets work until one is retired; a third live secret is a 409 (expired secrets make room). Audited as client.add_secret.',
        security: adminSecurity,
        parameters: [clientId],
        requestBody: { required: false, content: json('AddSecretRequest', examples.addSecretExamples) },
        responses: {
          '201': adminOk('The new secret, shown this once', 'NewSecret', examples.newSecretExamples),
          ...adminBodyErrors,
          '404': clientNotFound,
          '409': adminProblem('Two live secrets already (retire one first), or the client is revoked'),
          ...adminErrors,
        },
      },
    },
    '/api/admin/clients/{client_id}/secrets/{secret_id}': {
      delete: {
        operationId: 'adminRemoveSecret',
        tags: ['Organization admins'],
        summary: 'Retire a secret: refused from now on',
        description:
          "Tokens issued with it live until they expire; refreshing them needs a live secret. The client's only live secret stays (409): regenerate replaces it. Audited as client.remove_secret.",
        security: adminSecurity,
        parameters: [clientId, pathId('secret_id', 'The secret id (`cs_...`)')],
        responses: {
          '204': { description: 'Retired', headers: noStoreHeaders },
          '404': adminProblem('No such client in the organization, or no such secret of it'),
          '409': adminProblem("The client's only live secret, or the client is revoked"),
          ...adminErrors,
        },
      },
    },
    '/api/admin/clients/{client_id}/jwks': {
      put: {
        operationId: 'adminSetJwks',
        tags: ['Organization admins'],
        summary: 'The public keys of private_key_jwt client authentication',
        description:
          "Replaces the client's keys: public JWKs only (a private member such as `d` is a 400), at most 5; RSA of 2048 bits or more, EC P-256, Ed25519. An empty list removes them. Audited as client.set_jwks.",
        security: adminSecurity,
        parameters: [clientId],
        requestBody: adminBody('ClientJwks', examples.jwksExamples),
        responses: {
          '200': adminOk('The keys as registered (public members only)', 'ClientJwks', examples.jwksExamples),
          ...adminBodyErrors,
          '404': clientNotFound,
          '409': clientRevoked,
          ...adminErrors,
        },
      },
    },
    '/api/admin/clients/{client_id}/secret': {
      post: {
        operationId: 'adminRegenerateSecret',
        tags: ['Organization admins'],
        summary: 'A new secret for an API client: every token of the client stops working',
        description: 'No body. Audited as client.regenerate_secret.',
        security: adminSecurity,
        parameters: [clientId],
        responses: {
          '200': adminOk('The new secret, shown this once', 'ClientSecret', examples.clientSecretExamples),
          '404': clientNotFound,
          '409': clientRevoked,
          ...adminErrors,
        },
      },
    },
    '/api/admin/webhooks': {
      get: {
        operationId: 'adminListWebhooks',
        tags: ['Organization admins'],
        summary: "The organization's webhook endpoints",
        description: 'Never a signing secret.',
        security: adminSecurity,
        responses: {
          '200': adminOk('The endpoints', 'WebhookEndpointList', examples.webhookListExamples),
          ...adminErrors,
        },
      },
      post: {
        operationId: 'adminAddWebhook',
        tags: ['Organization admins'],
        summary: 'Add a webhook endpoint; its signing secret is shown this once',
        description:
          "Every event of the organization (or those of `event_types`) is delivered to it. The URL rules are the admin CLI's: https, on a public address. At most the organization's endpoint quota (default 20): one more is a 409. Audited as webhook.create.",
        security: adminSecurity,
        requestBody: adminBody('AddWebhookRequest', examples.addWebhookExamples),
        responses: {
          '201': adminOk(
            'The endpoint and its `whsec_` secret, never shown again',
            'NewWebhookEndpoint',
            examples.newWebhookExamples,
          ),
          ...adminBodyErrors,
          ...adminErrors,
        },
      },
    },
    '/api/admin/webhooks/{endpoint_id}': {
      patch: {
        operationId: 'adminUpdateWebhook',
        tags: ['Organization admins'],
        summary: "Change a webhook endpoint's event types or description, or disable or enable it",
        description:
          'Fields left out stay as they are. `event_types` null: every event type; an unknown type is a 400. A disabled endpoint receives nothing until enabled again, except a test send. Audited as webhook.update.',
        security: adminSecurity,
        parameters: [pathId('endpoint_id', 'The webhook endpoint id (`we_...`)')],
        requestBody: adminBody('UpdateWebhookRequest', examples.updateWebhookExamples),
        responses: {
          '200': adminOk('The endpoint as changed', 'WebhookEndpoint', examples.updatedWebhookExamples),
          ...adminBodyErrors,
          '404': adminProblem(
            "No webhook endpoint with this id in the admin's organization (another organization's is never disclosed)",
          ),
          ...adminErrors,
        },
      },
      delete: {
        operationId: 'adminRemoveWebhook',
        tags: ['Organization admins'],
        summary: 'Remove a webhook endpoint',
        description: 'Audited as webhook.delete.',
        security: adminSecurity,
        parameters: [pathId('endpoint_id', 'The webhook endpoint id (`we_...`)')],
        responses: {
          '204': { description: 'Removed: no delivery goes to it any more', headers: noStoreHeaders },
          '404': adminProblem(
            "No webhook endpoint with this id in the admin's organization (another organization's is never disclosed)",
          ),
          ...adminErrors,
        },
      },
    },
    '/api/admin/webhooks/{endpoint_id}/secret': {
      post: {
        operationId: 'adminRotateWebhookSecret',
        tags: ['Organization admins'],
        summary: "Rotate a webhook endpoint's signing secret; the old one keeps signing for 24 hours",
        description:
          'No body. For 24 hours every message to the endpoint carries two `v1,` signatures in `webhook-signature`, by the new secret and by the one it replaces, so a receiver verifies with either while it switches over; then only the new one. Rotating again within the 24 hours drops the oldest secret. Audited as webhook.rotate_secret.',
        security: adminSecurity,
        parameters: [pathId('endpoint_id', 'The webhook endpoint id (`we_...`)')],
        responses: {
          '200': adminOk('The new secret, shown this once', 'WebhookSecret', examples.webhookSecretExamples),
          '404': adminProblem(
            "No webhook endpoint with this id in the admin's organization (another organization's is never disclosed)",
          ),
          ...adminErrors,
        },
      },
    },
    '/api/admin/webhooks/{endpoint_id}/test': {
      post: {
        operationId: 'adminTestWebhook',
        tags: ['Organization admins'],
        summary: 'Send a signed webhook.test message to an endpoint now',
        description:
          'No body. One attempt, not retried, also to a disabled endpoint: `{"type": "webhook.test", "timestamp", "data": {"endpoint_id"}}` with its own `webhook-id` (`msg_...`), signed as every message is (both secrets during a rotation). Answers 200 with what the attempt did, whatever the endpoint answered; it gives up within 10 s, and before the request would time out. Audited as webhook.test.',
        security: adminSecurity,
        parameters: [pathId('endpoint_id', 'The webhook endpoint id (`we_...`)')],
        responses: {
          '200': adminOk('What the attempt did', 'WebhookTestResult', examples.webhookTestExamples),
          '404': adminProblem(
            "No webhook endpoint with this id in the admin's organization (another organization's is never disclosed)",
          ),
          ...adminErrors,
        },
      },
    },
    '/api/admin/runs': {
      get: {
        operationId: 'adminListRuns',
        tags: ['Organization admins'],
        summary: "The organization's runs, newest first, with their Knap's name and what each delivery attempt did",
        description:
          "Filters combine (all must hold). `knap_uuid` reads that Knap's runs only. `status` and `outcome` are applied after reading: a page reads at most 4 x `limit` runs, so a filtered page may hold fewer than `limit` runs, even none, and still have a `next_cursor`: follow it until it is null.",
        security: adminSecurity,
        parameters: [
          ...adminPageParameters,
          {
            name: 'knap_uuid',
            in: 'query',
            schema: { type: 'string', format: 'uuid' },
            description: "Only this Knap's runs (a Knap of another organization lists none)",
          },
          {
            name: 'status',
            in: 'query',
            schema: { type: 'string', enum: [...RUN_STATUSES] },
            description: 'Only runs with this delivery status',
          },
          {
            name: 'outcome',
            in: 'query',
            schema: { type: 'string', enum: [...RUN_OUTCOMES] },
            description: 'Only runs whose executor reported this outcome',
          },
        ],
        responses: {
          '200': adminOk('One page of runs', 'AdminRunPage', examples.adminRunPageExamples),
          '400': adminProblem('Invalid limit, cursor, knap_uuid, status or outcome'),
          ...adminErrors,
        },
      },
    },
    '/api/admin/runs/{run_id}': {
      get: {
        operationId: 'adminGetRun',
        tags: ['Organization admins'],
        summary: 'One run of the organization, with its delivery attempts and its events',
        description:
          "Any run of the admin's organization, whatever its Knap (a deleted Knap's too). `events` are those of GET .../events, in id order.",
        security: adminSecurity,
        parameters: [adminRunId],
        responses: {
          '200': adminOk('The run', 'AdminRunDetail', examples.adminRunDetailExamples),
          '404': adminRunNotFound,
          ...adminErrors,
        },
      },
    },
    '/api/admin/runs/{run_id}/events': {
      get: {
        operationId: 'adminListRunEvents',
        tags: ['Organization admins'],
        summary: "A run's events, as JSON or as Server-Sent Events",
        description:
          'The answers of GET /api/studio/runs/{run_id}/events, for any run of the admin\'s organization: JSON `{"events": [...]}` in id order, or with `Accept: text/event-stream` Server-Sent Events after `Last-Event-ID` (at once when something newer exists, else after waiting up to 10 s; the answer with the terminal event is the last, a resume from it is a 204). At most 2 streams of an admin wait at once. The console follows a live run this way, with a fetch-based reader (EventSource cannot send the admin\'s token).',
        security: adminSecurity,
        parameters: [adminRunId, lastEventIdHeader],
        responses: {
          '200': {
            description: 'The events (JSON), or the next events of the stream',
            headers: noStoreHeaders,
            content: runEventsContent,
          },
          '204': {
            description: 'Stream only: resumed at the terminal event; nothing more will come',
            headers: noStoreHeaders,
          },
          '400': adminProblem('Last-Event-ID is not an event id'),
          '404': adminRunNotFound,
          ...adminErrors,
          '429': {
            description: "2 streams of this admin are waiting already (or the admin routes' throttle of the deployed stack)",
            headers: { 'Retry-After': integerHeader('Seconds to wait') },
            content: json('Error'),
          },
        },
      },
    },
    '/api/admin/webhooks/{endpoint_id}/attempts': {
      get: {
        operationId: 'adminListWebhookAttempts',
        tags: ['Organization admins'],
        summary: "An endpoint's recent delivery attempts, newest first, with the endpoint and its failure streak",
        description:
          '`limit` counts messages (deliveries to this endpoint), each with its recorded attempts (its last 8), newest first; messages come in the order of their last attempt, newest first, so one still retried may move to the front between pages. Deliveries last attempted before this listing existed are not listed. They expire with their run or message (90 days).',
        security: adminSecurity,
        parameters: [pathId('endpoint_id', 'The webhook endpoint id (`we_...`)'), ...adminPageParameters],
        responses: {
          '200': adminOk('One page of attempts', 'WebhookAttemptPage', {
            page: {
              summary: 'A failed attempt, then its successful retry',
              value: {
                endpoint: {
                  endpoint_id: 'we_0123456789abcdef01234567',
                  url: 'https://hooks.example.com/knap',
                  created_at: '2026-11-20T09:00:00Z',
                  event_types: null,
                  description: 'Production receiver',
                  disabled: false,
                  disabled_at: null,
                  fail_streak: 0,
                  fail_streak_since: null,
                },
                attempts: [
                  {
                    at: '2026-11-23T10:00:06Z',
                    message_id: 'run_0123456789abcdef',
                    run_id: 'run_0123456789abcdef',
                    type: 'knap.run',
                    attempt: 2,
                    status: 'delivered',
                    error: null,
                    response_status: 200,
                    duration_ms: 84,
                    response_body: 'ok',
                    delivery_status: 'delivered',
                  },
                  {
                    at: '2026-11-23T10:00:01Z',
                    message_id: 'run_0123456789abcdef',
                    run_id: 'run_0123456789abcdef',
                    type: 'knap.run',
                    attempt: 1,
                    status: 'failed',
                    error: 'HTTP 500 from https://hooks.example.com',
                    response_status: 500,
                    duration_ms: 120,
                    response_body: '{"error":"database unavailable"}',
                    delivery_status: 'delivered',
                  },
                ],
                next_cursor: null,
              },
            },
          }),
          '400': adminProblem('Invalid limit or cursor'),
          '404': adminProblem(
            "No webhook endpoint with this id in the admin's organization (another organization's is never disclosed)",
          ),
          ...adminErrors,
        },
      },
    },
    '/api/admin/webhooks/{endpoint_id}/recover': {
      post: {
        operationId: 'adminRecoverWebhook',
        tags: ['Organization admins'],
        summary: 'Send an endpoint again every knap.run whose delivery to it finally failed since a time',
        description:
          'Each such run is sent to this endpoint alone again, with the same webhook-id (the run id), a page of runs at a time through the delivery queue: the answer comes before the sends. `since` is taken to the second. Audited as webhook.recover.',
        security: adminSecurity,
        parameters: [pathId('endpoint_id', 'The webhook endpoint id (`we_...`)')],
        requestBody: adminBody('RecoverWebhookRequest', {
          sinceMonday: {
            summary: 'Everything that failed since the receiver went down',
            value: { since: '2026-11-23T08:00:00Z' },
          },
        }),
        responses: {
          '202': adminOk('Accepted: the failed runs are being sent again', 'WebhookRecovery', {
            accepted: {
              summary: 'Recovery under way',
              value: { endpoint_id: 'we_0123456789abcdef01234567', since: '2026-11-23T08:00:00Z' },
            },
          }),
          ...adminBodyErrors,
          '404': adminProblem(
            "No webhook endpoint with this id in the admin's organization (another organization's is never disclosed)",
          ),
          ...adminErrors,
        },
      },
    },
    '/api/admin/runs/{run_id}/redeliver': {
      post: {
        operationId: 'adminRedeliverRun',
        tags: ['Organization admins'],
        summary: 'Deliver a run again, to every endpoint, with the same webhook-id',
        description: 'No body. Any run of the organization, whatever its status. Audited as run.redeliver.',
        security: adminSecurity,
        parameters: [adminRunId],
        responses: {
          '202': adminOk('Accepted: the run is pending again', 'RunRedelivery', examples.redeliveryExamples),
          '404': adminRunNotFound,
          ...adminErrors,
        },
      },
    },
    '/api/admin/knaps': {
      get: {
        operationId: 'adminListKnaps',
        tags: ['Organization admins'],
        summary: 'Every Knap of the organization, private ones included',
        description:
          'Knapsack\'s "owner or organization admin": each Knap with `schedule_summary` (the schedule said back in English, as the preview\'s `description`, or null) and `last_run` (its newest run in brief, or null). By uuid.',
        security: adminSecurity,
        parameters: adminPageParameters,
        responses: {
          '200': adminOk('One page of Knaps', 'AdminKnapPage', examples.adminKnapPageExamples),
          ...adminPageErrors,
          ...adminErrors,
        },
      },
    },
    '/api/admin/knaps/{uuid}': {
      get: {
        operationId: 'adminGetKnap',
        tags: ['Organization admins'],
        summary: 'One Knap of the organization',
        security: adminSecurity,
        parameters: [knapUuid],
        responses: {
          '200': {
            ...adminOk('The Knap', 'AdminKnap', examples.adminKnapExamples),
            headers: { ...noStoreHeaders, ...etagHeader },
          },
          '404': adminKnapNotFound,
          ...adminErrors,
        },
      },
      patch: {
        operationId: 'adminUpdateKnap',
        tags: ['Organization admins'],
        summary: 'Change a Knap of the organization: name, on/off, active_by_default, tool_metadata',
        description:
          "A JSON merge patch of `name`, `is_active`, `active_by_default` and `tool_metadata` (which merges key by key); any other member is a 400. Switched off (`is_active: false`), the Knap has no next run and does not run. Audited as knap.update with the Knap's uuid.",
        security: adminSecurity,
        parameters: [knapUuid, ifMatch],
        requestBody: adminBody('AdminKnapPatch', examples.adminKnapPatchExamples),
        responses: {
          '200': {
            ...adminOk('The changed Knap', 'AdminKnap', examples.adminKnapExamples),
            headers: { ...noStoreHeaders, ...etagHeader },
          },
          ...adminBodyErrors,
          '404': adminKnapNotFound,
          '409': adminProblem('The Knap is being changed by other requests; retry (Retry-After)'),
          '412': adminProblem('The Knap changed since the ETag in If-Match'),
          ...adminErrors,
        },
      },
      delete: {
        operationId: 'adminDeleteKnap',
        tags: ['Organization admins'],
        summary: 'Delete a Knap of the organization',
        description:
          "Gone from every read and listing, and it never runs again. Audited as knap.delete with the Knap's uuid. An If-Match header is honoured as on PATCH (412 when stale).",
        security: adminSecurity,
        parameters: [knapUuid],
        responses: {
          '200': adminOk('Deleted', 'KnapDeleted', examples.knapDeletedExamples),
          '404': adminKnapNotFound,
          '409': adminProblem('The Knap is being changed by other requests; retry (Retry-After)'),
          '412': adminProblem('The Knap changed since the ETag in If-Match'),
          ...adminErrors,
        },
      },
    },
    '/api/admin/audit-events': {
      get: {
        operationId: 'adminListAuditEvents',
        tags: ['Organization admins'],
        summary: "The organization's audit log, newest first",
        description:
          'Every change to API clients and webhook endpoints, by an admin or the CLI, every redelivery, and admin sign-ins (and failed ones); kept at least a year. Never a secret.',
        security: adminSecurity,
        parameters: adminPageParameters,
        responses: {
          '200': adminOk('One page of events', 'AuditPage', examples.auditPageExamples),
          ...adminPageErrors,
          ...adminErrors,
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
    '/console': {
      get: {
        operationId: 'getAdminConsole',
        tags: ['Organization admins'],
        summary: 'The admin console (HTML): organization admins sign in with the admin issuer and manage their organization',
        description:
          'A page, not an operation for programs: it signs in in the browser (authorization code + PKCE) and calls the ' +
          "`/api/admin` routes with the admin's token. With `asset=app.js` or `asset=app.css` it answers its script or " +
          'style sheet.',
        security: [{}],
        parameters: [
          {
            name: 'asset',
            in: 'query',
            required: false,
            description: "One of the page's files",
            schema: { type: 'string', enum: ['app.js', 'app.css'] },
          },
        ],
        responses: {
          '200': {
            description: 'The page (or the file asked for)',
            content: { 'text/html': { schema: { type: 'string' } } },
          },
          '404': problem('No such file'),
          '413': ignoredBodyTooLarge,
        },
      },
    },
  }),
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
              'read:knaps': 'Read Knaps, their runs and schedule previews',
              'write:knaps': 'Create, change, delete and run Knaps',
            },
          },
        },
      },
      clientBasic: { type: 'http', scheme: 'basic', description: 'client_secret_basic: client id and secret' },
      reportToken: {
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'knap_rpt_...',
        description:
          "A run's report token, from its knap.run message (`data.run.report_token`): good only for that run's report URL, for 24 hours from the attempt that carried it and never after the run ended. Every other route refuses it (401); introspection answers it inactive.",
      },
      adminOpenIdConnect: {
        type: 'openIdConnect',
        description:
          "An organization admin's access token from the admin issuer (OpenID Connect, authorization code + PKCE): the local provider under /oidc with `npm start`, the stack's Cognito user pool, or the issuer named by `adminIssuer`. Only the admin routes take it, and they take nothing else.",
        openIdConnectUrl: `${adminIssuer.replace(/\/+$/, '')}/.well-known/openid-configuration`,
      },
    },
    responses: {
      MethodNotAllowed: {
        description:
          'A method this path has no route for. The local server (`npm start`) answers 405 with `Allow` naming the methods the path has; deployed, API Gateway routes no such request and answers 404 `{"message": "Not Found"}`.',
        headers: {
          Allow: { description: "The path's methods, e.g. `GET, POST`", schema: { type: 'string' } },
        },
        content: json('Error'),
      },
    },
    // Pipes with custom checks (lengths in characters, storable JSON) are enforced by the API
    // but have no JSON Schema form; they are left out here rather than guessed.
    schemas: withoutRequestDefaults(
      toJsonSchemaDefs(componentSchemas, {
        target: 'draft-2020-12',
        errorMode: 'ignore',
        typeMode: 'ignore',
        overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
      }),
    ),
  },
});

const PACKAGE_VERSION: string = packageJson.version;

/**
 * The schemas of request bodies, without `default`: code generators (openapi-typescript with
 * its default settings) read a member with a default as always present, so `POST {name}`
 * would not compile. What the API assumes for a missing member is said in its description;
 * in a PATCH or PUT a missing member keeps its value.
 */
const REQUEST_SCHEMAS = new Set([
  'CreateKnap',
  'KnapPatch',
  'AdminKnapPatch',
  'SchedulePreviewRequest',
  'StartRun',
  'MeetingTranscription',
  'RunReport',
  'CreateClientRequest',
  'UpdateClientRequest',
  'AddWebhookRequest',
  'TokenForm',
  'TokenOperationForm',
]);

const withoutDefaults = (schema: unknown): unknown => {
  if (Array.isArray(schema)) return schema.map(withoutDefaults);
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(schema)) {
    if (name !== 'default') copy[name] = withoutDefaults(value);
  }
  if ('default' in schema) {
    const fallback = `When absent: ${JSON.stringify((schema as { default: unknown }).default)}.`;
    copy.description = typeof copy.description === 'string' ? `${copy.description}. ${fallback}` : fallback;
  }
  return copy;
};

const withoutRequestDefaults = <T extends Record<string, unknown>>(schemas: T): T =>
  Object.fromEntries(
    Object.entries(schemas).map(([name, schema]) => [name, REQUEST_SCHEMAS.has(name) ? withoutDefaults(schema) : schema]),
  ) as T;
