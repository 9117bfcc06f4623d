import * as v from 'valibot';
import { GRANT_TYPES, type GrantType, type TokenOperation, type TokenRequest } from '../domain/tokens.js';
import { badRequest, MESSAGES } from '../errors.js';
import { clientCredentials } from './client-auth.js';

const field = (name: string) =>
  v.optional(v.pipe(v.string(`Parameter ${name} must be given once`), v.maxLength(1000, `Parameter ${name} is too long`)));

const assertionFields = {
  client_assertion_type: v.pipe(
    field('client_assertion_type'),
    v.description('private_key_jwt: urn:ietf:params:oauth:client-assertion-type:jwt-bearer'),
  ),
  client_assertion: v.pipe(
    v.optional(
      v.pipe(
        v.string('Parameter client_assertion must be given once'),
        v.maxLength(8000, 'Parameter client_assertion is too long'),
      ),
    ),
    v.description('private_key_jwt: a JWT signed with a key registered for the client (RFC 7523)'),
  ),
};

/** No length limit here: an over-long client id is an unknown client, a 401 (ClientIdSchema). */
const clientIdField = v.optional(v.string('Parameter client_id must be given once'));

/** The token endpoint's form (RFC 6749 section 4.4 and 6). Unknown fields are ignored, as OAuth requires. */
export const TokenFormSchema = v.looseObject({
  grant_type: v.pipe(field('grant_type'), v.description("'client_credentials' or 'refresh_token'")),
  client_id: clientIdField,
  client_secret: field('client_secret'),
  ...assertionFields,
  refresh_token: field('refresh_token'),
  scope: field('scope'),
});

export type TokenForm = v.InferOutput<typeof TokenFormSchema>;

const isGrantType = (value: string | undefined): value is GrantType => (GRANT_TYPES as readonly string[]).includes(value ?? '');

/** Validates the parsed form and the Authorization header into a token request. */
/**
 * What a client assertion's `aud` may be here (RFC 7523 section 3): the token endpoint's URL
 * or the issuer (OpenID Connect Core section 9), and the URL of the endpoint it was sent to.
 */
export const assertionAudiences = (issuer: string, path: string): string[] => [
  ...new Set([`${issuer}/api/oauth/token`, issuer, `${issuer}${path}`]),
];

export const parseTokenRequest = (body: unknown, authorization: string | undefined, audiences: string[] = []): TokenRequest => {
  const parsed = v.safeParse(TokenFormSchema, body ?? {});
  if (!parsed.success) throw badRequest(parsed.issues[0].message);
  const form = parsed.output;
  if (!isGrantType(form.grant_type)) throw badRequest(MESSAGES.unsupportedGrant);
  const credentials = clientCredentials(form, authorization);
  if (form.grant_type === 'refresh_token' && !form.refresh_token) {
    throw badRequest('Missing required parameter: refresh_token');
  }
  return {
    grantType: form.grant_type,
    ...credentials,
    refreshToken: form.refresh_token,
    scope: form.scope,
    assertionAudiences: audiences,
  };
};

/** The revocation (RFC 7009) and introspection (RFC 7662) form. */
export const TokenOperationFormSchema = v.looseObject({
  token: v.pipe(field('token'), v.description('The access or refresh token')),
  token_type_hint: v.pipe(field('token_type_hint'), v.description("'access_token' or 'refresh_token'; a hint only")),
  client_id: clientIdField,
  client_secret: field('client_secret'),
  ...assertionFields,
});

/** Validates a revocation or introspection request: the client's credentials and the token. */
export const parseTokenOperation = (
  body: unknown,
  authorization: string | undefined,
  audiences: string[] = [],
): TokenOperation => {
  const parsed = v.safeParse(TokenOperationFormSchema, body ?? {});
  if (!parsed.success) throw badRequest(parsed.issues[0].message);
  const credentials = clientCredentials(parsed.output, authorization);
  if (!parsed.output.token) throw badRequest('Missing required parameter: token');
  return { ...credentials, token: parsed.output.token, assertionAudiences: audiences };
};
