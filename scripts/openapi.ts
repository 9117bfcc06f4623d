/**
 * The OpenAPI document, derived from the valibot schemas the handlers validate with.
 * `npm run openapi` writes docs/openapi.json; a test fails when that file is stale.
 */
import { writeFileSync } from 'node:fs';
import { toJsonSchemaDefs } from '@valibot/to-json-schema';
import type * as v from 'valibot';
import { CreateKnapSchema } from '../shared/domain/knap-input.js';
import { ErrorSchema, KnapListingSchema, KnapSchema, TokenResponseSchema } from '../shared/schemas/responses.js';
import { TokenFormSchema } from '../shared/schemas/token-request.js';

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const json = (schema: string) => ({ 'application/json': { schema: ref(schema) } });
const problem = (description: string) => ({ description, content: json('Error') });
const rateLimitHeaders = Object.fromEntries(
  ['RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset'].map((name) => [name, { schema: { type: 'integer' } }]),
);
const tooMany = {
  description: 'Over the client rate limit',
  headers: { 'Retry-After': { schema: { type: 'integer' } }, ...rateLimitHeaders },
  content: json('Error'),
};
const unavailable = problem('DynamoDB is unavailable or throttling; retry (Retry-After)');
const bearerErrors = {
  '401': problem('Missing, unknown, expired or invalidated token, or a revoked client'),
  '403': problem('The token lacks the scope this endpoint needs'),
  '429': tooMany,
  '503': unavailable,
};

export const openApiDocument = () => ({
  openapi: '3.0.3',
  info: {
    title: 'Knap API',
    version: '1.0.0',
    description:
      'OAuth 2.0 client-credentials tokens, and Knaps: automations run manually, on an English schedule, or after a meeting transcription.',
  },
  paths: {
    '/api/oauth/token': {
      post: {
        summary: 'Issue tokens (client_credentials or refresh_token grant)',
        security: [{}, { clientBasic: [] }],
        requestBody: { required: true, content: { 'application/x-www-form-urlencoded': { schema: ref('TokenForm') } } },
        responses: {
          '200': {
            description: 'A token set (Cache-Control: no-store)',
            headers: rateLimitHeaders,
            content: json('TokenResponse'),
          },
          '400': problem('Unsupported or missing grant_type, missing fields, invalid scope, unparseable body'),
          '401': problem('Invalid client credentials, revoked client, or an invalid refresh token'),
          '413': problem('Body over 16 KB'),
          '429': tooMany,
          '503': unavailable,
        },
      },
    },
    '/api/studio/knap-tools': {
      post: {
        summary: 'Create a Knap',
        security: [{ bearer: ['knaps:write'] }],
        requestBody: { required: true, content: json('CreateKnap') },
        responses: {
          '201': { description: 'The created Knap', headers: rateLimitHeaders, content: json('Knap') },
          '400': problem('Invalid body or schedule description; the detail names the field'),
          '413': problem('Body over 1 MB'),
          '415': problem('Content-Type is not JSON'),
          '500': problem('The Knap could not be stored; nothing was written'),
          ...bearerErrors,
        },
      },
      get: {
        summary: 'List the Knaps this client may see, newest first',
        security: [{ bearer: ['knaps:read'] }],
        parameters: [
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, maximum: 100, default: 50 } },
          { name: 'cursor', in: 'query', schema: { type: 'string' }, description: 'next_cursor of the previous page' },
        ],
        responses: {
          '200': { description: 'One page of each list', headers: rateLimitHeaders, content: json('KnapListing') },
          '400': problem('Invalid limit or cursor'),
          ...bearerErrors,
        },
      },
    },
  },
  components: {
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer', description: 'An access token (knap_at_...) from /api/oauth/token' },
      clientBasic: { type: 'http', scheme: 'basic', description: 'client_secret_basic: client id and secret' },
    },
    // Pipes with custom checks (lengths in characters, storable JSON) are enforced by the API
    // but have no JSON Schema form; they are left out here rather than guessed.
    schemas: toJsonSchemaDefs(
      {
        TokenForm: TokenFormSchema,
        TokenResponse: TokenResponseSchema,
        CreateKnap: CreateKnapSchema,
        Knap: KnapSchema,
        KnapListing: KnapListingSchema,
        Error: ErrorSchema,
      } satisfies Record<string, v.GenericSchema>,
      {
        target: 'openapi-3.0',
        errorMode: 'ignore',
        typeMode: 'ignore',
        overrideRef: ({ referenceId }) => `#/components/schemas/${referenceId}`,
      },
    ),
  },
});

if (import.meta.url === `file://${process.argv[1]}`) {
  writeFileSync('docs/openapi.json', `${JSON.stringify(openApiDocument(), null, 2)}\n`);
  console.log('Wrote docs/openapi.json');
}
