import { AdminTokenError } from '../auth/admin-token-error.js';
import { ApiError, bearerChallenge } from '../errors.js';
import { bearerToken } from '../services/bearer-token.js';
import type { RequestStep } from './types.js';

/**
 * Authenticates an organization admin (`Authorization: Bearer <admin access token>`, a JWT of
 * the admin issuer) before anything else; the admin acts in the organization the token names.
 * An API client's access token is no JWT of that issuer: 401 like any other bad token.
 */
export const adminAuth: RequestStep = async (request) => {
  const { deps } = request.context;
  const token = bearerToken(request.event.headers?.authorization);
  if (!deps.adminTokens) throw new ApiError(503, 'Admin sign-in is not configured for this deployment');
  try {
    const identity = await deps.adminTokens(token);
    request.context.requestState.admin = {
      orgName: identity.orgName,
      actor: { name: identity.actor, sourceIp: request.event.requestContext?.http?.sourceIp ?? null },
    };
  } catch (error) {
    if (error instanceof AdminTokenError) throw new ApiError(401, error.message, bearerChallenge(error.message, 'invalid_token'));
    throw error;
  }
};
