/**
 * Client authentication at the OAuth endpoints (token, revocation, introspection): the
 * client id and secret in the form (client_secret_post) or in HTTP Basic
 * (client_secret_basic, RFC 6749 section 2.3.1), or a signed assertion (private_key_jwt,
 * RFC 7523), one method per request.
 */
import * as v from 'valibot';
import { CLIENT_ASSERTION_TYPE } from '../domain/client-keys.js';
import { ApiError, badRequest, MESSAGES } from '../errors.js';

/** The form fields of client authentication, as the form schemas read them. */
export interface ClientAuthForm {
  client_id?: string;
  client_secret?: string;
  client_assertion_type?: string;
  client_assertion?: string;
}

export interface ClientCredentials {
  clientId: string;
  /** Empty when the client authenticates with an assertion. */
  clientSecret: string;
  /** private_key_jwt: the signed JWT (RFC 7523 section 2.2), verified by the service. */
  clientAssertion?: string;
}

/** The client an assertion names (its `iss`), read unverified only to find the keys to verify it with. */
const assertionIssuer = (assertion: string): string | undefined => {
  const payload = assertion.split('.')[1];
  if (payload === undefined) return undefined;
  try {
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { iss?: unknown };
    return typeof claims.iss === 'string' ? claims.iss : undefined;
  } catch {
    return undefined;
  }
};

/** private_key_jwt: the assertion in place of a secret, alone (no Basic header, no secret). */
const assertionCredentials = (form: ClientAuthForm, authorization: string | undefined): ClientCredentials => {
  if (form.client_assertion_type !== CLIENT_ASSERTION_TYPE) {
    throw badRequest(`client_assertion_type must be ${CLIENT_ASSERTION_TYPE}`);
  }
  if (!form.client_assertion) throw badRequest('Missing required parameter: client_assertion');
  if (authorization || form.client_secret !== undefined) {
    throw badRequest('Authenticate with one method: a client assertion, or a client secret, not both');
  }
  const issuer = assertionIssuer(form.client_assertion);
  const clientId = form.client_id ?? issuer;
  if (!clientId || !v.is(ClientIdSchema, clientId) || clientId !== issuer) throw new ApiError(401, MESSAGES.invalidClient);
  return { clientId, clientSecret: '', clientAssertion: form.client_assertion };
};

interface BasicCredentials {
  clientId?: string;
  clientSecret?: string;
}

/** client_secret_basic: `Basic base64(urlencode(id) ":" urlencode(secret))` (RFC 6749 section 2.3.1). */
const basicCredentials = (authorization: string | undefined): BasicCredentials | null => {
  if (!authorization) return null;
  const match = /^Basic +([A-Za-z0-9+/]+=*) *$/i.exec(authorization);
  if (!match?.[1]) throw new ApiError(401, MESSAGES.invalidClient);
  const decoded = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  try {
    if (colon < 0) throw new Error('no colon');
    return {
      clientId: decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')),
      clientSecret: decodeURIComponent(decoded.slice(colon + 1).replace(/\+/g, ' ')),
    };
  } catch {
    throw new ApiError(401, MESSAGES.invalidClient);
  }
};

/**
 * What a client id can be: ours are visible ASCII (newClientId), and a sealed token holds at
 * most 255 bytes of one. Anything else is refused as an unknown client, before any lookup:
 * DynamoDB answers a key over 2,048 bytes with an error, not a miss. Client ids are public,
 * so answering sooner than a lookup would gives nothing away.
 */
export const ClientIdSchema = v.pipe(v.string(), v.regex(/^[\x21-\x7e]{1,255}$/));

/** One client authentication method per request (RFC 6749 section 2.3). */
export const clientCredentials = (form: ClientAuthForm, authorization: string | undefined): ClientCredentials => {
  if (form.client_assertion !== undefined || form.client_assertion_type !== undefined) {
    return assertionCredentials(form, authorization);
  }
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
  if (!v.is(ClientIdSchema, clientId)) throw new ApiError(401, MESSAGES.invalidClient);
  return { clientId, clientSecret };
};
