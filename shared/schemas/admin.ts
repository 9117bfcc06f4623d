/**
 * The admin API's bodies and answers (contract, "Organization admins"): validated at the edge
 * here, and the same schemas feed the OpenAPI document. No answer has a field that names a
 * secret's hash; a secret appears only in the answer that made it.
 */
import * as v from 'valibot';
import { AUDIT_ACTIONS } from '../domain/audit.js';
import { MAX_RATE_LIMIT, MAX_SECRET_DAYS, UNSHOWABLE_TEXT } from '../domain/clients.js';
import { issueMessage } from '../domain/knap-input.js';
import { isKnownScope, SCOPES } from '../domain/scopes.js';
import { WEBHOOK_EVENT_TYPES } from '../domain/webhooks.js';
import { badRequest } from '../errors.js';

const timestamp = v.pipe(v.string(), v.isoTimestamp(), v.description('ISO 8601, UTC'));
const nullableTimestamp = v.pipe(v.nullable(v.string()), v.description('ISO 8601, UTC; null when never'));

export const MAX_CLIENT_NAME_LENGTH = 100;
export const MAX_CLIENT_DESCRIPTION_LENGTH = 1000;
/** Longer than any URL a receiver needs; the item stays small. */
export const MAX_WEBHOOK_URL_LENGTH = 2048;

const clientName = v.pipe(
  v.string('name must be a string'),
  v.trim(),
  v.minLength(1, 'name must not be empty'),
  v.check((name) => !UNSHOWABLE_TEXT.test(name), 'name must not contain control characters or direction overrides'),
  v.maxLength(MAX_CLIENT_NAME_LENGTH, `name must be at most ${MAX_CLIENT_NAME_LENGTH} characters`),
  v.description('Shown in listings and the audit log'),
);
const clientDescription = v.pipe(
  v.string('description must be a string'),
  v.check((text) => !UNSHOWABLE_TEXT.test(text), 'description must not contain control characters or direction overrides'),
  v.maxLength(MAX_CLIENT_DESCRIPTION_LENGTH, `description must be at most ${MAX_CLIENT_DESCRIPTION_LENGTH} characters`),
);
const rateLimitMessage = `rate_limit must be a whole number from 1 to ${MAX_RATE_LIMIT} (requests per minute)`;
const rateLimit = v.pipe(
  v.number(rateLimitMessage),
  v.integer(rateLimitMessage),
  v.minValue(1, rateLimitMessage),
  v.maxValue(MAX_RATE_LIMIT, rateLimitMessage),
  v.description('Requests per minute'),
);
const userIdMessage = 'user_id must be a positive whole number';
const userId = v.pipe(
  v.number(userIdMessage),
  v.integer(userIdMessage),
  v.minValue(1, userIdMessage),
  v.maxValue(Number.MAX_SAFE_INTEGER, userIdMessage),
  v.description('The user the client acts for (Knaps it creates name it); 1 by default'),
);

const scopesMessage = `scopes must be a non-empty list of ${SCOPES.join(', ')}`;
/** The old names (knaps:read, knaps:write) are accepted and stored under the new ones. */
const clientScopes = v.pipe(
  v.array(v.string(scopesMessage), scopesMessage),
  v.minLength(1, scopesMessage),
  v.maxLength(10, scopesMessage),
  v.check((scopes) => scopes.every(isKnownScope), scopesMessage),
  v.description(`What the client's tokens may do: ${SCOPES.join(', ')} (every scope when not given)`),
);

export const CreateClientRequestSchema = v.strictObject(
  {
    name: clientName,
    description: v.optional(clientDescription),
    rate_limit: v.optional(rateLimit),
    user_id: v.optional(userId),
    scopes: v.optional(clientScopes),
  },
  'Unknown field: send only name, description, rate_limit, user_id and scopes',
);
export type CreateClientRequest = v.InferOutput<typeof CreateClientRequestSchema>;

export const UpdateClientRequestSchema = v.strictObject(
  {
    name: v.optional(clientName),
    description: v.optional(clientDescription),
    rate_limit: v.optional(
      v.pipe(v.nullable(rateLimit), v.description("Requests per minute; null follows the deployment's default again")),
    ),
    scopes: v.optional(clientScopes),
  },
  'Unknown field: send only name, description, rate_limit and scopes',
);
export type UpdateClientRequest = v.InferOutput<typeof UpdateClientRequestSchema>;

const eventTypesMessage = `event_types must be null (every type) or a list of: ${WEBHOOK_EVENT_TYPES.join(', ')}`;
const eventTypes = v.pipe(
  v.nullable(
    v.pipe(
      v.array(v.picklist(WEBHOOK_EVENT_TYPES, eventTypesMessage), eventTypesMessage),
      v.minLength(1, 'event_types must not be empty: send null for every type, or disable the endpoint'),
      // Duplicates are harmless: kept once, in the order given.
      v.transform((types) => [...new Set(types)]),
    ),
  ),
  v.description('The event types the endpoint receives; null: every type'),
);
const webhookDescription = v.pipe(
  v.nullable(
    v.pipe(
      v.string('description must be a string'),
      v.check((text) => !UNSHOWABLE_TEXT.test(text), 'description must not contain control characters or direction overrides'),
      v.maxLength(MAX_CLIENT_DESCRIPTION_LENGTH, `description must be at most ${MAX_CLIENT_DESCRIPTION_LENGTH} characters`),
    ),
  ),
  v.description('Shown in listings; null: none'),
);

export const AddWebhookRequestSchema = v.strictObject(
  {
    url: v.pipe(
      v.string('url must be a string'),
      v.maxLength(MAX_WEBHOOK_URL_LENGTH, `url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`),
      v.description('https, on a public address'),
    ),
    event_types: v.optional(eventTypes),
    description: v.optional(webhookDescription),
  },
  'Unknown field: send only url, event_types and description',
);
export type AddWebhookRequest = v.InferOutput<typeof AddWebhookRequestSchema>;

export const UpdateWebhookRequestSchema = v.strictObject(
  {
    event_types: v.optional(eventTypes),
    disabled: v.optional(
      v.pipe(
        v.boolean('disabled must be true or false'),
        v.description('true: the endpoint receives nothing (but a test send) until set false again'),
      ),
    ),
    description: v.optional(webhookDescription),
  },
  'Unknown field: send only event_types, disabled and description',
);
export type UpdateWebhookRequest = v.InferOutput<typeof UpdateWebhookRequestSchema>;

export const AdminClientSchema = v.object({
  client_id: v.string(),
  name: v.string(),
  description: v.string(),
  status: v.picklist(['active', 'revoked']),
  rate_limit: v.pipe(v.number(), v.integer(), v.description("Requests per minute: the client's own, or the default")),
  last_used_at: nullableTimestamp,
  created_at: timestamp,
  user_id: v.pipe(v.number(), v.integer()),
  scopes: v.pipe(
    v.array(v.picklist(SCOPES)),
    v.description("What the client's tokens may do; narrowing applies to live tokens at once"),
  ),
});
export type AdminClient = v.InferOutput<typeof AdminClientSchema>;

export const AddSecretRequestSchema = v.strictObject(
  {
    expires_in_days: v.optional(
      v.pipe(
        v.number('expires_in_days must be a whole number of days'),
        v.integer('expires_in_days must be a whole number of days'),
        v.minValue(1, `expires_in_days must be from 1 to ${MAX_SECRET_DAYS}`),
        v.maxValue(MAX_SECRET_DAYS, `expires_in_days must be from 1 to ${MAX_SECRET_DAYS}`),
        v.description('The secret stops working this many days from now; without it, when retired'),
      ),
    ),
  },
  'Unknown field: send only expires_in_days',
);
export type AddSecretRequest = v.InferOutput<typeof AddSecretRequestSchema>;

export const SecretSummarySchema = v.object({
  secret_id: v.pipe(v.string(), v.description('Names the secret to retire; tells nothing of the secret')),
  created_at: timestamp,
  last_used_at: v.pipe(v.nullable(v.string()), v.description('ISO 8601, UTC; the last token request with it, or null')),
  expires_at: v.pipe(v.nullable(v.string()), v.description('ISO 8601, UTC; null: until retired')),
});

const clientSecret = v.pipe(v.string(), v.description('`knap_cs_...`: shown this once, never again'));

export const NewAdminClientSchema = v.object({ ...AdminClientSchema.entries, client_secret: clientSecret });
export const ClientSecretSchema = v.object({ client_id: v.string(), client_secret: clientSecret });
export const AdminClientListSchema = v.object({ clients: v.array(AdminClientSchema) });
/** One client: its secrets' ids and dates (never a value or a hash), and its public keys. */
export const AdminClientDetailSchema = v.object({
  ...AdminClientSchema.entries,
  secrets: v.array(SecretSummarySchema),
  jwks: v.pipe(
    v.object({ keys: v.array(v.record(v.string(), v.unknown())) }),
    v.description('The public keys its private_key_jwt assertions are signed with (empty when none)'),
  ),
});
export type AdminClientDetail = v.InferOutput<typeof AdminClientDetailSchema>;
export const NewSecretSchema = v.object({
  secret_id: v.string(),
  client_secret: clientSecret,
  created_at: timestamp,
  expires_at: v.pipe(v.nullable(v.string()), v.description('ISO 8601, UTC; null: until retired')),
});

export const WebhookEndpointSchema = v.object({
  endpoint_id: v.string(),
  url: v.string(),
  created_at: timestamp,
  event_types: v.pipe(v.nullable(v.array(v.picklist(WEBHOOK_EVENT_TYPES))), v.description('null: every event type')),
  description: v.nullable(v.string()),
  disabled: v.pipe(v.boolean(), v.description('true: receives nothing (but a test send)')),
  disabled_at: nullableTimestamp,
});
export type WebhookEndpointView = v.InferOutput<typeof WebhookEndpointSchema>;
export const NewWebhookEndpointSchema = v.object({
  ...WebhookEndpointSchema.entries,
  secret: v.pipe(v.string(), v.description('`whsec_...`: verifies the signature of every delivery; shown this once')),
});
export const WebhookEndpointListSchema = v.object({ endpoints: v.array(WebhookEndpointSchema) });

/** What POST /api/admin/webhooks/{endpoint_id}/secret answers. */
export const WebhookSecretSchema = v.object({
  secret: v.pipe(
    v.string(),
    v.description('The new `whsec_...` secret, shown this once; the old one also signs every message for 24 hours'),
  ),
});

/** What POST /api/admin/webhooks/{endpoint_id}/test answers: that one attempt. */
export const WebhookTestResultSchema = v.object({
  response_status: v.pipe(v.nullable(v.number()), v.description("The endpoint's HTTP status; null when it did not answer")),
  duration_ms: v.pipe(v.nullable(v.number()), v.description('From the start of the attempt to its answer (or failure)')),
  error: v.pipe(
    v.nullable(v.string()),
    v.description("Null on a 2xx; else what failed, naming at most the URL's scheme, host and port"),
  ),
});

/** What POST /api/admin/runs/{run_id}/redeliver answers. */
export const RunRedeliverySchema = v.object({
  run_id: v.string(),
  status: v.pipe(
    v.literal('pending'),
    v.description('The run is on its way again (a run still pending keeps its one chain of attempts)'),
  ),
});
export type RunRedelivery = v.InferOutput<typeof RunRedeliverySchema>;

export const AuditEventSchema = v.object({
  at: timestamp,
  actor: v.pipe(v.string(), v.description('The admin\'s email (or the provider\'s username), or "cli"')),
  action: v.picklist(AUDIT_ACTIONS),
  target: v.object({ type: v.picklist(['client', 'webhook', 'admin', 'run', 'knap']), id: v.string() }),
  source_ip: v.pipe(v.nullable(v.string()), v.description('null for the CLI')),
});
export const AuditPageSchema = v.object({
  events: v.array(AuditEventSchema),
  next_cursor: v.pipe(v.nullable(v.string()), v.description('Pass as `cursor` for the next page; null at the end')),
});

const parseObject = <S extends v.GenericSchema>(schema: S, body: unknown): v.InferOutput<S> => {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw badRequest('Request body must be a JSON object');
  const parsed = v.safeParse(schema, body);
  if (!parsed.success) throw badRequest(issueMessage(parsed.issues[0]));
  return parsed.output;
};

export const parseCreateClient = (body: unknown): CreateClientRequest => parseObject(CreateClientRequestSchema, body);
export const parseUpdateClient = (body: unknown): UpdateClientRequest => parseObject(UpdateClientRequestSchema, body);
export const parseAddSecret = (body: unknown): AddSecretRequest =>
  body === undefined || body === null ? {} : parseObject(AddSecretRequestSchema, body);
export const parseAddWebhook = (body: unknown): AddWebhookRequest => parseObject(AddWebhookRequestSchema, body);
export const parseUpdateWebhook = (body: unknown): UpdateWebhookRequest => parseObject(UpdateWebhookRequestSchema, body);

/** PUT /api/admin/clients/{client_id}/jwks: checked in full by shared/domain/client-keys.ts. */
export const ClientJwksSchema = v.object({
  keys: v.pipe(
    v.array(v.record(v.string(), v.string())),
    v.maxLength(5),
    v.description('Public JWKs (RFC 7517): kty RSA (n, e), EC P-256 (crv, x, y) or OKP Ed25519 (crv, x); kid, alg, use optional'),
  ),
});
