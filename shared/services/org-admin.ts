/**
 * The admin API's use cases: an organization admin manages the API clients, webhook endpoints
 * and runs of their own organization, and reads its audit log. Anything of another
 * organization is a 404, decided in the same conditional write that would change it (or the
 * query that lists it), never by a read first. Every change is audited with the admin's name
 * and address.
 */
import { orgNameProblem } from '../domain/admins.js';
import { type ClientSummary, effectiveRateLimit, newClientSecret } from '../domain/clients.js';
import { isoSeconds } from '../domain/clock.js';
import { hashCredential } from '../domain/credentials.js';
import type { PageRequest } from '../domain/repository.js';
import type { AdminRun, AdminRunPage, DeliveryAttemptEntry, StoredRun } from '../domain/runs.js';
import { ApiError, badRequest } from '../errors.js';
import type { Deps } from '../runtime.js';
import type {
  AdminClient,
  CreateClientRequest,
  RunRedelivery,
  UpdateClientRequest,
  WebhookEndpointView,
} from '../schemas/admin.js';
import { AdminError, createApiClient } from './admin-service.js';
import { listAuditLog, recordAudit } from './audit-log.js';
import { deliverySettingsFromEnv } from './delivery.js';
import { readPage } from './paging.js';
import type { OrgAdmin } from './request-state.js';
import { addWebhook, listWebhooks } from './webhook-admin.js';

/** Longer ids than any this API makes are unknown without a read (DynamoDB keys stop at 2 KB). */
const MAX_ID_LENGTH = 128;

const notFound = (what: string, id: string): ApiError =>
  new ApiError(404, `No ${what} with id ${id.length > MAX_ID_LENGTH ? `${id.slice(0, 32)}…` : id} in your organization`);

const clientView = (deps: Deps, client: ClientSummary): AdminClient => ({
  client_id: client.clientId,
  name: client.name,
  description: client.description,
  status: client.status,
  rate_limit: effectiveRateLimit(client, deps.defaultRateLimit),
  last_used_at: client.lastUsedAt,
  created_at: client.createdAt,
  user_id: client.userId,
});

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

const knownId = (id: string, what: string): void => {
  if (id === '' || id.length > MAX_ID_LENGTH) throw notFound(what, id);
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
  if (patch.name === undefined && patch.description === undefined && patch.rate_limit === undefined) {
    const client = await deps.repo.getClient(clientId);
    if (!client || client.orgName !== admin.orgName) throw notFound('API client', clientId);
    return clientView(deps, client);
  }
  const updated = await deps.repo.updateClient(
    clientId,
    { name: patch.name, description: patch.description, rateLimit: patch.rate_limit },
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
  await recordAudit(deps, admin.actor, admin.orgName, 'client.revoke', { type: 'client', id: clientId });
};

const webhookView = (endpoint: { endpointId: string; url: string; createdAt: string }): WebhookEndpointView => ({
  endpoint_id: endpoint.endpointId,
  url: endpoint.url,
  created_at: endpoint.createdAt,
});

export const listOrgWebhooks = async (deps: Deps, admin: OrgAdmin): Promise<{ endpoints: WebhookEndpointView[] }> => ({
  endpoints: (await listWebhooks(deps, admin.orgName)).map(webhookView),
});

/** The endpoint with its `whsec_` secret, shown this once. The URL rules are the CLI's. */
export const addOrgWebhook = async (
  deps: Deps,
  admin: OrgAdmin,
  url: string,
): Promise<WebhookEndpointView & { secret: string }> => {
  try {
    const endpoint = await addWebhook(
      deps,
      { orgName: admin.orgName, url },
      { allowLocalhost: deliverySettingsFromEnv().allowLocalhost },
      admin.actor,
    );
    return { ...webhookView(endpoint), secret: endpoint.secret };
  } catch (error) {
    if (error instanceof AdminError) throw badRequest(error.message);
    throw error;
  }
};

export const removeOrgWebhook = async (deps: Deps, admin: OrgAdmin, endpointId: string): Promise<void> => {
  knownId(endpointId, 'webhook endpoint');
  const removed = await deps.repo.deleteWebhookEndpoint(endpointId, admin.orgName);
  if (!removed) throw notFound('webhook endpoint', endpointId);
  await recordAudit(deps, admin.actor, admin.orgName, 'webhook.delete', { type: 'webhook', id: endpointId });
};

/**
 * A run's attempts as recorded; a run of an earlier version, which kept only its last
 * attempt's outcome, shows that one attempt without an endpoint.
 */
const attemptsOf = ({ run, attemptLog }: StoredRun): DeliveryAttemptEntry[] => {
  if (attemptLog && attemptLog.length > 0) return attemptLog;
  if (run.last_attempt_at === null) return [];
  const status = run.status === 'delivered' || run.status === 'no_endpoint' ? run.status : 'failed';
  return [{ at: run.last_attempt_at, endpoint_id: null, status, error: run.last_error }];
};

// Object.assign, not a spread then a new key: each run of a page would pay microseconds on Node.js 20.
const adminRunView = (stored: StoredRun): AdminRun => Object.assign({}, stored.run, { delivery_attempts: attemptsOf(stored) });

export const listOrgRuns = async (deps: Deps, admin: OrgAdmin, page: PageRequest): Promise<AdminRunPage> => {
  const { runs, next } = await readPage(() => deps.repo.listRunsByOrg(admin.orgName, page));
  return { runs: runs.map(adminRunView), next_cursor: next };
};

/**
 * Sends a run again, to every endpoint, with the same webhook-id (its run id). A run still on
 * its way (pending) keeps its one chain of attempts: accepted, and nothing more is queued.
 */
export const redeliverOrgRun = async (deps: Deps, admin: OrgAdmin, runId: string): Promise<RunRedelivery> => {
  knownId(runId, 'run');
  const outcome = await deps.repo.redeliverRun(runId, admin.orgName);
  if (outcome === 'not_found') throw notFound('run', runId);
  if (outcome === 'redelivering') {
    await deps.deliveries.enqueue(runId, 0);
    await recordAudit(deps, admin.actor, admin.orgName, 'run.redeliver', { type: 'run', id: runId });
  }
  return { run_id: runId, status: 'pending' };
};

export const listOrgAuditEvents = async (deps: Deps, admin: OrgAdmin, page: PageRequest) => {
  const { events, next } = await readPage(() => listAuditLog(deps, admin.orgName, page));
  return {
    events: events.map((event) => ({
      at: event.at,
      actor: event.actor,
      action: event.action,
      target: event.target,
      source_ip: event.sourceIp,
    })),
    next_cursor: next,
  };
};
