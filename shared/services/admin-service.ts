import {
  type ApiClient,
  type ClientSummary,
  createClient,
  MAX_RATE_LIMIT,
  type NewClientInput,
  newClientSecret,
  summarizeClient,
} from '../domain/clients.js';
import { isoSeconds } from '../domain/clock.js';
import { hashCredential } from '../domain/credentials.js';
import type { Deps } from '../runtime.js';

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

export const createApiClient = async (deps: Deps, input: NewClientInput): Promise<ClientWithSecret> => {
  if (input.rateLimit !== undefined) validateRateLimit(input.rateLimit);
  const { client, secret } = createClient(input, deps.clock);
  await deps.repo.putNewClient(client);
  return { ...summarizeClient(client), clientSecret: secret };
};

export const listApiClients = async (deps: Deps, orgName: string): Promise<ClientSummary[]> =>
  (await deps.repo.listClientsByOrg(orgName)).map(summarizeClient);

const mustExist = (client: ApiClient | null, clientId: string): ApiClient => {
  if (!client) throw new AdminError(`No API client with id ${clientId}`);
  return client;
};

const requireActive = async (deps: Deps, clientId: string): Promise<void> => {
  const client = mustExist(await deps.repo.getClient(clientId), clientId);
  if (client.status === 'revoked') throw new AdminError(`API client ${clientId} is revoked; revocation is permanent`);
};

/** A new secret; bumping the generation ends every access and refresh token in the same write. */
export const regenerateSecret = async (deps: Deps, clientId: string): Promise<ClientWithSecret> => {
  await requireActive(deps, clientId);
  const secret = newClientSecret();
  const client = await deps.repo.updateClient(
    clientId,
    { secretHash: hashCredential(secret), bumpGeneration: true },
    isoSeconds(deps.clock.now()),
  );
  return { ...summarizeClient(mustExist(client, clientId)), clientSecret: secret };
};

export const revokeClient = async (deps: Deps, clientId: string): Promise<ClientSummary> => {
  const client = await deps.repo.updateClient(
    clientId,
    { status: 'revoked', bumpGeneration: true },
    isoSeconds(deps.clock.now()),
  );
  return summarizeClient(mustExist(client, clientId));
};

/** A limit of the client's own, or null to follow the deployment's default again. Refused for a revoked client, like a new secret. */
export const setRateLimit = async (deps: Deps, clientId: string, limit: number | null): Promise<ClientSummary> => {
  if (limit !== null) validateRateLimit(limit);
  await requireActive(deps, clientId);
  const client = await deps.repo.updateClient(clientId, { rateLimit: limit }, isoSeconds(deps.clock.now()));
  return summarizeClient(mustExist(client, clientId));
};
