/**
 * An organization admin's webhook endpoints: listed and removed (see org-admin.ts). Adding one
 * checks its URL, and is org-webhook-add.ts, so that these two bundles do not load the checks.
 */
import type { Deps } from '../runtime.js';
import type { WebhookEndpointView } from '../schemas/admin.js';
import { recordAudit } from './audit-log.js';
import { knownId, notFound } from './org-admin.js';
import type { OrgAdmin } from './request-state.js';

export const webhookView = (endpoint: { endpointId: string; url: string; createdAt: string }): WebhookEndpointView => ({
  endpoint_id: endpoint.endpointId,
  url: endpoint.url,
  created_at: endpoint.createdAt,
});

export const listOrgWebhooks = async (deps: Deps, admin: OrgAdmin): Promise<{ endpoints: WebhookEndpointView[] }> => ({
  endpoints: (await deps.repo.listWebhookEndpoints(admin.orgName)).map(webhookView),
});

export const removeOrgWebhook = async (deps: Deps, admin: OrgAdmin, endpointId: string): Promise<void> => {
  knownId(endpointId, 'webhook endpoint');
  const removed = await deps.repo.deleteWebhookEndpoint(endpointId, admin.orgName);
  if (!removed) throw notFound('webhook endpoint', endpointId);
  await recordAudit(deps, admin.actor, admin.orgName, 'webhook.delete', { type: 'webhook', id: endpointId });
};
