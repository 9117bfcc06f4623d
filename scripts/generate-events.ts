/**
 * Writes events/<function id>/<status>-<case>.json: API Gateway HTTP API (payload 2.0)
 * events shaped exactly as AWS sends them, with the credentials of scripts/fixtures.ts.
 *
 *   npx tsx scripts/generate-events.ts     (rewrites every file; edit CASES below, not the JSON)
 *
 * What AWS does, and these files copy:
 * - header names are lowercased; repeated headers are joined with commas;
 * - the body is a string; it is base64-encoded (isBase64Encoded: true) unless the content
 *   type is text/*, application/json, application/xml or application/javascript, so an
 *   OAuth form (application/x-www-form-urlencoded) arrives base64-encoded;
 * - no body: no `body` key; no query: rawQueryString "" and no queryStringParameters;
 * - requestContext.http carries method, path, protocol, sourceIp and userAgent, and the
 *   routeKey is the matched route (`POST /api/oauth/token`);
 * - on a route with path parameters, rawPath and requestContext.http.path are the concrete
 *   path (`/api/studio/knap-tools/0b6f...`), the routeKey stays the template
 *   (`GET /api/studio/knap-tools/{uuid}`), and pathParameters holds the values, decoded.
 *
 * The admin routes' events (/api/admin/*) carry the fixture admins' tokens, JWTs signed with
 * the fixture key (scripts/fixtures.ts), as a console sends them: `authorization: Bearer <jwt>`.
 *
 * And the events of the jobs (functions/jobs.ts), named for what they are rather than for a
 * status (`scheduled-event.json`, `sqs-batch.json`):
 * - dispatch-runs: the EventBridge Scheduled Event its every-minute rule sends
 *   (`version: "0"`, `detail-type: "Scheduled Event"`, `source: "aws.events"`, the rule's
 *   ARN in `resources`, `detail: {}`);
 * - deliver-runs: an SQS batch (`Records[]`, each with messageId, receiptHandle, the body
 *   `{"run_id": ...}` as the producers send it, its md5OfBody, attributes, eventSourceARN).
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { APIGatewayProxyEventV2, ScheduledEvent, SQSEvent, SQSRecord } from 'aws-lambda';
import { type JobDefinition, jobs } from '../functions/jobs.js';
import { fillPath, matchPath, type RouteDefinition, routes } from '../functions/routes.js';
import { clfTime, isTextContentType } from '../local/http-adapter.js';
import { secretIdOf } from '../shared/domain/clients.js';
import { hashCredential } from '../shared/domain/credentials.js';
import { sealReportTokenWith } from '../shared/domain/report-tokens.js';
import { tokenKey } from '../shared/domain/sealed-tokens.js';
import {
  ADMIN_TOKENS,
  CLIENTS,
  FIXTURE_KNAPS,
  FIXTURE_ORG,
  FIXTURE_RUNS,
  FIXTURE_WEBHOOKS,
  INVOKE_TOKEN_KEY,
  OTHER_ORG,
  TOKENS,
} from './fixtures.js';
import { EVENTS_DIR, md5Of } from './invoke-core.js';

const API_ID = 'k7n2p4x9qa';
const REGION = 'eu-west-1';
const DOMAIN = `${API_ID}.execute-api.${REGION}.amazonaws.com`;
const SOURCE_IP = '203.0.113.24';
const USER_AGENT = 'acme-integration/2.3 (+https://acme.example)';
/** 2026-11-23T09:40:00Z; each case gets its own second after it. */
const BASE_TIME = Date.UTC(2026, 10, 23, 9, 40, 0);

interface Case {
  /** `<status>-<what>`: the file name without `.json`. */
  name: string;
  /** The route's path parameters (`{uuid}` -> params.uuid): required exactly when its path has some. */
  params?: Record<string, string>;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  /** Sent as is (a string), or as a form (an object, for the token endpoint) or JSON (for the others). */
  body?: string | Record<string, unknown>;
  /** The body's content type; default application/json (a form on the token endpoint). */
  contentType?: string;
}

const form = (fields: Record<string, string>): string => new URLSearchParams(fields).toString();
const basic = (id: string, secret: string): string =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
const bearer = (token: string): string => `Bearer ${token}`;

const main = CLIENTS.main;
const postCredentials = { client_id: main.clientId, client_secret: main.secret };
const withAccess = { authorization: bearer(TOKENS.access.token) };
/** Path parameters naming a fixture run. */
const runParams = (fixture: { run: { run_id: string } }) => ({ run_id: fixture.run.run_id });
/** The report token the knap.run message of FIXTURE_RUNS.reporting carried, good until 2100. */
const REPORT_TOKEN = sealReportTokenWith(
  { runId: FIXTURE_RUNS.reporting.run.run_id, orgName: FIXTURE_ORG, expiresAt: Date.UTC(2100, 0, 1) / 1000 },
  tokenKey(Buffer.from(INVOKE_TOKEN_KEY, 'utf8')),
);
/** Path parameters naming a fixture Knap. */
const knapParams = (fixture: { knap: { uuid: string } }) => ({ uuid: fixture.knap.uuid });
/** A well-formed uuid no Knap has. */
const NO_SUCH_KNAP = '5d0c4a9e-7b21-4f3a-8e6d-000000000404';
/** What a browser asks for: a page, a script, a style sheet. */
const ACCEPT_HTML = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const ACCEPT_ANY = '*/*';
const ACCEPT_CSS = 'text/css,*/*;q=0.1';
/** The meeting that events/report-meeting reports (twice: the second report finds the same runs). */
const MEETING_ID = 'zoom-83920475561-2026-11-23';

const CASES: Record<string, Case[]> = {
  token: [
    { name: '200-client-credentials', body: { grant_type: 'client_credentials', ...postCredentials } },
    {
      name: '200-client-credentials-basic',
      headers: { authorization: basic(main.clientId, main.secret) },
      body: { grant_type: 'client_credentials' },
    },
    { name: '200-narrowed-scope', body: { grant_type: 'client_credentials', scope: 'read:knaps', ...postCredentials } },
    { name: '200-refresh-token', body: { grant_type: 'refresh_token', refresh_token: TOKENS.refresh.token, ...postCredentials } },
    {
      name: '400-unsupported-grant',
      body: { grant_type: 'password', username: 'ada', password: 'lovelace', ...postCredentials },
    },
    { name: '400-missing-grant-type', body: { ...postCredentials } },
    { name: '400-missing-client-secret', body: { grant_type: 'client_credentials', client_id: main.clientId } },
    { name: '400-invalid-scope', body: { grant_type: 'client_credentials', scope: 'read:knaps admin', ...postCredentials } },
    {
      name: '401-wrong-secret',
      body: { grant_type: 'client_credentials', client_id: main.clientId, client_secret: 'knap_cs_not-the-right-secret' },
    },
    {
      name: '401-unknown-client',
      body: {
        grant_type: 'client_credentials',
        client_id: 'knap_ci_00000000000000000000000000000000',
        client_secret: main.secret,
      },
    },
    {
      name: '401-revoked-client',
      body: { grant_type: 'client_credentials', client_id: CLIENTS.revoked.clientId, client_secret: CLIENTS.revoked.secret },
    },
    {
      name: '401-access-token-as-refresh-token',
      body: { grant_type: 'refresh_token', refresh_token: TOKENS.access.token, ...postCredentials },
    },
    {
      name: '429-rate-limited',
      body: { grant_type: 'client_credentials', client_id: CLIENTS.limited.clientId, client_secret: CLIENTS.limited.secret },
    },
  ],
  'create-knap': [
    {
      name: '201-manual',
      headers: { authorization: bearer(TOKENS.access.token) },
      body: {
        name: 'Summarize new support tickets',
        schedule_type: 'manual',
        visibility: 'private',
        tool_metadata: { action_description: 'Summarize each new ticket and post it to #support' },
      },
    },
    {
      name: '201-scheduled',
      headers: { authorization: bearer(TOKENS.access.token) },
      body: {
        name: 'Weekly pipeline digest',
        schedule_type: 'scheduled',
        visibility: FIXTURE_ORG,
        is_active: true,
        active_by_default: false,
        tool_metadata: {
          action_description: 'Email the sales pipeline summary',
          schedule_description: 'every Monday at 9am',
          timezone: 'Europe/Berlin',
        },
      },
    },
    {
      name: '201-post-meeting-public',
      headers: { authorization: bearer(TOKENS.access.token) },
      body: { name: 'Meeting notes to CRM', schedule_type: 'post_meeting_transcription', visibility: 'public' },
    },
    {
      name: '400-empty-name',
      headers: { authorization: bearer(TOKENS.access.token) },
      body: { name: '', schedule_type: 'manual' },
    },
    {
      name: '400-malformed-json',
      headers: { authorization: bearer(TOKENS.access.token) },
      body: '{"name": "Unfinished", "schedule_type": ',
      contentType: 'application/json',
    },
    {
      name: '400-unknown-schedule-type',
      headers: { authorization: bearer(TOKENS.access.token) },
      body: { name: 'Hourly thing', schedule_type: 'hourly' },
    },
    {
      name: '400-impossible-schedule',
      headers: { authorization: bearer(TOKENS.access.token) },
      body: {
        name: 'Leap day report',
        schedule_type: 'scheduled',
        tool_metadata: { schedule_description: 'every February 30 at 25:00' },
      },
    },
    {
      name: '400-other-org-visibility',
      headers: { authorization: bearer(TOKENS.access.token) },
      body: { name: 'Shared with strangers', visibility: OTHER_ORG },
    },
    { name: '401-missing-token', body: { name: 'No credentials', schedule_type: 'manual' } },
    {
      name: '401-unknown-token',
      headers: { authorization: bearer('knap_at_this-token-was-never-issued-000000000000000') },
      body: { name: 'Unknown token', schedule_type: 'manual' },
    },
    {
      name: '401-expired-token',
      headers: { authorization: bearer(TOKENS.expired.token) },
      body: { name: 'Expired token', schedule_type: 'manual' },
    },
    {
      name: '401-refresh-token-as-bearer',
      headers: { authorization: bearer(TOKENS.refresh.token) },
      body: { name: 'Refresh token is not an access token', schedule_type: 'manual' },
    },
    {
      name: '403-read-only-token',
      headers: { authorization: bearer(TOKENS.readOnly.token) },
      body: { name: 'Read-only token cannot create', schedule_type: 'manual' },
    },
  ],
  'list-knaps': [
    { name: '200-list', headers: { authorization: bearer(TOKENS.access.token) } },
    { name: '200-first-page', headers: { authorization: bearer(TOKENS.access.token) }, query: { limit: '1' } },
    { name: '200-read-only-token', headers: { authorization: bearer(TOKENS.readOnly.token) } },
    { name: '400-invalid-limit', headers: { authorization: bearer(TOKENS.access.token) }, query: { limit: '0' } },
    { name: '400-invalid-cursor', headers: { authorization: bearer(TOKENS.access.token) }, query: { cursor: 'not-a-cursor' } },
    { name: '401-missing-token' },
    { name: '401-malformed-authorization', headers: { authorization: `Token ${TOKENS.access.token}` } },
    { name: '401-revoked-client', headers: { authorization: bearer(TOKENS.revoked.token) } },
    { name: '429-rate-limited', headers: { authorization: bearer(TOKENS.limited.token) } },
  ],
  'get-knap': [
    { name: '200-own-private', params: knapParams(FIXTURE_KNAPS.ownPrivate), headers: withAccess },
    { name: '200-shared-by-colleague', params: knapParams(FIXTURE_KNAPS.colleagueShared), headers: withAccess },
    {
      name: '200-read-only-token',
      params: knapParams(FIXTURE_KNAPS.ownShared),
      headers: { authorization: bearer(TOKENS.readOnly.token) },
    },
    { name: '401-missing-token', params: knapParams(FIXTURE_KNAPS.ownPrivate) },
    { name: '404-other-org', params: knapParams(FIXTURE_KNAPS.otherOrg), headers: withAccess },
    { name: '404-colleague-private', params: knapParams(FIXTURE_KNAPS.colleaguePrivate), headers: withAccess },
    { name: '404-no-such-knap', params: { uuid: NO_SUCH_KNAP }, headers: withAccess },
    { name: '404-not-a-uuid', params: { uuid: 'not-a-uuid' }, headers: withAccess },
  ],
  'update-knap': [
    {
      name: '200-rename',
      params: knapParams(FIXTURE_KNAPS.ownPrivate),
      // The ETag a GET gave: fixture Knaps are at version 1.
      headers: { ...withAccess, 'if-match': '"1"' },
      body: { name: 'Summarize and triage support tickets' },
    },
    {
      name: '200-merge-patch',
      params: knapParams(FIXTURE_KNAPS.ownShared),
      headers: withAccess,
      // RFC 7396: objects merge (action_description is kept), null removes a key.
      body: {
        schedule_type: 'scheduled',
        active_by_default: false,
        tool_metadata: { schedule_description: 'every Monday at 9am', timezone: 'Europe/Berlin' },
      },
      contentType: 'application/merge-patch+json',
    },
    { name: '400-empty-name', params: knapParams(FIXTURE_KNAPS.ownPrivate), headers: withAccess, body: { name: '' } },
    {
      name: '400-scheduled-without-schedule',
      params: knapParams(FIXTURE_KNAPS.ownPrivate),
      headers: withAccess,
      body: { schedule_type: 'scheduled' },
    },
    { name: '401-missing-token', params: knapParams(FIXTURE_KNAPS.ownPrivate), body: { name: 'No credentials' } },
    {
      name: '403-colleague-knap',
      params: knapParams(FIXTURE_KNAPS.colleagueShared),
      headers: withAccess,
      body: { name: 'Not mine to rename' },
    },
    {
      name: '403-read-only-token',
      params: knapParams(FIXTURE_KNAPS.ownPrivate),
      headers: { authorization: bearer(TOKENS.readOnly.token) },
      body: { name: 'Read-only token cannot change' },
    },
    {
      name: '404-other-org',
      params: knapParams(FIXTURE_KNAPS.otherOrg),
      headers: withAccess,
      body: { name: 'Not even visible' },
    },
    {
      name: '404-colleague-private',
      params: knapParams(FIXTURE_KNAPS.colleaguePrivate),
      headers: withAccess,
      body: { name: 'Not even visible' },
    },
    {
      name: '412-stale-if-match',
      params: knapParams(FIXTURE_KNAPS.changedSinceRead),
      // Read at version 1; it has been changed since (version 2).
      headers: { ...withAccess, 'if-match': '"1"' },
      body: { name: 'Lost update' },
    },
  ],
  'put-knap': [
    {
      // Knapsack's update: only the fields given change; read-only members sent back as they were are ignored.
      name: '200-knapsack-update',
      params: knapParams(FIXTURE_KNAPS.ownShared),
      headers: withAccess,
      body: { name: 'Updated by PUT', is_active: true, tool_metadata: { action_description: 'Changed by PUT' } },
    },
    {
      name: '400-visibility-changed',
      params: knapParams(FIXTURE_KNAPS.ownPrivate),
      headers: withAccess,
      body: { visibility: 'public' },
    },
    {
      name: '400-misspelt-field',
      params: knapParams(FIXTURE_KNAPS.ownPrivate),
      headers: withAccess,
      body: { shedule_type: 'scheduled' },
    },
    { name: '401-missing-token', params: knapParams(FIXTURE_KNAPS.ownPrivate), body: { name: 'No credentials' } },
    {
      name: '403-colleague-knap',
      params: knapParams(FIXTURE_KNAPS.colleagueShared),
      headers: withAccess,
      body: { name: 'Not mine to rename' },
    },
    { name: '404-other-org', params: knapParams(FIXTURE_KNAPS.otherOrg), headers: withAccess, body: { name: 'Not visible' } },
    {
      name: '412-stale-if-match',
      params: knapParams(FIXTURE_KNAPS.changedSinceRead),
      headers: { ...withAccess, 'if-match': '"1"' },
      body: { name: 'Lost update' },
    },
  ],
  'delete-knap': [
    { name: '200-own', params: knapParams(FIXTURE_KNAPS.toDelete), headers: { ...withAccess, 'if-match': '"1"' } },
    { name: '401-missing-token', params: knapParams(FIXTURE_KNAPS.toDelete) },
    { name: '403-colleague-knap', params: knapParams(FIXTURE_KNAPS.colleagueShared), headers: withAccess },
    {
      name: '403-read-only-token',
      params: knapParams(FIXTURE_KNAPS.toDelete),
      headers: { authorization: bearer(TOKENS.readOnly.token) },
    },
    { name: '404-other-org', params: knapParams(FIXTURE_KNAPS.otherOrg), headers: withAccess },
    { name: '404-no-such-knap', params: { uuid: NO_SUCH_KNAP }, headers: withAccess },
    {
      name: '412-stale-if-match',
      params: knapParams(FIXTURE_KNAPS.changedSinceRead),
      headers: { ...withAccess, 'if-match': '"1"' },
    },
  ],
  'preview-schedule': [
    {
      name: '200-weekdays',
      headers: withAccess,
      body: { schedule_description: 'every weekday at 9am', timezone: 'Europe/Berlin', count: 3 },
    },
    {
      name: '200-read-only-token',
      headers: { authorization: bearer(TOKENS.readOnly.token) },
      body: { schedule_description: 'first Monday of every month at 8:30am' },
    },
    { name: '400-unreadable', headers: withAccess, body: { schedule_description: 'whenever the moon is full-ish' } },
    { name: '400-missing-description', headers: withAccess, body: { timezone: 'Europe/Berlin' } },
    { name: '401-missing-token', body: { schedule_description: 'every weekday at 9am' } },
  ],
  'revoke-token': [
    // An unknown token: the fixture tokens stay, for the other events.
    { name: '200-unknown-token', body: { token: 'knap_at_this-token-was-never-issued-000000000000000', ...postCredentials } },
    {
      name: '200-basic-auth',
      headers: { authorization: basic(main.clientId, main.secret) },
      body: { token: 'knap_rt_this-token-was-never-issued-000000000000000', token_type_hint: 'refresh_token' },
    },
    { name: '400-missing-token', body: { ...postCredentials } },
    { name: '401-wrong-secret', body: { token: TOKENS.access.token, client_id: main.clientId, client_secret: 'knap_cs_wrong' } },
  ],
  'introspect-token': [
    { name: '200-active', body: { token: TOKENS.access.token, ...postCredentials } },
    { name: '200-inactive-expired', body: { token: TOKENS.expired.token, ...postCredentials } },
    { name: '200-inactive-unknown', body: { token: 'not-a-token', ...postCredentials } },
    { name: '400-missing-token', body: { ...postCredentials } },
    { name: '401-wrong-secret', body: { token: TOKENS.access.token, client_id: main.clientId, client_secret: 'knap_cs_wrong' } },
  ],
  'oauth-metadata': [{ name: '200-metadata' }],
  openapi: [{ name: '200-document' }],
  docs: [{ name: '200-page', headers: { accept: ACCEPT_HTML } }],
  'docs-asset': [
    { name: '200-script', params: { file: 'swagger-ui-bundle.js' }, headers: { accept: ACCEPT_ANY } },
    { name: '200-stylesheet', params: { file: 'swagger-ui.css' }, headers: { accept: ACCEPT_CSS } },
    // Browser developer tools ask for the bundle's source map, which is not served.
    { name: '404-unknown-file', params: { file: 'swagger-ui-bundle.js.map' }, headers: { accept: ACCEPT_ANY } },
  ],
  // Cases of routes added later come last, so that the events before them keep their times.
  'start-run': [
    { name: '202-manual', params: knapParams(FIXTURE_KNAPS.ownPrivate), headers: withAccess },
    // Any Knap the caller sees may be run, not only its own.
    { name: '202-shared-by-colleague', params: knapParams(FIXTURE_KNAPS.colleagueShared), headers: withAccess },
    { name: '401-missing-token', params: knapParams(FIXTURE_KNAPS.ownPrivate) },
    {
      name: '403-read-only-token',
      params: knapParams(FIXTURE_KNAPS.ownPrivate),
      headers: { authorization: bearer(TOKENS.readOnly.token) },
    },
    { name: '404-other-org', params: knapParams(FIXTURE_KNAPS.otherOrg), headers: withAccess },
    { name: '409-inactive', params: knapParams(FIXTURE_KNAPS.inactive), headers: withAccess },
  ],
  'list-runs': [
    { name: '200-history', params: knapParams(FIXTURE_KNAPS.withHistory), headers: withAccess },
    { name: '200-first-page', params: knapParams(FIXTURE_KNAPS.withHistory), headers: withAccess, query: { limit: '1' } },
    {
      name: '200-read-only-token',
      params: knapParams(FIXTURE_KNAPS.withHistory),
      headers: { authorization: bearer(TOKENS.readOnly.token) },
    },
    {
      name: '400-invalid-limit',
      params: knapParams(FIXTURE_KNAPS.withHistory),
      headers: withAccess,
      query: { limit: '0' },
    },
    {
      name: '400-invalid-cursor',
      params: knapParams(FIXTURE_KNAPS.withHistory),
      headers: withAccess,
      query: { cursor: 'not-a-cursor' },
    },
    { name: '401-missing-token', params: knapParams(FIXTURE_KNAPS.withHistory) },
    { name: '404-other-org', params: knapParams(FIXTURE_KNAPS.otherOrg), headers: withAccess },
  ],
  'report-meeting': [
    {
      name: '202-meeting',
      headers: withAccess,
      body: {
        meeting_id: MEETING_ID,
        title: 'Weekly pipeline review',
        occurred_at: '2026-11-23T09:00:00Z',
        transcript_url: 'https://meetings.acme.example/transcripts/83920475561',
        user_id: CLIENTS.main.userId,
      },
    },
    // The same meeting reported again (a retry, or another integration): the same runs, no new one.
    { name: '202-same-meeting-again', headers: withAccess, body: { meeting_id: MEETING_ID } },
    { name: '400-missing-meeting-id', headers: withAccess, body: { title: 'Weekly pipeline review' } },
    {
      name: '400-http-transcript-url',
      headers: withAccess,
      body: { meeting_id: MEETING_ID, transcript_url: 'http://meetings.acme.example/transcripts/83920475561' },
    },
    { name: '401-missing-token', body: { meeting_id: MEETING_ID } },
    { name: '403-read-only-token', headers: { authorization: bearer(TOKENS.readOnly.token) }, body: { meeting_id: MEETING_ID } },
  ],
};

/** An organization admin's token, as the console sends it. */
const asAdmin = { authorization: bearer(ADMIN_TOKENS.main) };
/** Another organization's admin: the fixture organization's clients, endpoints and runs are 404s to it. */
const asOtherOrgAdmin = { authorization: bearer(ADMIN_TOKENS.otherOrg) };
const adminRefusals = {
  expired: { authorization: bearer(ADMIN_TOKENS.expired) },
  /** Signed, then its organization changed: the signature no longer holds. */
  tampered: { authorization: bearer(ADMIN_TOKENS.tampered) },
  /** An API client's access token is never an admin's. */
  apiClient: { authorization: bearer(TOKENS.access.token) },
};
const clientParams = (client: { clientId: string }) => ({ client_id: client.clientId });
/** Well-formed ids nothing has. */
const NO_SUCH_CLIENT = 'knap_ci_00000000000000000000000000000000';
const NO_SUCH_ENDPOINT = 'we_000000000000000000000000';
const NO_SUCH_RUN = 'run_00000000000000000000000000000000';

/**
 * Cases added after the jobs' events: their seconds come after the jobs', so that adding them
 * changed no earlier file. A route may have cases in both (list-knaps: an admin's token).
 *
 * The admin events act in the fixture organization (`acme`) but for webhook endpoints: the
 * fixture organization has none, so deliveries stay no_endpoint (events/deliver-runs), and the
 * endpoint events are another organization's admin's (`globex`, whose fixture endpoints they
 * list and remove, and which they add to).
 */
const LATER_CASES: Record<string, Case[]> = {
  // Admin tokens never work on the integrators' API.
  'list-knaps': [{ name: '401-admin-token', headers: asAdmin }],
  'admin-list-clients': [
    { name: '200-own-org', headers: asAdmin },
    { name: '200-other-org-admin', headers: asOtherOrgAdmin },
    { name: '401-missing-token' },
    { name: '401-expired-token', headers: adminRefusals.expired },
    { name: '401-tampered-token', headers: adminRefusals.tampered },
    { name: '401-api-client-token', headers: adminRefusals.apiClient },
  ],
  'admin-create-client': [
    {
      name: '201-client',
      headers: asAdmin,
      body: { name: 'Billing sync', description: 'Pushes paid invoices to the ledger', rate_limit: 120, user_id: 4210 },
    },
    { name: '400-empty-name', headers: asAdmin, body: { name: '' } },
    { name: '400-invalid-rate-limit', headers: asAdmin, body: { name: 'Too eager', rate_limit: 0 } },
    // Secrets are made by the API, never chosen by the caller.
    { name: '400-unknown-field', headers: asAdmin, body: { name: 'Own secret', client_secret: 'knap_cs_my-own-secret' } },
    { name: '400-malformed-json', headers: asAdmin, body: '{"name": "Unfinished", ', contentType: 'application/json' },
    { name: '401-missing-token', body: { name: 'No credentials' } },
    { name: '401-api-client-token', headers: adminRefusals.apiClient, body: { name: 'Not an admin' } },
  ],
  'admin-regenerate-secret': [
    { name: '200-own-client', params: clientParams(CLIENTS.adminManaged), headers: asAdmin },
    { name: '401-missing-token', params: clientParams(CLIENTS.adminManaged) },
    { name: '401-expired-token', params: clientParams(CLIENTS.adminManaged), headers: adminRefusals.expired },
    { name: '404-other-org', params: clientParams(CLIENTS.stranger), headers: asAdmin },
    { name: '404-other-org-admin', params: clientParams(CLIENTS.adminManaged), headers: asOtherOrgAdmin },
    { name: '404-no-such-client', params: { client_id: NO_SUCH_CLIENT }, headers: asAdmin },
    { name: '409-revoked-client', params: clientParams(CLIENTS.revoked), headers: asAdmin },
  ],
  'admin-get-client': [
    { name: '200-client', params: clientParams(CLIENTS.adminManaged), headers: asAdmin },
    { name: '401-missing-token', params: clientParams(CLIENTS.adminManaged) },
    { name: '404-other-org', params: clientParams(CLIENTS.stranger), headers: asAdmin },
  ],
  'admin-add-secret': [
    { name: '201-secret', params: clientParams(CLIENTS.adminManaged), headers: asAdmin, body: { expires_in_days: 30 } },
    { name: '400-invalid-days', params: clientParams(CLIENTS.adminManaged), headers: asAdmin, body: { expires_in_days: 0 } },
    { name: '401-missing-token', params: clientParams(CLIENTS.adminManaged) },
    { name: '404-other-org', params: clientParams(CLIENTS.stranger), headers: asAdmin },
  ],
  'admin-remove-secret': [
    {
      name: '204-second-secret',
      params: { ...clientParams(CLIENTS.toRevoke), secret_id: secretIdOf(hashCredential(CLIENTS.toRevoke.extraSecret)) },
      headers: asAdmin,
    },
    {
      name: '409-only-secret',
      params: { ...clientParams(CLIENTS.adminManaged), secret_id: secretIdOf(hashCredential(CLIENTS.adminManaged.secret)) },
      headers: asAdmin,
    },
    { name: '401-missing-token', params: { ...clientParams(CLIENTS.adminManaged), secret_id: 'cs_none' } },
    { name: '404-no-such-secret', params: { ...clientParams(CLIENTS.adminManaged), secret_id: 'cs_none' }, headers: asAdmin },
  ],
  'admin-set-jwks': [
    {
      name: '200-keys',
      params: clientParams(CLIENTS.adminManaged),
      headers: asAdmin,
      body: {
        keys: [
          {
            kty: 'OKP',
            crv: 'Ed25519',
            x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
            kid: 'fixture-ed25519',
          },
        ],
      },
    },
    {
      name: '400-private-key',
      params: clientParams(CLIENTS.adminManaged),
      headers: asAdmin,
      body: {
        keys: [
          {
            kty: 'OKP',
            crv: 'Ed25519',
            x: '11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo',
            d: 'nWGxne_9WmC6hEr0kuwsxERJxWl7MmkZcDusAxyuf2A',
          },
        ],
      },
    },
    { name: '401-missing-token', params: clientParams(CLIENTS.adminManaged), body: { keys: [] } },
  ],
  'admin-update-client': [
    {
      name: '200-rename',
      params: clientParams(CLIENTS.adminManaged),
      headers: asAdmin,
      body: { name: 'Billing sync (EU)', description: 'Pushes paid invoices to the EU ledger' },
    },
    { name: '200-rate-limit', params: clientParams(CLIENTS.adminManaged), headers: asAdmin, body: { rate_limit: 250 } },
    {
      name: '400-invalid-rate-limit',
      params: clientParams(CLIENTS.adminManaged),
      headers: asAdmin,
      body: { rate_limit: 2.5 },
    },
    // Revoking is DELETE's; the status is not a field.
    { name: '400-unknown-field', params: clientParams(CLIENTS.adminManaged), headers: asAdmin, body: { status: 'revoked' } },
    { name: '401-missing-token', params: clientParams(CLIENTS.adminManaged), body: { name: 'No credentials' } },
    {
      name: '401-api-client-token',
      params: clientParams(CLIENTS.adminManaged),
      headers: adminRefusals.apiClient,
      body: { name: 'Not an admin' },
    },
    { name: '404-other-org', params: clientParams(CLIENTS.stranger), headers: asAdmin, body: { name: 'Not mine' } },
    { name: '409-revoked-client', params: clientParams(CLIENTS.revoked), headers: asAdmin, body: { name: 'Too late' } },
  ],
  'admin-revoke-client': [
    { name: '204-active-client', params: clientParams(CLIENTS.toRevoke), headers: asAdmin },
    // Revocation is permanent and DELETE idempotent: revoking a revoked client changes nothing.
    { name: '204-already-revoked', params: clientParams(CLIENTS.revoked), headers: asAdmin },
    { name: '401-missing-token', params: clientParams(CLIENTS.toRevoke) },
    { name: '401-tampered-token', params: clientParams(CLIENTS.toRevoke), headers: adminRefusals.tampered },
    { name: '404-other-org', params: clientParams(CLIENTS.stranger), headers: asAdmin },
    { name: '404-no-such-client', params: { client_id: NO_SUCH_CLIENT }, headers: asAdmin },
  ],
  'admin-list-webhooks': [
    { name: '200-endpoints', headers: asOtherOrgAdmin },
    { name: '200-no-endpoints', headers: asAdmin },
    { name: '401-missing-token' },
    { name: '401-api-client-token', headers: adminRefusals.apiClient },
  ],
  'admin-add-webhook': [
    { name: '201-endpoint', headers: asOtherOrgAdmin, body: { url: 'https://hooks.globex.example/knaps/v2' } },
    { name: '400-http-url', headers: asOtherOrgAdmin, body: { url: 'http://hooks.globex.example/knaps' } },
    { name: '400-private-address', headers: asOtherOrgAdmin, body: { url: 'https://10.0.0.7/knaps' } },
    { name: '400-missing-url', headers: asOtherOrgAdmin, body: {} },
    { name: '401-missing-token', body: { url: 'https://hooks.globex.example/knaps/v2' } },
    { name: '401-expired-token', headers: adminRefusals.expired, body: { url: 'https://hooks.acme.example/knaps' } },
  ],
  'admin-remove-webhook': [
    { name: '204-own-endpoint', params: { endpoint_id: FIXTURE_WEBHOOKS.toRemove.endpointId }, headers: asOtherOrgAdmin },
    { name: '401-missing-token', params: { endpoint_id: FIXTURE_WEBHOOKS.toRemove.endpointId } },
    {
      name: '401-api-client-token',
      params: { endpoint_id: FIXTURE_WEBHOOKS.toRemove.endpointId },
      headers: adminRefusals.apiClient,
    },
    { name: '404-other-org', params: { endpoint_id: FIXTURE_WEBHOOKS.otherOrg.endpointId }, headers: asAdmin },
    { name: '404-no-such-endpoint', params: { endpoint_id: NO_SUCH_ENDPOINT }, headers: asOtherOrgAdmin },
  ],
  'admin-rotate-webhook-secret': [
    { name: '200-own-endpoint', params: { endpoint_id: FIXTURE_WEBHOOKS.otherOrg.endpointId }, headers: asOtherOrgAdmin },
    { name: '401-missing-token', params: { endpoint_id: FIXTURE_WEBHOOKS.otherOrg.endpointId } },
    { name: '404-other-org', params: { endpoint_id: FIXTURE_WEBHOOKS.otherOrg.endpointId }, headers: asAdmin },
  ],
  // The fixture URL does not resolve: still a 200, whose body says what the attempt did.
  'admin-test-webhook': [
    { name: '200-own-endpoint', params: { endpoint_id: FIXTURE_WEBHOOKS.otherOrg.endpointId }, headers: asOtherOrgAdmin },
    { name: '401-missing-token', params: { endpoint_id: FIXTURE_WEBHOOKS.otherOrg.endpointId } },
    { name: '404-other-org', params: { endpoint_id: FIXTURE_WEBHOOKS.otherOrg.endpointId }, headers: asAdmin },
  ],
  'admin-update-webhook': [
    {
      name: '200-described',
      params: { endpoint_id: FIXTURE_WEBHOOKS.otherOrg.endpointId },
      headers: asOtherOrgAdmin,
      body: { description: 'Ledger sync' },
    },
    {
      name: '400-unknown-event-type',
      params: { endpoint_id: FIXTURE_WEBHOOKS.otherOrg.endpointId },
      headers: asOtherOrgAdmin,
      body: { event_types: ['knap.nope'] },
    },
    { name: '401-missing-token', params: { endpoint_id: FIXTURE_WEBHOOKS.otherOrg.endpointId }, body: { disabled: true } },
    {
      name: '404-other-org',
      params: { endpoint_id: FIXTURE_WEBHOOKS.otherOrg.endpointId },
      headers: asAdmin,
      body: { disabled: true },
    },
  ],
  'admin-list-runs': [
    { name: '200-runs', headers: asAdmin },
    { name: '200-first-page', headers: asAdmin, query: { limit: '1' } },
    { name: '400-invalid-limit', headers: asAdmin, query: { limit: '0' } },
    { name: '400-invalid-cursor', headers: asAdmin, query: { cursor: 'not-a-cursor' } },
    { name: '401-missing-token' },
    { name: '401-expired-token', headers: adminRefusals.expired },
  ],
  'admin-get-run': [
    { name: '200-delivered', params: runParams(FIXTURE_RUNS.delivered), headers: asAdmin },
    { name: '401-missing-token', params: runParams(FIXTURE_RUNS.delivered) },
    { name: '401-api-client-token', params: runParams(FIXTURE_RUNS.delivered), headers: adminRefusals.apiClient },
    { name: '404-other-org', params: runParams(FIXTURE_RUNS.otherOrg), headers: asAdmin },
    { name: '404-no-such-run', params: { run_id: NO_SUCH_RUN }, headers: asAdmin },
  ],
  'admin-list-run-events': [
    { name: '200-events', params: runParams(FIXTURE_RUNS.reporting), headers: asAdmin },
    { name: '200-stream', params: runParams(FIXTURE_RUNS.failed), headers: { ...asAdmin, accept: 'text/event-stream' } },
    {
      name: '204-stream-ended',
      params: runParams(FIXTURE_RUNS.failed),
      headers: { ...asAdmin, accept: 'text/event-stream', 'last-event-id': '1' },
    },
    { name: '401-missing-token', params: runParams(FIXTURE_RUNS.delivered) },
    { name: '404-other-org', params: runParams(FIXTURE_RUNS.otherOrg), headers: asAdmin },
  ],
  'admin-redeliver-run': [
    { name: '202-failed-run', params: { run_id: FIXTURE_RUNS.toRedeliver.run.run_id }, headers: asAdmin },
    { name: '401-missing-token', params: { run_id: FIXTURE_RUNS.toRedeliver.run.run_id } },
    {
      name: '401-api-client-token',
      params: { run_id: FIXTURE_RUNS.toRedeliver.run.run_id },
      headers: adminRefusals.apiClient,
    },
    { name: '404-other-org', params: { run_id: FIXTURE_RUNS.otherOrg.run.run_id }, headers: asAdmin },
    { name: '404-no-such-run', params: { run_id: NO_SUCH_RUN }, headers: asAdmin },
  ],
  'admin-audit-events': [
    { name: '200-log', headers: asAdmin },
    { name: '200-first-page', headers: asAdmin, query: { limit: '1' } },
    { name: '400-invalid-limit', headers: asAdmin, query: { limit: '0' } },
    { name: '400-invalid-cursor', headers: asAdmin, query: { cursor: 'not-a-cursor' } },
    { name: '401-missing-token' },
    { name: '401-tampered-token', headers: adminRefusals.tampered },
  ],
  'admin-list-knaps': [
    { name: '200-knaps', headers: asAdmin },
    { name: '200-first-page', headers: asAdmin, query: { limit: '1' } },
    { name: '400-invalid-cursor', headers: asAdmin, query: { cursor: 'not-a-cursor' } },
    { name: '401-missing-token' },
  ],
  'admin-get-knap': [
    { name: '200-private-knap', params: knapParams(FIXTURE_KNAPS.ownPrivate), headers: asAdmin },
    { name: '401-missing-token', params: knapParams(FIXTURE_KNAPS.ownPrivate) },
    { name: '404-other-org', params: knapParams(FIXTURE_KNAPS.otherOrg), headers: asAdmin },
  ],
  'admin-update-knap': [
    { name: '200-switch-off', params: knapParams(FIXTURE_KNAPS.colleagueShared), headers: asAdmin, body: { is_active: false } },
    {
      name: '400-not-an-admin-field',
      params: knapParams(FIXTURE_KNAPS.ownPrivate),
      headers: asAdmin,
      body: { visibility: 'public' },
    },
    { name: '401-missing-token', params: knapParams(FIXTURE_KNAPS.ownPrivate), body: { name: 'x' } },
    { name: '404-other-org', params: knapParams(FIXTURE_KNAPS.otherOrg), headers: asAdmin, body: { name: 'x' } },
  ],
  'admin-delete-knap': [
    // The Knap delete-knap/200-own deletes: each event finds it back as seeded (resetFixtureKnap).
    { name: '200-deleted', params: knapParams(FIXTURE_KNAPS.toDelete), headers: asAdmin },
    { name: '401-missing-token', params: knapParams(FIXTURE_KNAPS.ownPrivate) },
    { name: '404-other-org', params: knapParams(FIXTURE_KNAPS.otherOrg), headers: asAdmin },
    { name: '404-no-such-knap', params: { uuid: NO_SUCH_KNAP }, headers: asAdmin },
  ],
  // The console is public: its page signs in in the browser.
  console: [
    { name: '200-page', headers: { accept: ACCEPT_HTML } },
    { name: '200-script', query: { asset: 'app.js' }, headers: { accept: ACCEPT_ANY } },
    { name: '200-stylesheet', query: { asset: 'app.css' }, headers: { accept: ACCEPT_CSS } },
    { name: '404-unknown-asset', query: { asset: 'app.js.map' }, headers: { accept: ACCEPT_ANY } },
  ],
  'get-run': [
    { name: '200-delivered', params: runParams(FIXTURE_RUNS.delivered), headers: withAccess },
    { name: '401-missing-token', params: runParams(FIXTURE_RUNS.delivered) },
    { name: '401-report-token', params: runParams(FIXTURE_RUNS.delivered), headers: { authorization: bearer(REPORT_TOKEN) } },
    { name: '404-unknown-run', params: { run_id: 'run_unknown00000000000000000000000000' }, headers: withAccess },
  ],
  'list-run-events': [
    { name: '200-events', params: runParams(FIXTURE_RUNS.reporting), headers: withAccess },
    {
      name: '200-stream',
      params: runParams(FIXTURE_RUNS.failed),
      headers: { ...withAccess, accept: 'text/event-stream' },
    },
    {
      name: '204-stream-ended',
      params: runParams(FIXTURE_RUNS.failed),
      headers: { ...withAccess, accept: 'text/event-stream', 'last-event-id': '1' },
    },
    { name: '401-missing-token', params: runParams(FIXTURE_RUNS.delivered) },
    { name: '404-unknown-run', params: { run_id: 'run_unknown00000000000000000000000000' }, headers: withAccess },
  ],
  'report-run-event': [
    {
      name: '201-progress',
      params: runParams(FIXTURE_RUNS.reporting),
      headers: { authorization: bearer(REPORT_TOKEN) },
      body: { type: 'progress', message: 'Read 120 of 300 messages' },
    },
    {
      name: '400-output-not-succeeded',
      params: runParams(FIXTURE_RUNS.reporting),
      headers: { authorization: bearer(REPORT_TOKEN) },
      body: { type: 'progress', output: { rows: 3 } },
    },
    {
      name: '401-access-token',
      params: runParams(FIXTURE_RUNS.reporting),
      headers: withAccess,
      body: { type: 'progress' },
    },
    {
      name: '401-another-runs-token',
      params: runParams(FIXTURE_RUNS.failed),
      headers: { authorization: bearer(REPORT_TOKEN) },
      body: { type: 'progress' },
    },
  ],
  'admin-recover-webhook': [
    {
      name: '202-recovering',
      params: { endpoint_id: FIXTURE_WEBHOOKS.otherOrg.endpointId },
      headers: asOtherOrgAdmin,
      body: { since: '2026-11-01T00:00:00Z' },
    },
    {
      name: '400-bad-since',
      params: { endpoint_id: FIXTURE_WEBHOOKS.otherOrg.endpointId },
      headers: asOtherOrgAdmin,
      body: { since: 'yesterday' },
    },
    {
      name: '401-missing-token',
      params: { endpoint_id: FIXTURE_WEBHOOKS.otherOrg.endpointId },
      body: { since: '2026-11-01T00:00:00Z' },
    },
    {
      name: '404-other-org',
      params: { endpoint_id: FIXTURE_WEBHOOKS.otherOrg.endpointId },
      headers: asAdmin,
      body: { since: '2026-11-01T00:00:00Z' },
    },
  ],
  'admin-list-webhook-attempts': [
    { name: '200-attempts', params: { endpoint_id: FIXTURE_WEBHOOKS.otherOrg.endpointId }, headers: asOtherOrgAdmin },
    {
      name: '400-invalid-cursor',
      params: { endpoint_id: FIXTURE_WEBHOOKS.otherOrg.endpointId },
      headers: asOtherOrgAdmin,
      query: { cursor: 'not-a-cursor' },
    },
    { name: '401-missing-token', params: { endpoint_id: FIXTURE_WEBHOOKS.otherOrg.endpointId } },
    { name: '404-other-org', params: { endpoint_id: FIXTURE_WEBHOOKS.otherOrg.endpointId }, headers: asAdmin },
  ],
};

/** An event of a job (functions/jobs.ts): named for what it is; no HTTP status. */
interface JobCase {
  /** The file name without `.json`, e.g. `scheduled-event`. */
  name: string;
  /** A queue job's messages: each one's body, as the producers send it (JSON text). */
  messages?: string[];
}

/** What the delivery queue's producers send (shared/queue/sqs-queue.ts): `{"run_id"}`. */
const deliveryMessage = (stored: { run: { run_id: string } }): string => JSON.stringify({ run_id: stored.run.run_id });

const JOB_CASES: Record<string, JobCase[]> = {
  // What the every-minute rule sends; the dispatcher finds the due fixture Knap in the table.
  'dispatch-runs': [{ name: 'scheduled-event' }],
  'deliver-runs': [
    // Two runs waiting for delivery, in one batch (the event source takes up to 10).
    {
      name: 'sqs-batch',
      messages: [deliveryMessage(FIXTURE_RUNS.awaitingDelivery), deliveryMessage(FIXTURE_RUNS.awaitingDeliveryToo)],
    },
    // A message nobody could deliver: dropped with a log line, not retried.
    { name: 'sqs-unreadable-body', messages: ['{"run": "not what the producers send"}'] },
  ],
};

const ACCOUNT_ID = '123456789012';
/** Names as CloudFormation gives them to the stack's rule and queue (lib/runs.ts: Runs/EveryMinute, Runs/Deliveries). */
const SCHEDULE_RULE_ARN = `arn:aws:events:${REGION}:${ACCOUNT_ID}:rule/KnapApi-RunsEveryMinute5B3C7D1E-1XQ4ZK7P9M2W`;
const DELIVERY_QUEUE_ARN = `arn:aws:sqs:${REGION}:${ACCOUNT_ID}:KnapApi-RunsDeliveries9F4A2C6B-Lq3vXw8NzR1t`;

/** A uuid (v4 layout) from a digest, as EventBridge and SQS ids look. */
const uuidOf = (bytes: Buffer): string => {
  const id = Buffer.from(bytes.subarray(0, 16));
  id[6] = (id[6]! & 0x0f) | 0x40;
  id[8] = (id[8]! & 0x3f) | 0x80;
  const text = id.toString('hex');
  return `${text.slice(0, 8)}-${text.slice(8, 12)}-${text.slice(12, 16)}-${text.slice(16, 20)}-${text.slice(20)}`;
};

/** EventBridge's Scheduled Event, as a `rate(1 minute)` rule sends it: on the minute, detail {}. */
const scheduledEvent = (seed: Buffer, now: Date): ScheduledEvent => ({
  version: '0',
  id: uuidOf(seed),
  'detail-type': 'Scheduled Event',
  source: 'aws.events',
  account: ACCOUNT_ID,
  time: new Date(Math.floor(now.getTime() / 60_000) * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
  region: REGION,
  resources: [SCHEDULE_RULE_ARN],
  detail: {},
});

/** One SQS message as the Lambda event source hands it over: sent a moment before, received once. */
const sqsRecord = (seed: Buffer, body: string, now: Date, index: number): SQSRecord => {
  const digestOf = digest(`${seed.toString('hex')}/${index}`);
  const sent = now.getTime() - 1500 + index * 7;
  return {
    messageId: uuidOf(digestOf),
    receiptHandle: `AQEB${Buffer.concat([digestOf, digest(digestOf.toString('hex')), digestOf]).toString('base64')}`,
    body,
    attributes: {
      ApproximateReceiveCount: '1',
      SentTimestamp: String(sent),
      // The role session of the function that sent it (start-run's, say).
      SenderId: `AROA${digestOf.subarray(0, 12).toString('hex').toUpperCase().slice(0, 17)}:KnapApi-StartRunFunction`,
      ApproximateFirstReceiveTimestamp: String(sent + 40),
    },
    messageAttributes: {},
    md5OfBody: md5Of(body),
    eventSource: 'aws:sqs',
    eventSourceARN: DELIVERY_QUEUE_ARN,
    awsRegion: REGION,
  };
};

export const buildJobEvent = (job: JobDefinition, item: JobCase, index: number): ScheduledEvent | SQSEvent => {
  const seed = digest(`${job.id}/${item.name}`);
  const now = new Date(BASE_TIME + index * 1000);
  if (job.trigger === 'schedule') return scheduledEvent(seed, now);
  const messages = item.messages ?? [];
  if (messages.length < 1 || messages.length > 10) throw new Error(`${job.id}/${item.name}: an SQS batch holds 1 to 10 messages`);
  return { Records: messages.map((body, position) => sqsRecord(seed, body, now, position)) };
};

/** Stable, AWS-looking ids derived from the case, so regenerating changes nothing. */
const digest = (seed: string): Buffer => createHash('sha256').update(seed).digest();

/** The OAuth endpoints take forms; the others JSON. */
const OAUTH_FORM_ROUTES = new Set(['token', 'revoke-token', 'introspect-token']);

const bodyOf = (route: RouteDefinition, item: Case): { text: string; contentType: string } | undefined => {
  if (item.body === undefined) return undefined;
  if (typeof item.body === 'string') return { text: item.body, contentType: item.contentType ?? 'application/json' };
  return OAUTH_FORM_ROUTES.has(route.id)
    ? { text: form(item.body as Record<string, string>), contentType: 'application/x-www-form-urlencoded' }
    : { text: JSON.stringify(item.body), contentType: item.contentType ?? 'application/json' };
};

/** The concrete path of the case and its path parameters, as API Gateway matched them (none: undefined). */
const pathOf = (route: RouteDefinition, item: Case): { path: string; parameters?: Record<string, string> } => {
  const path = fillPath(route, item.params ?? {});
  const parameters = matchPath(route, path);
  if (!parameters)
    throw new Error(`${route.id}/${item.name}: ${path} does not fit ${route.path} (params: ${JSON.stringify(item.params)})`);
  if (Object.keys(parameters).length === 0) {
    if (item.params) throw new Error(`${route.id}/${item.name}: ${route.path} has no path parameters`);
    return { path };
  }
  return { path, parameters };
};

export const buildEvent = (route: RouteDefinition, item: Case, index: number): APIGatewayProxyEventV2 => {
  const seed = digest(`${route.id}/${item.name}`);
  const now = new Date(BASE_TIME + index * 1000);
  const body = bodyOf(route, item);
  const { path, parameters } = pathOf(route, item);
  const rawQueryString = item.query ? new URLSearchParams(item.query).toString() : '';
  const headers: Record<string, string> = {
    accept: 'application/json',
    ...(item.headers ?? {}),
    ...(body ? { 'content-length': String(Buffer.byteLength(body.text)), 'content-type': body.contentType } : {}),
    host: DOMAIN,
    'user-agent': USER_AGENT,
    'x-amzn-trace-id': `Root=1-${Math.floor(now.getTime() / 1000).toString(16)}-${seed.subarray(0, 12).toString('hex')}`,
    'x-forwarded-for': SOURCE_IP,
    'x-forwarded-port': '443',
    'x-forwarded-proto': 'https',
  };
  const sorted = Object.fromEntries(Object.entries(headers).sort(([a], [b]) => a.localeCompare(b)));
  const routeKey = `${route.method} ${route.path}`;
  const text = body ? isTextContentType(body.contentType) : true;
  return {
    version: '2.0',
    routeKey,
    rawPath: path,
    rawQueryString,
    headers: sorted,
    ...(item.query ? { queryStringParameters: { ...item.query } } : {}),
    requestContext: {
      accountId: '123456789012',
      apiId: API_ID,
      domainName: DOMAIN,
      domainPrefix: API_ID,
      http: { method: route.method, path, protocol: 'HTTP/1.1', sourceIp: SOURCE_IP, userAgent: USER_AGENT },
      // HTTP API request ids: 16 characters of base64 ending in '='.
      requestId: `${seed
        .subarray(12, 32)
        .toString('base64')
        .replace(/[^A-Za-z0-9]/g, '')
        .slice(0, 15)}=`,
      routeKey,
      stage: '$default',
      time: clfTime(now),
      timeEpoch: now.getTime(),
    },
    ...(body ? { body: text ? body.text : Buffer.from(body.text).toString('base64') } : {}),
    ...(parameters ? { pathParameters: parameters } : {}),
    isBase64Encoded: body ? !text : false,
  };
};

/** Every event file this script writes, in order (routes, then jobs): where it goes and what it holds. */
export function* generatedEvents(): Generator<{
  functionId: string;
  file: string;
  event: APIGatewayProxyEventV2 | ScheduledEvent | SQSEvent;
}> {
  // Each case's second after BASE_TIME is its place in CASES, then JOB_CASES, then
  // LATER_CASES: a case added later changes no earlier event.
  const places = new Map<Case, number>();
  for (const item of Object.values(CASES).flat()) places.set(item, places.size);
  const jobsFrom = places.size;
  const jobCount = Object.values(JOB_CASES).flat().length;
  for (const item of Object.values(LATER_CASES).flat()) places.set(item, jobCount + places.size);
  const unknown = [...Object.keys(CASES), ...Object.keys(LATER_CASES)].filter((id) => !routes.some((route) => route.id === id));
  if (unknown.length > 0) throw new Error(`Event cases for routes that do not exist: ${unknown.join(', ')}`);
  for (const route of routes) {
    const cases = [...(CASES[route.id] ?? []), ...(LATER_CASES[route.id] ?? [])];
    if (cases.length === 0) throw new Error(`No event cases for route ${route.id}`);
    for (const item of cases) {
      const event = buildEvent(route, item, places.get(item) ?? 0);
      yield { functionId: route.id, file: join(EVENTS_DIR, route.id, `${item.name}.json`), event };
    }
  }
  let index = jobsFrom;
  for (const job of jobs) {
    const cases = JOB_CASES[job.id];
    if (!cases) throw new Error(`No event cases for job ${job.id}`);
    for (const item of cases) {
      yield { functionId: job.id, file: join(EVENTS_DIR, job.id, `${item.name}.json`), event: buildJobEvent(job, item, index++) };
    }
  }
}

const write = async (): Promise<void> => {
  const written = new Map<string, number>();
  for (const { functionId, file, event } of generatedEvents()) {
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, `${JSON.stringify(event, null, 2)}\n`);
    written.set(functionId, (written.get(functionId) ?? 0) + 1);
  }
  for (const [functionId, count] of written) console.log(`events/${functionId}: ${count} events`);
};

if (import.meta.url === `file://${process.argv[1]}`) await write();
