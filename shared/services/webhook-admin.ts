/**
 * Admin use cases for webhook endpoints: where an organization's runs are delivered.
 *
 * The signing secret is stored as is (DynamoDB encrypts the table at rest): unlike an API
 * client's secret, which we only ever compare and so keep as a hash, this one must be read
 * back to sign every delivery. It is shown to the admin once, when the endpoint is added,
 * never listed and never logged. Envelope encryption with KMS is the next step if the table's
 * readers should not be able to sign.
 */
import { type Actor, CLI_ACTOR } from '../domain/audit.js';
import { isoSeconds } from '../domain/clock.js';
import { newWriteToken } from '../domain/credentials.js';
import { newEndpointId, newWebhookSecret, type WebhookEndpoint, type WebhookEventType } from '../domain/webhooks.js';
import type { Deps } from '../runtime.js';
import { checkWebhookUrl, type UrlPolicy } from '../webhooks/urls.js';
import { AdminError } from './admin-service.js';
import { auditedCreate, recordAudit } from './audit-log.js';
import { releaseQuota, reserveQuota } from './quotas.js';

/** An endpoint as admins see it: never its secret. */
export type WebhookSummary = Omit<WebhookEndpoint, 'secret' | 'previousSecret'>;

export const summarizeWebhook = ({ secret: _secret, previousSecret: _previous, ...summary }: WebhookEndpoint): WebhookSummary =>
  summary;

export interface AddWebhookInput {
  orgName: string;
  url: string;
  /** Null or absent: every event type. */
  eventTypes?: WebhookEventType[] | null;
  description?: string | null;
}

/**
 * Adds an endpoint with a new secret, returned this once. The URL is checked as deliveries
 * check it (https, no private address literal); where its host name resolves is checked at
 * each delivery, since DNS can change.
 */
export const addWebhook = async (
  deps: Deps,
  input: AddWebhookInput,
  policy: UrlPolicy,
  actor: Actor = CLI_ACTOR,
): Promise<WebhookEndpoint> => {
  // As given, like create-client's: it must match the API clients' organization exactly.
  const { orgName } = input;
  if (orgName.trim() === '') throw new AdminError('Missing --org');
  const checked = checkWebhookUrl(input.url.trim(), policy);
  if (!checked.ok) throw new AdminError(checked.reason);
  const endpoint: WebhookEndpoint = {
    endpointId: newEndpointId(),
    orgName,
    url: checked.url.href,
    secret: newWebhookSecret(),
    createdAt: isoSeconds(deps.clock.now()),
    eventTypes: input.eventTypes ?? null,
    description: input.description ?? null,
    disabled: false,
    disabledAt: null,
  };
  // Its place in the organization's quota (at most 20 endpoints) first: a refusal writes nothing.
  await reserveQuota(deps, orgName, ['endpoints']);
  try {
    await auditedCreate(deps, actor, orgName, 'webhook.create', { type: 'webhook', id: endpoint.endpointId }, () =>
      deps.repo.putWebhookEndpoint(endpoint, newWriteToken()),
    );
  } catch (error) {
    // A new random id cannot clash: the write did not happen (a timeout may still land; kept then).
    if ((error as Error).name !== 'TimeoutError') await releaseQuota(deps, orgName, ['endpoints']);
    throw error;
  }
  return endpoint;
};

export const listWebhooks = async (deps: Deps, orgName: string): Promise<WebhookSummary[]> =>
  (await deps.repo.listWebhookEndpoints(orgName)).map(summarizeWebhook);

/** Deliveries under way may still reach it; no later attempt does. */
export const removeWebhook = async (deps: Deps, endpointId: string, actor: Actor = CLI_ACTOR): Promise<void> => {
  const removed = await deps.repo.deleteWebhookEndpoint(endpointId);
  if (!removed) throw new AdminError(`No webhook endpoint with id ${endpointId}`);
  // Side by side: neither waits for the other.
  await Promise.all([
    releaseQuota(deps, removed.orgName, ['endpoints']),
    recordAudit(deps, actor, removed.orgName, 'webhook.delete', { type: 'webhook', id: endpointId }),
  ]);
};
