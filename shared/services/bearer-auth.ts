import type { ApiClient } from '../domain/clients.js';
import { epochSeconds } from '../domain/clock.js';
import type { RequestGuard } from '../domain/repository.js';
import { scopesWithin } from '../domain/scopes.js';
import type { TokenClaims } from '../domain/sealed-tokens.js';
import { isExpired, readToken, tokenScopes } from '../domain/tokens.js';
import { ApiError, bearerChallenge, MESSAGES } from '../errors.js';
import type { Deps } from '../runtime.js';
import { bearerToken, unauthorized } from './bearer-token.js';
import { meterOrRefuse } from './meter-or-refuse.js';
import type { Caller, RequestState } from './request-state.js';
import { knownToHaveEnded, standsInTable, storedTokensAccepted } from './token-standing.js';

/** What the token says of itself, checked: its client, the metering guard, its scope. */
interface TokenFacts {
  clientId: string;
  guard: RequestGuard;
  scope: string;
  /** A sealed token's claims, whose standing in the table is read beside the metering write. */
  sealed?: TokenClaims;
}

/**
 * A sealed token is checked here with no I/O (a forged one never reaches the table); a
 * token of the stored format (issued before sealing, while the deployment still accepts
 * them) is read from the table first.
 */
const tokenFacts = async (deps: Deps, token: string): Promise<TokenFacts> => {
  const presented = await readToken(token, 'access', deps.tokenKeys, storedTokensAccepted(deps));
  if (presented.format === 'invalid') throw unauthorized(MESSAGES.invalidAccessToken);
  if (presented.format === 'sealed') {
    const { claims } = presented;
    if (isExpired(claims, deps.clock)) throw unauthorized(MESSAGES.expiredAccessToken);
    if (knownToHaveEnded(claims, epochSeconds(deps.clock.now()))) throw unauthorized(MESSAGES.invalidAccessToken);
    const ids = claims.grantId ? [claims.tokenId, claims.grantId] : [claims.tokenId];
    // Tokens sealed by earlier versions may be revoked by a mark on the client item, which the metering write checks.
    const guard: RequestGuard =
      claims.version < 2 ? { generation: claims.generation, notRevoked: ids } : { generation: claims.generation };
    return { clientId: claims.clientId, guard, scope: claims.scope, sealed: claims };
  }
  const record = await deps.repo.getToken(presented.tokenHash);
  if (record?.kind !== 'access') throw unauthorized(MESSAGES.invalidAccessToken);
  if (isExpired(record, deps.clock)) throw unauthorized(MESSAGES.expiredAccessToken);
  return { clientId: record.clientId, guard: { generation: record.generation }, scope: record.scope };
};

/**
 * One round trip for a sealed token: the client's conditional metering write (active, on the
 * token's generation, within its limit) and the token's standing (not revoked), side by side.
 * A revoked token's count is handed back, so it never spends its client's quota. (Tokens of
 * the stored format take one read before the write.)
 *
 * `beside`: the route's own first read, started in the same round trip once the token's MAC
 * holds (a forged token starts nothing). What it reads is the route's to use only after this
 * returns: when authentication refuses, it is dropped unseen and the refusal is the same
 * whatever it found, so a failed token learns nothing of what exists.
 */
const ignore = (): void => {};

/** A revoked token is as unknown as a forged one: no count, and nothing said of the client's quota. */
const refuseRevoked = (state: RequestState): never => {
  state.rate = undefined;
  throw unauthorized(MESSAGES.invalidAccessToken);
};

export const authenticateBearer = async (
  deps: Deps,
  authorization: string | undefined,
  state: RequestState,
  beside?: (clientId: string) => void,
): Promise<Caller> => {
  const facts = await tokenFacts(deps, bearerToken(authorization));
  const standing = facts.sealed && standsInTable(deps.repo, facts.sealed);
  standing?.catch(ignore); // awaited below; the metering write may refuse first
  beside?.(facts.clientId);
  let client: ApiClient;
  try {
    client = await meterOrRefuse(deps, facts.clientId, facts.guard, state, {
      mismatch: MESSAGES.invalidatedAccessToken,
      unknown: MESSAGES.invalidAccessToken,
      challenge: true,
    });
  } catch (error) {
    // A failed read leaves the 429 as it is.
    if (standing && error instanceof ApiError && error.status === 429 && !(await standing.catch(() => true)))
      refuseRevoked(state);
    throw error;
  }
  if (standing && !(await standing)) {
    if (state.rate) await deps.repo.refundRequest(client.clientId, state.rate.window);
    refuseRevoked(state);
  }
  // A client narrowed since the token was issued: the token loses the removed scopes at once.
  const caller: Caller = { client, scopes: scopesWithin(tokenScopes(facts), client.scopes) };
  state.caller = caller;
  return caller;
};

export const requireScope = (caller: Caller, scope: string): void => {
  if (!caller.scopes.includes(scope)) {
    const detail = `This token lacks the scope "${scope}"`;
    throw new ApiError(403, detail, bearerChallenge(detail, 'insufficient_scope'));
  }
};
