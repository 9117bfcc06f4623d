import { orgNameProblem } from '../domain/admins.js';
import { type Actor, type AuditAction, CLI_ACTOR } from '../domain/audit.js';
import {
  type ApiClient,
  type ClientSummary,
  createClient,
  MAX_RATE_LIMIT,
  type NewClientInput,
  newClientSecret,
  summarizeClient,
  UNSHOWABLE_TEXT,
} from '../domain/clients.js';
import { isoSeconds } from '../domain/clock.js';
import { hashCredential, newWriteToken } from '../domain/credentials.js';
import { canonicalScopes, isKnownScope, SCOPES } from '../domain/scopes.js';
import type { Deps } from '../runtime.js';
import { auditedCreate, recordAudit } from './audit-log.js';
import { releaseQuota, reserveQuota } from './quotas.js';

/** An admin mistake: the CLI prints the message on one line and exits non-zero. */
export class AdminError extends Error {}

export const validateRateLimit = (value: number): number => {
  if (!Number.isInteger(value) || value < 1 || value > MAX_RATE_LIMIT) {
    throw new AdminError(`Rate limit must be a whole number from 1 to ${MAX_RATE_LIMIT} (requests per minute), got ${value}`);
  }
  return value;
};

export interface ClientWithSecret extends ClientSummary {
  clientSecret: string;
}

/** Every change below is audited, by `actor` (the CLI unless an admin made it). */
/** A non-empty list of known scopes, old names accepted, under their current names. */
export const validateScopes = (scopes: readonly string[]): string[] => {
  const unknown = scopes.filter((scope) => !isKnownScope(scope));
  if (scopes.length === 0 || unknown.length > 0) {
    throw new AdminError(
      `Scopes must be one or more of ${SCOPES.join(', ')}${unknown.length > 0 ? `, got "${unknown[0]}"` : ''}`,
    );
  }
  return canonicalScopes(scopes);
};

export const createApiClient = async (deps: Deps, input: NewClientInput, actor: Actor = CLI_ACTOR): Promise<ClientWithSecret> => {
  if (input.rateLimit !== undefined) validateRateLimit(input.rateLimit);
  if (input.scopes !== undefined) validateScopes(input.scopes);
  const problem = orgNameProblem(input.orgName);
  if (problem) throw new AdminError(problem);
  for (const [field, text] of [
    ['--name', input.name],
    ['--description', input.description ?? ''],
  ] as const) {
    if (UNSHOWABLE_TEXT.test(text)) throw new AdminError(`${field} must not contain control characters or direction overrides`);
  }
  const { client, secret } = createClient(input, deps.clock);
  // Its place in the organization's quota first: a refusal writes nothing.
  await reserveQuota(deps, client.orgName, ['clients']);
  try {
    await auditedCreate(deps, actor, client.orgName, 'client.create', { type: 'client', id: client.clientId }, () =>
      deps.repo.putNewClient(client, newWriteToken()),
    );
  } catch (error) {
    // A new random id cannot clash: the write did not happen (a timeout may still land; kept then).
    if ((error as Error).name !== 'TimeoutError') await releaseQuota(deps, client.orgName, ['clients']);
    throw error;
  }
  return { ...summarizeClient(client), clientSecret: secret };
};

const audit = (deps: Deps, actor: Actor, client: ApiClient, action: AuditAction) =>
  recordAudit(deps, actor, client.orgName, action, { type: 'client', id: client.clientId });

export const listApiClients = async (deps: Deps, orgName: string): Promise<ClientSummary[]> =>
  (await deps.repo.listClientsByOrg(orgName)).map(summarizeClient);

const mustExist = (client: ApiClient | null, clientId: string): ApiClient => {
  if (!client) throw new AdminError(`No API client with id ${clientId}`);
  return client;
};

const revokedError = (clientId: string) => new AdminError(`API client ${clientId} is revoked; revocation is permanent`);

const requireActive = async (deps: Deps, clientId: string): Promise<ApiClient> => {
  const client = mustExist(await deps.repo.getClient(clientId), clientId);
  if (client.status === 'revoked') throw revokedError(clientId);
  return client;
};

/** A new secret; bumping the generation ends every access and refresh token in the same write. */
export const regenerateSecret = async (deps: Deps, clientId: string, actor: Actor = CLI_ACTOR): Promise<ClientWithSecret> => {
  await requireActive(deps, clientId);
  const secret = newClientSecret();
  const updated = await deps.repo.updateClient(
    clientId,
    { secretHash: hashCredential(secret), bumpGeneration: true },
    isoSeconds(deps.clock.now()),
  );
  const client = mustExist(updated, clientId);
  await audit(deps, actor, client, 'client.regenerate_secret');
  return { ...summarizeClient(client), clientSecret: secret };
};

/** Revoking twice is refused like any change to a revoked client (and like removing an endpoint twice). */
export const revokeClient = async (deps: Deps, clientId: string, actor: Actor = CLI_ACTOR): Promise<ClientSummary> => {
  const active = await requireActive(deps, clientId);
  // Only while active: of two racing revocations one wins, and only it gives the quota place back.
  const updated = await deps.repo.updateClient(
    clientId,
    { status: 'revoked', bumpGeneration: true },
    isoSeconds(deps.clock.now()),
    { orgName: active.orgName, active: true },
  );
  if (!updated) throw revokedError(clientId);
  const client = updated;
  // Side by side: neither waits for the other.
  await Promise.all([releaseQuota(deps, client.orgName, ['clients']), audit(deps, actor, client, 'client.revoke')]);
  return summarizeClient(client);
};

/** A limit of the client's own, or null to follow the deployment's default again. Refused for a revoked client, like a new secret. */
export const setRateLimit = async (
  deps: Deps,
  clientId: string,
  limit: number | null,
  actor: Actor = CLI_ACTOR,
): Promise<ClientSummary> => {
  if (limit !== null) validateRateLimit(limit);
  await requireActive(deps, clientId);
  const client = mustExist(await deps.repo.updateClient(clientId, { rateLimit: limit }, isoSeconds(deps.clock.now())), clientId);
  await audit(deps, actor, client, 'client.update');
  return summarizeClient(client);
};

/** Narrowing bites at once: every bearer request reads the client's scopes beside its token's. */
export const setScopes = async (
  deps: Deps,
  clientId: string,
  scopes: readonly string[],
  actor: Actor = CLI_ACTOR,
): Promise<ClientSummary> => {
  const chosen = validateScopes(scopes);
  await requireActive(deps, clientId);
  const client = mustExist(await deps.repo.updateClient(clientId, { scopes: chosen }, isoSeconds(deps.clock.now())), clientId);
  await audit(deps, actor, client, 'client.update');
  return summarizeClient(client);
};
