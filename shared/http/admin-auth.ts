import { AdminTokenError } from '../auth/admin-token-error.js';
import { ApiError, bearerChallenge, rateLimited } from '../errors.js';
import { meterAdmin } from '../services/admin-meter.js';
import { bearerToken } from '../services/bearer-token.js';
import type { RequestStep } from './types.js';

/**
 * Authenticates an organization admin (`Authorization: Bearer <admin access token>`, a JWT of
 * the admin issuer) before anything else; the admin acts in the organization the token names.
 * An API client's access token is no JWT of that issuer: 401 like any other bad token. Then
 * the admin's request is counted (one conditional write; 429 at the per-admin limit).
 */
export const adminAuth: RequestStep = async (request) => {
  const { deps } = request.context;
  const token = bearerToken(request.event.headers?.authorization);
  if (!deps.adminTokens) throw new ApiError(503, 'Admin sign-in is not configured for this deployment');
  let identity: Awaited<ReturnType<typeof deps.adminTokens>>;
  try {
    identity = await deps.adminTokens(token);
  } catch (error) {
    if (error instanceof AdminTokenError) throw new ApiError(401, error.message, bearerChallenge(error.message, 'invalid_token'));
    throw error;
  }
  const { requestState } = request.context;
  const metered = await meterAdmin(deps, identity.orgName, identity.subject);
  requestState.rate = metered.rate;
  if (!metered.counted) throw rateLimited(metered.rate);
  requestState.admin = {
    orgName: identity.orgName,
    actor: { name: identity.actor, sourceIp: request.event.requestContext?.http?.sourceIp ?? null },
  };
};
