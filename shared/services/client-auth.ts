import { hashCredential } from '../domain/credentials.js';
import { MESSAGES } from '../errors.js';
import type { Deps } from '../runtime.js';
import { meterOrRefuse } from './meter-or-refuse.js';
import type { RequestState } from './request-state.js';

/**
 * The OAuth endpoints' client authentication (token, revocation, introspection): checks
 * the client and counts the request in one conditional write. A wrong secret fails that
 * write's condition, so it never burns the client's quota; an unknown client id and a wrong
 * secret take the same path and get the same answer.
 */
export const authenticateClient = (deps: Deps, credentials: { clientId: string; clientSecret: string }, state: RequestState) =>
  meterOrRefuse(deps, credentials.clientId, { secretHash: hashCredential(credentials.clientSecret) }, state, {
    mismatch: MESSAGES.invalidClient,
    unknown: MESSAGES.invalidClient,
    challenge: false,
  });
