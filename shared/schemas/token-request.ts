import * as v from 'valibot';
import { GRANT_TYPES, type GrantType, type TokenRequest } from '../domain/tokens.js';
import { ApiError, badRequest, MESSAGES } from '../errors.js';

const field = (name: string) =>
  v.optional(v.pipe(v.string(`Parameter ${name} must be given once`), v.maxLength(1000, `Parameter ${name} is too long`)));

/** The token endpoint's form (RFC 6749 section 4.4 and 6). Unknown fields are ignored, as OAuth requires. */
export const TokenFormSchema = v.looseObject({
  grant_type: v.pipe(field('grant_type'), v.description("'client_credentials' or 'refresh_token'")),
  client_id: field('client_id'),
  client_secret: field('client_secret'),
  refresh_token: field('refresh_token'),
  scope: field('scope'),
});

export type TokenForm = v.InferOutput<typeof TokenFormSchema>;

const isGrantType = (value: string | undefined): value is GrantType => (GRANT_TYPES as readonly string[]).includes(value ?? '');

interface ClientCredentials {
  clientId?: string;
  clientSecret?: string;
}

/** client_secret_basic: `Basic base64(urlencode(id) ":" urlencode(secret))` (RFC 6749 section 2.3.1). */
const basicCredentials = (authorization: string | undefined): ClientCredentials | null => {
  if (!authorization) return null;
  const match = /^Basic +([A-Za-z0-9+/]+=*) *$/i.exec(authorization);
  if (!match?.[1]) throw new ApiError(401, MESSAGES.invalidClient, { 'WWW-Authenticate': 'Basic realm="knap"' });
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  try {
    if (colon < 0) throw new Error('no colon');
    return {
      clientId: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
      clientSecret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
    };
  } catch {
    throw new ApiError(401, MESSAGES.invalidClient, { 'WWW-Authenticate': 'Basic realm="knap"' });
  }
};

/** One client authentication method per request (RFC 6749 section 2.3). */
const clientCredentials = (form: TokenForm, authorization: string | undefined): { clientId: string; clientSecret: string } => {
  const basic = basicCredentials(authorization);
  if (basic && form.client_secret !== undefined) {
    throw badRequest('Send the client secret either in the Authorization header or in the form, not both');
  }
  if (basic && form.client_id !== undefined && form.client_id !== basic.clientId) {
    throw badRequest('client_id in the form does not match the Authorization header');
  }
  const clientId = basic?.clientId ?? form.client_id;
  const clientSecret = basic?.clientSecret ?? form.client_secret;
  if (!clientId) throw badRequest('Missing required parameter: client_id');
  if (!clientSecret) throw badRequest('Missing required parameter: client_secret');
  return { clientId, clientSecret };
};

/** Validates the parsed form and the Authorization header into a token request. */
export const parseTokenRequest = (body: unknown, authorization: string | undefined): TokenRequest => {
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
  };
};
