/**
 * Verifies an organization admin's access token (a JWT from the admin issuer: the local
 * OpenID Connect provider, Cognito, or a team's own) with jose: signature by the issuer's JWKS
 * (fetched once, cached, refetched when a new key id appears), issuer, audience, expiry, and
 * that it is an access token, never an ID token. The same code runs locally and deployed; API
 * Gateway's JWT authorizer would answer 401 with {"message"}, so the functions check the token
 * themselves and answer {"detail"}.
 */
import { createRemoteJWKSet, errors, type JWTHeaderParameters, type JWTPayload, jwtVerify } from 'jose';
import { AdminTokenError } from './admin-token-error.js';

export interface AdminIssuerSettings {
  issuer: string;
  /** Checked against `aud`, or `client_id` where the token has no `aud` (Cognito's access tokens). */
  audience: string;
  /** The claim that names the admin's organization: a string, or a list of exactly one (Cognito groups). */
  orgClaim: string;
  /** Where the issuer publishes its keys; by default `<issuer>/.well-known/jwks.json` (Cognito's) unless given. */
  jwksUri?: string;
  /**
   * What marks the issuer's access tokens (an ID token must never pass, whatever its audience):
   * `typ:<media type>` (the JWS header's `typ`, RFC 9068's `at+jwt`), `claim:<name>` (present) or
   * `claim:<name>=<value>`. By default `typ:at+jwt`, or `token_use` = `access` (Cognito's).
   */
  accessTokenMark?: string;
}

/** Who is calling the admin API, as the token proves. */
export interface AdminIdentity {
  /** The admin's e-mail, or the provider's username where the token has none (Cognito access tokens). */
  actor: string;
  orgName: string;
  subject: string;
}

export { AdminTokenError };

const stringClaim = (payload: JWTPayload, name: string): string | undefined => {
  const value = payload[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
};

const orgOf = (payload: JWTPayload, claim: string): string | undefined => {
  const value = payload[claim];
  if (typeof value === 'string' && value !== '') return value;
  if (Array.isArray(value) && value.length === 1 && typeof value[0] === 'string' && value[0] !== '') return value[0];
  return undefined;
};

/** A token that names its use (Cognito's `token_use`) must name access, whatever the mark says. */
const TOKEN_USE = 'token_use';

/** The JWS `typ` as RFC 9068 compares it: case-insensitive, `application/` optional. */
const mediaType = (value: unknown): string | undefined =>
  typeof value === 'string' ? value.toLowerCase().replace(/^application\//, '') : undefined;

export type AccessTokenMark = (header: JWTHeaderParameters, payload: JWTPayload) => boolean;

/** The check a mark setting names; throws on a setting it cannot read (a deployment mistake, found at cold start). */
export const accessTokenMark = (setting: string | undefined): AccessTokenMark => {
  if (setting === undefined || setting === '') {
    return (header, payload) => mediaType(header.typ) === 'at+jwt' || payload[TOKEN_USE] === 'access';
  }
  const typ = /^typ:(.+)$/.exec(setting);
  if (typ) {
    const wanted = mediaType(typ[1]);
    return (header) => mediaType(header.typ) === wanted;
  }
  const claim = /^claim:([^=]+)(?:=(.*))?$/.exec(setting);
  if (claim) {
    const [, name, value] = claim as unknown as [string, string, string | undefined];
    return (_header, payload) =>
      value === undefined ? payload[name] !== undefined && payload[name] !== '' : payload[name] === value;
  }
  throw new Error(`ADMIN_ACCESS_TOKEN_MARK must be typ:<type>, claim:<name> or claim:<name>=<value>, got ${setting}`);
};

export type AdminTokenVerifier = (token: string) => Promise<AdminIdentity>;

/** `now`: the time tokens are judged at (tests move it); the system's by default. */
export const adminTokenVerifier = (settings: AdminIssuerSettings, now: () => Date = () => new Date()): AdminTokenVerifier => {
  const keys = createRemoteJWKSet(new URL(settings.jwksUri ?? `${settings.issuer.replace(/\/$/, '')}/.well-known/jwks.json`));
  const isAccessToken = accessTokenMark(settings.accessTokenMark);
  return async (token) => {
    let payload: JWTPayload;
    let header: JWTHeaderParameters;
    try {
      ({ payload, protectedHeader: header } = await jwtVerify(token, keys, {
        issuer: settings.issuer,
        clockTolerance: 5,
        currentDate: now(),
      }));
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw new AdminTokenError('Admin access token has expired');
      throw new AdminTokenError('Invalid admin access token');
    }
    // An ID token says who signed in to the console, not that the admin API was granted: the
    // console's own client id is often both its audience and the access token's `client_id`.
    const use = payload[TOKEN_USE];
    if ((use !== undefined && use !== 'access') || !isAccessToken(header, payload)) {
      throw new AdminTokenError('Not an access token: send the access token, not the ID token');
    }
    const audiences = [payload.aud ?? stringClaim(payload, 'client_id')].flat();
    if (!audiences.includes(settings.audience)) throw new AdminTokenError('Invalid admin access token');
    const orgName = orgOf(payload, settings.orgClaim);
    const subject = payload.sub;
    const actor = stringClaim(payload, 'email') ?? stringClaim(payload, 'username') ?? subject;
    if (!orgName || !subject || !actor) throw new AdminTokenError('This admin access token names no single organization');
    return { actor, orgName, subject };
  };
};

/** ADMIN_ISSUER, ADMIN_AUDIENCE, ADMIN_ORG_CLAIM (default `org`), ADMIN_JWKS_URI, ADMIN_ACCESS_TOKEN_MARK; null when no issuer is set. */
export const adminIssuerFromEnv = (env: NodeJS.ProcessEnv = process.env): AdminIssuerSettings | null => {
  if (!env.ADMIN_ISSUER || !env.ADMIN_AUDIENCE) return null;
  return {
    issuer: env.ADMIN_ISSUER,
    audience: env.ADMIN_AUDIENCE,
    orgClaim: env.ADMIN_ORG_CLAIM || 'org',
    ...(env.ADMIN_JWKS_URI ? { jwksUri: env.ADMIN_JWKS_URI } : {}),
    ...(env.ADMIN_ACCESS_TOKEN_MARK ? { accessTokenMark: env.ADMIN_ACCESS_TOKEN_MARK } : {}),
  };
};

/** The verifier the environment configures, or undefined when no admin issuer is set (admin routes then answer 503). */
export const adminTokensFromEnv = (env: NodeJS.ProcessEnv = process.env): AdminTokenVerifier | undefined => {
  const settings = adminIssuerFromEnv(env);
  return settings ? adminTokenVerifier(settings) : undefined;
};
