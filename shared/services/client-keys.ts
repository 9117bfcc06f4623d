/**
 * A client's public keys for private_key_jwt: registered by an admin (or the CLI), kept on an
 * item of their own beside the client item, so no request but a client assertion reads them.
 */
import type { Actor } from '../domain/audit.js';
import { type PublicJwk, parseClientJwks } from '../domain/client-keys.js';
import { isoSeconds } from '../domain/clock.js';
import { ApiError, badRequest } from '../errors.js';
import type { Deps } from '../runtime.js';
import { recordAudit } from './audit-log.js';
import { knownId, notFound } from './org-admin.js';

/** Replaces the client's keys with `body.keys` (an empty list removes them); audited. */
export const setClientJwks = async (
  deps: Deps,
  actor: Actor,
  clientId: string,
  body: unknown,
  orgName?: string,
): Promise<{ keys: PublicJwk[] }> => {
  knownId(clientId, 'API client');
  let keys: PublicJwk[];
  try {
    keys = parseClientJwks(body);
  } catch (error) {
    throw badRequest((error as Error).message);
  }
  const client = await deps.repo.getClient(clientId);
  if (!client || (orgName !== undefined && client.orgName !== orgName)) throw notFound('API client', clientId);
  if (client.status === 'revoked') throw new ApiError(409, `API client ${clientId} is revoked; revocation is permanent`);
  await deps.repo.putClientJwks(clientId, { keys, updatedAt: isoSeconds(deps.clock.now()) });
  await recordAudit(deps, actor, client.orgName, 'client.set_jwks', { type: 'client', id: clientId });
  return { keys };
};
