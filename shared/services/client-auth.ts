import { hashCredential } from '../domain/credentials.js';
import { ApiError, MESSAGES } from '../errors.js';
import type { Deps } from '../runtime.js';
import { meterOrRefuse, type RefusalWording } from './meter-or-refuse.js';
import type { RequestState } from './request-state.js';

const WORDING: RefusalWording = { mismatch: MESSAGES.invalidClient, unknown: MESSAGES.invalidClient, challenge: false };

export interface ClientAuthentication {
  clientId: string;
  clientSecret: string;
  clientAssertion?: string;
  assertionAudiences?: string[];
}

/**
 * The OAuth endpoints' client authentication (token, revocation, introspection): checks
 * the client and counts the request in one conditional write. A wrong secret fails that
 * write's condition, so it never burns the client's quota; an unknown client id and a wrong
 * secret take the same path and get the same answer. A client assertion (private_key_jwt) is
 * verified first (client-assertion.ts, loaded only when one comes).
 */
export const authenticateClient = async (deps: Deps, credentials: ClientAuthentication, state: RequestState) => {
  if (credentials.clientAssertion !== undefined) {
    const { verifyClientAssertion } = await import('./client-assertion.js');
    const jti = await verifyClientAssertion(
      deps,
      credentials.clientId,
      credentials.clientAssertion,
      credentials.assertionAudiences ?? [],
    );
    // The jti is recorded beside the metering write: one round trip; a replay hands its count back.
    const fresh = deps.repo.useAssertionId(credentials.clientId, jti.id, jti.expiresAt, jti.now);
    fresh.catch(() => {});
    const client = await meterOrRefuse(deps, credentials.clientId, { assertion: true }, state, WORDING);
    if (!(await fresh)) {
      if (state.rate) await deps.repo.refundRequest(client.clientId, state.rate.window);
      state.rate = undefined;
      throw new ApiError(401, MESSAGES.invalidClient);
    }
    return client;
  }
  return meterOrRefuse(deps, credentials.clientId, { secretHash: hashCredential(credentials.clientSecret) }, state, WORDING);
};
