/**
 * Secret rotation with overlap (contract, "Credentials without downtime"): a client has at
 * most MAX_LIVE_SECRETS live secrets; one is added (shown once) while the other still works,
 * then the old one is retired. Each change is one conditional write on the client item, made
 * only if the secrets are still as read (a concurrent change makes it try again), and audited.
 * Shared by the admin API (an organization's admin) and the CLI (any client).
 */
import type { Actor } from '../domain/audit.js';
import { type ApiClient, isLiveSecret, MAX_LIVE_SECRETS, MAX_SECRET_DAYS, newStoredSecret } from '../domain/clients.js';
import { isoSeconds } from '../domain/clock.js';
import { ApiError } from '../errors.js';
import type { Deps } from '../runtime.js';
import { recordAudit } from './audit-log.js';
import { knownId, notFound } from './org-admin.js';

export interface SecretView {
  secret_id: string;
  created_at: string;
  last_used_at: string | null;
  expires_at: string | null;
}

export interface NewSecret {
  secret_id: string;
  client_secret: string;
  created_at: string;
  expires_at: string | null;
}

/** A concurrent change of the same client's secrets: read again, at most this often. */
const ATTEMPTS = 3;

export const secretViews = (client: Pick<ApiClient, 'secrets'>): SecretView[] =>
  client.secrets.map((secret) => ({
    secret_id: secret.secretId,
    created_at: secret.createdAt,
    last_used_at: secret.lastUsedAt,
    expires_at: secret.expiresAt,
  }));

/** The client if it may change (`orgName`: only within that organization; a revoked client is a 409). */
const changeable = async (deps: Deps, clientId: string, orgName: string | undefined): Promise<ApiClient> => {
  knownId(clientId, 'API client');
  const client = await deps.repo.getClient(clientId);
  if (!client || (orgName !== undefined && client.orgName !== orgName)) throw notFound('API client', clientId);
  if (client.status === 'revoked') throw new ApiError(409, `API client ${clientId} is revoked; revocation is permanent`);
  return client;
};

export const validateExpiresInDays = (days: number | undefined): number | undefined => {
  if (days !== undefined && (!Number.isInteger(days) || days < 1 || days > MAX_SECRET_DAYS)) {
    throw new ApiError(400, `expires_in_days must be a whole number from 1 to ${MAX_SECRET_DAYS}`);
  }
  return days;
};

/** A second live secret beside the current one; a third is a 409. Expired secrets make room. */
export const addClientSecret = async (
  deps: Deps,
  actor: Actor,
  clientId: string,
  options: { orgName?: string; expiresInDays?: number },
): Promise<NewSecret> => {
  validateExpiresInDays(options.expiresInDays);
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const client = await changeable(deps, clientId, options.orgName);
    const now = deps.clock.now();
    const live = client.secrets.filter((secret) => isLiveSecret(secret, now));
    if (live.length >= MAX_LIVE_SECRETS) {
      throw new ApiError(
        409,
        `API client ${clientId} already has ${MAX_LIVE_SECRETS} live secrets: retire one (DELETE .../secrets/{secret_id}) first`,
      );
    }
    const expiresAt =
      options.expiresInDays === undefined ? null : isoSeconds(new Date(now.getTime() + options.expiresInDays * 86_400_000));
    const { secret, stored } = newStoredSecret(isoSeconds(now), expiresAt);
    const drop = client.secrets.filter((old) => !isLiveSecret(old, now)).map((old) => old.secretId);
    const changed = await deps.repo.changeClientSecrets(
      clientId,
      { kind: 'add', secret: stored, drop },
      client,
      isoSeconds(now),
      options.orgName,
    );
    if (!changed) continue;
    await recordAudit(deps, actor, client.orgName, 'client.add_secret', { type: 'client', id: clientId });
    return { secret_id: stored.secretId, client_secret: secret, created_at: stored.createdAt, expires_at: stored.expiresAt };
  }
  throw new ApiError(409, `The secrets of API client ${clientId} changed meanwhile; try again`);
};

/**
 * Retires a secret: refused at once (the metering write checks the secret's own entry). Tokens
 * issued with it live until they expire; refreshing them needs a live secret. The last live
 * secret stays (regenerate replaces it; a client with none could not authenticate).
 */
export const removeClientSecret = async (
  deps: Deps,
  actor: Actor,
  clientId: string,
  secretId: string,
  orgName?: string,
): Promise<void> => {
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    const client = await changeable(deps, clientId, orgName);
    const secret = client.secrets.find((candidate) => candidate.secretId === secretId);
    if (!secret) throw notFound('secret', secretId);
    const now = deps.clock.now();
    const othersLive = client.secrets.some((other) => other.secretId !== secretId && isLiveSecret(other, now));
    if (!othersLive) {
      throw new ApiError(409, `Secret ${secretId} is the client's only live secret: add another first, or regenerate`);
    }
    const changed = await deps.repo.changeClientSecrets(clientId, { kind: 'remove', secretId }, client, isoSeconds(now), orgName);
    if (!changed) continue;
    await recordAudit(deps, actor, client.orgName, 'client.remove_secret', { type: 'client', id: clientId });
    return;
  }
  throw new ApiError(409, `The secrets of API client ${clientId} changed meanwhile; try again`);
};
