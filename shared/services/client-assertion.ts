/**
 * private_key_jwt (RFC 7523 section 3, OpenID Connect Core section 9): a client assertion
 * verified by jose against the client's registered public keys (their own item, read only
 * here). Any failure is the same 401 as a wrong secret, and costs the client no quota.
 */
import { createLocalJWKSet, type JWK, jwtVerify } from 'jose';
import { ASSERTION_ALGORITHMS, ASSERTION_LEEWAY, MAX_ASSERTION_LIFETIME } from '../domain/client-keys.js';
import { epochSeconds } from '../domain/clock.js';
import { ApiError, MESSAGES } from '../errors.js';
import type { Deps } from '../runtime.js';

const refused = (): ApiError => new ApiError(401, MESSAGES.invalidClient);

/** The assertion's jti (to be used once), its exp (how long to remember it) and now. */
export interface AssertionId {
  id: string;
  expiresAt: number;
  now: number;
}

export const verifyClientAssertion = async (
  deps: Deps,
  clientId: string,
  assertion: string,
  audiences: string[],
): Promise<AssertionId> => {
  const jwks = await deps.repo.getClientJwks(clientId);
  if (!jwks || jwks.keys.length === 0) throw refused();
  const now = deps.clock.now();
  const nowSeconds = epochSeconds(now);
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(assertion, createLocalJWKSet({ keys: jwks.keys as JWK[] }), {
      // Asymmetric only: no `none`, no HS256 keyed with a public key.
      algorithms: [...ASSERTION_ALGORITHMS],
      issuer: clientId,
      subject: clientId,
      audience: audiences,
      clockTolerance: ASSERTION_LEEWAY,
      currentDate: now,
      requiredClaims: ['iss', 'sub', 'aud', 'exp', 'jti'],
    }));
  } catch {
    throw refused();
  }
  const { exp, iat, jti } = payload;
  if (typeof exp !== 'number' || exp > nowSeconds + MAX_ASSERTION_LIFETIME + ASSERTION_LEEWAY) throw refused();
  if (iat !== undefined && (typeof iat !== 'number' || iat > nowSeconds + ASSERTION_LEEWAY)) throw refused();
  if (typeof jti !== 'string' || jti === '' || jti.length > 255) throw refused();
  // Remembered until it could no longer pass the exp check, leeway included.
  return { id: jti, expiresAt: Math.ceil(exp) + ASSERTION_LEEWAY, now: nowSeconds };
};
