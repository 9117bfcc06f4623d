/**
 * Verifies an organization admin's access token (a JWT from the admin issuer: the local
 * OpenID Connect provider, Cognito, or a team's own) with jose: signature by the issuer's JWKS
 * (fetched once, cached, refetched when a new key id appears), issuer, audience, expiry. The
 * same code runs locally and deployed; API Gateway's JWT authorizer would answer 401 with
 * {"message"}, so the functions check the token themselves and answer {"detail"}.
 */
import { createRemoteJWKSet, errors, type JWTPayload, jwtVerify } from 'jose';
import { AdminTokenError } from './admin-token-error.js';

export interface AdminIssuerSettings {
  issuer: string;
  /** Checked against `aud`, or `client_id` where the token has no `aud` (Cognito's access tokens). */
  audience: string;
  /** The claim that names the admin's organization: a string, or a list of exactly one (Cognito groups). */
  orgClaim: string;
  /** Where the issuer publishes its keys; by default `<issuer>/.well-known/jwks.json` (Cognito's) unless given. */
  jwksUri?: string;
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

export type AdminTokenVerifier = (token: string) => Promise<AdminIdentity>;

/** `now`: the time tokens are judged at (tests move it); the system's by default. */
export const adminTokenVerifier = (settings: AdminIssuerSettings, now: () => Date = () => new Date()): AdminTokenVerifier => {
  const keys = createRemoteJWKSet(new URL(settings.jwksUri ?? `${settings.issuer.replace(/\/$/, '')}/.well-known/jwks.json`));
  return async (token) => {
    let payload: JWTPayload;
    try {
      ({ payload } = await jwtVerify(token, keys, { issuer: settings.issuer, clockTolerance: 5, currentDate: now() }));
    } catch (error) {
      if (error instanceof errors.JWTExpired) throw new AdminTokenError('Admin access token has expired');
      throw new AdminTokenError('Invalid admin access token');
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

/** ADMIN_ISSUER, ADMIN_AUDIENCE, ADMIN_ORG_CLAIM (default `org`), ADMIN_JWKS_URI; null when no issuer is set. */
export const adminIssuerFromEnv = (env: NodeJS.ProcessEnv = process.env): AdminIssuerSettings | null => {
  if (!env.ADMIN_ISSUER || !env.ADMIN_AUDIENCE) return null;
  return {
    issuer: env.ADMIN_ISSUER,
    audience: env.ADMIN_AUDIENCE,
    orgClaim: env.ADMIN_ORG_CLAIM || 'org',
    ...(env.ADMIN_JWKS_URI ? { jwksUri: env.ADMIN_JWKS_URI } : {}),
  };
};

/** The verifier the environment configures, or undefined when no admin issuer is set (admin routes then answer 503). */
export const adminTokensFromEnv = (env: NodeJS.ProcessEnv = process.env): AdminTokenVerifier | undefined => {
  const settings = adminIssuerFromEnv(env);
  return settings ? adminTokenVerifier(settings) : undefined;
};
