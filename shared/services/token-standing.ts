/**
 * What the table says of a sealed token whose MAC holds: still standing, or revoked. One read
 * (a BatchGetItem of at most two small items), always made beside the client's metering write,
 * so it adds no depth to a request.
 */
import type { Repository } from '../domain/repository.js';
import type { TokenClaims } from '../domain/sealed-tokens.js';
import { ACCESS_TOKEN_TTL_SECONDS, acceptsStoredTokens } from '../domain/tokens.js';
import type { Deps } from '../runtime.js';

/**
 * Tokens this container has seen ended, to the epoch second they would have expired anyway:
 * an ending is for good, so a token seen once is refused from then on with no I/O (a flood of
 * requests with a revoked token costs the table, and its client's quota, nothing). Bounded:
 * when full it starts again, which costs only reads.
 */
const knownEnded = new Map<string, number>();
const MAX_KNOWN_ENDED = 10_000;

/** Whether this container already knows the token has ended (see knownEnded). */
export const knownToHaveEnded = (claims: TokenClaims, nowSeconds: number): boolean =>
  (knownEnded.get(claims.tokenId) ?? 0) > nowSeconds;

const rememberEnded = (claims: TokenClaims): void => {
  if (knownEnded.size >= MAX_KNOWN_ENDED) knownEnded.clear();
  knownEnded.set(claims.tokenId, claims.expiresAt);
};

/** Refresh tokens of version 2 on have a grant item; older ones were never stored. */
const hasGrantItem = (claims: TokenClaims): boolean => claims.kind === 'refresh' && claims.version >= 2;

/**
 * True while nothing in the table ends the token: neither it nor its grant is revoked, and
 * (for a refresh token that has one) its grant item is there, of its client.
 */
export const standsInTable = async (repo: Repository, claims: TokenClaims): Promise<boolean> => {
  const ids = [...(claims.kind === 'access' ? [claims.tokenId] : []), ...(claims.grantId ? [claims.grantId] : [])];
  const needsGrant = hasGrantItem(claims);
  const standing = await repo.tokenStanding({
    grantKey: needsGrant ? (claims.grantKey ?? undefined) : undefined,
    revocationIds: ids,
  });
  const stands = !standing.revoked && (!needsGrant || standing.grant?.clientId === claims.clientId);
  if (!stands) rememberEnded(claims);
  return stands;
};

/**
 * Revokes a sealed token for good. An access token: its id, until it expires. A refresh token:
 * its grant id, until the last access token issued through it has expired too, and then its
 * grant item goes. The revocation is written first, so a failure between the two writes still
 * leaves the grant ended.
 */
export const revokeSealed = async (repo: Repository, claims: TokenClaims): Promise<void> => {
  if (claims.kind === 'access' || !claims.grantId) {
    await repo.putRevocations({ [claims.tokenId]: claims.expiresAt });
    return;
  }
  await repo.putRevocations({ [claims.grantId]: claims.expiresAt + ACCESS_TOKEN_TTL_SECONDS });
  if (hasGrantItem(claims) && claims.grantKey) await repo.deleteGrant(claims.grantKey);
};

/** Whether this deployment still looks up tokens of the stored format (see acceptsStoredTokens). */
export const storedTokensAccepted = (deps: Deps): boolean => acceptsStoredTokens(deps.storedTokensUntil, deps.clock);
