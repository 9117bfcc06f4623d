/** An organization admin's API clients (see org-admin.ts). */
import { orgNameProblem } from '../domain/admins.js';
import { type ClientSummary, effectiveRateLimit, newClientSecret } from '../domain/clients.js';
import { isoSeconds } from '../domain/clock.js';
import { hashCredential } from '../domain/credentials.js';
import { canonicalScopes, knownScopes } from '../domain/scopes.js';
import { ApiError, badRequest } from '../errors.js';
import type { Deps } from '../runtime.js';
import type { AdminClient, AdminClientDetail, CreateClientRequest, UpdateClientRequest } from '../schemas/admin.js';
import { AdminError, createApiClient } from './admin-service.js';
import { recordAudit } from './audit-log.js';
import { secretViews } from './client-secrets.js';
import { knownId, notFound } from './org-admin.js';
import { releaseQuota } from './quotas.js';
import type { OrgAdmin } from './request-state.js';

const clientView = (deps: Deps, client: ClientSummary): AdminClient => ({
  client_id: client.clientId,
  name: client.name,
  description: client.description,
  status: client.status,
  rate_limit: effectiveRateLimit(client, deps.defaultRateLimit),
  last_used_at: client.lastUsedAt,
  created_at: client.createdAt,
  user_id: client.userId,
  scopes: knownScopes(client.scopes),
});

/** One client of the organization: its secrets' ids and dates, and its public keys (read beside it). */
export const getOrgClient = async (deps: Deps, admin: OrgAdmin, clientId: string): Promise<AdminClientDetail> => {
  knownId(clientId, 'API client');
  const [client, jwks] = await Promise.all([deps.repo.getClient(clientId), deps.repo.getClientJwks(clientId)]);
  if (!client || client.orgName !== admin.orgName) throw notFound('API client', clientId);
  return { ...clientView(deps, client), secrets: secretViews(client), jwks: { keys: jwks?.keys ?? [] } };
};

export const listOrgClients = async (deps: Deps, admin: OrgAdmin): Promise<{ clients: AdminClient[] }> => {
  const clients = await deps.repo.listClientsByOrg(admin.orgName);
  return { clients: clients.map((client) => clientView(deps, client)) };
};

export const createOrgClient = async (
  deps: Deps,
  admin: OrgAdmin,
  input: CreateClientRequest,
): Promise<AdminClient & { client_secret: string }> => {
  // The organization comes from the token: one the table cannot hold is the provider's setup.
  const orgProblem = orgNameProblem(admin.orgName);
  if (orgProblem) throw new ApiError(403, `Your organization cannot have API clients: ${orgProblem}`);
  const created = await createApiClient(
    deps,
    {
      orgName: admin.orgName,
      name: input.name,
      description: input.description,
      rateLimit: input.rate_limit,
      userId: input.user_id,
      scopes: input.scopes && canonicalScopes(input.scopes),
    },
    admin.actor,
  ).catch((error: unknown) => {
    if (error instanceof AdminError) throw badRequest(error.message);
    throw error;
  });
  return { ...clientView(deps, created), client_secret: created.clientSecret };
};

/**
 * Why a conditional change of a client was refused: gone or of another organization (404),
 * or revoked (409). One GetItem, only after a refusal.
 */
const refusal = async (deps: Deps, admin: OrgAdmin, clientId: string): Promise<ApiError> => {
  const client = await deps.repo.getClient(clientId);
  if (!client || client.orgName !== admin.orgName) return notFound('API client', clientId);
  return new ApiError(409, `API client ${clientId} is revoked; revocation is permanent`);
};

/** A new secret; every token of the client dies in the same write (its generation moves on). */
export const regenerateOrgClientSecret = async (
  deps: Deps,
  admin: OrgAdmin,
  clientId: string,
): Promise<{ client_id: string; client_secret: string }> => {
  knownId(clientId, 'API client');
  const secret = newClientSecret();
  const updated = await deps.repo.updateClient(
    clientId,
    { secretHash: hashCredential(secret), bumpGeneration: true },
    isoSeconds(deps.clock.now()),
    { orgName: admin.orgName, active: true },
  );
  if (!updated) throw await refusal(deps, admin, clientId);
  await recordAudit(deps, admin.actor, admin.orgName, 'client.regenerate_secret', { type: 'client', id: clientId });
  return { client_id: clientId, client_secret: secret };
};

export const updateOrgClient = async (
  deps: Deps,
  admin: OrgAdmin,
  clientId: string,
  patch: UpdateClientRequest,
): Promise<AdminClient> => {
  knownId(clientId, 'API client');
  if (patch.name === undefined && patch.description === undefined && patch.rate_limit === undefined && !patch.scopes) {
    const client = await deps.repo.getClient(clientId);
    if (!client || client.orgName !== admin.orgName) throw notFound('API client', clientId);
    return clientView(deps, client);
  }
  const updated = await deps.repo.updateClient(
    clientId,
    {
      name: patch.name,
      description: patch.description,
      rateLimit: patch.rate_limit,
      scopes: patch.scopes && canonicalScopes(patch.scopes),
    },
    isoSeconds(deps.clock.now()),
    { orgName: admin.orgName, active: true },
  );
  if (!updated) throw await refusal(deps, admin, clientId);
  await recordAudit(deps, admin.actor, admin.orgName, 'client.update', { type: 'client', id: clientId });
  return clientView(deps, updated);
};

/** Revoked for good, every token with it; revoking a revoked client again changes nothing (DELETE is idempotent). */
export const revokeOrgClient = async (deps: Deps, admin: OrgAdmin, clientId: string): Promise<void> => {
  knownId(clientId, 'API client');
  const updated = await deps.repo.updateClient(
    clientId,
    { status: 'revoked', bumpGeneration: true },
    isoSeconds(deps.clock.now()),
    { orgName: admin.orgName, active: true },
  );
  if (!updated) {
    const why = await refusal(deps, admin, clientId);
    if (why.status === 404) throw why;
    return;
  }
  // This write revoked it (only while active): its quota place comes back once.
  // Side by side: neither waits for the other.
  await Promise.all([
    releaseQuota(deps, admin.orgName, ['clients']),
    recordAudit(deps, admin.actor, admin.orgName, 'client.revoke', { type: 'client', id: clientId }),
  ]);
};
