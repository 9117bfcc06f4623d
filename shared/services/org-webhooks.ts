/**
 * An organization admin's webhook endpoints: listed and removed (see org-admin.ts). Adding one
 * checks its URL, and is org-webhook-add.ts, so that these two bundles do not load the checks.
 */

import { isoSeconds } from '../domain/clock.js';
import type { WebhookEndpoint, WebhookEndpointChanges } from '../domain/webhooks.js';
import type { Deps } from '../runtime.js';
import type { UpdateWebhookRequest, WebhookEndpointView } from '../schemas/admin.js';
import { recordAudit } from './audit-log.js';
import { knownId, notFound } from './org-admin.js';
import { releaseQuota } from './quotas.js';
import type { OrgAdmin } from './request-state.js';

export const webhookView = (endpoint: Omit<WebhookEndpoint, 'secret' | 'orgName'>): WebhookEndpointView => ({
  endpoint_id: endpoint.endpointId,
  url: endpoint.url,
  created_at: endpoint.createdAt,
  // Absent on endpoints of earlier versions: every type, no description, enabled.
  event_types: endpoint.eventTypes ?? null,
  description: endpoint.description ?? null,
  disabled: endpoint.disabled ?? false,
  disabled_at: endpoint.disabledAt ?? null,
});

export const listOrgWebhooks = async (deps: Deps, admin: OrgAdmin): Promise<{ endpoints: WebhookEndpointView[] }> => ({
  endpoints: (await deps.repo.listWebhookEndpoints(admin.orgName)).map(webhookView),
});

export const removeOrgWebhook = async (deps: Deps, admin: OrgAdmin, endpointId: string): Promise<void> => {
  knownId(endpointId, 'webhook endpoint');
  const removed = await deps.repo.deleteWebhookEndpoint(endpointId, admin.orgName);
  if (!removed) throw notFound('webhook endpoint', endpointId);
  // Side by side: neither waits for the other.
  await Promise.all([
    releaseQuota(deps, admin.orgName, ['endpoints']),
    recordAudit(deps, admin.actor, admin.orgName, 'webhook.delete', { type: 'webhook', id: endpointId }),
  ]);
};

/**
 * Changes an endpoint's event types, description or disabled flag (one conditional write, of
 * this organization only), audited as webhook.update. Disabling stamps `disabled_at`;
 * enabling clears it. Fields left out stay as they are.
 */
export const updateOrgWebhook = async (
  deps: Deps,
  admin: OrgAdmin,
  endpointId: string,
  request: UpdateWebhookRequest,
): Promise<WebhookEndpointView> => {
  knownId(endpointId, 'webhook endpoint');
  const changes: WebhookEndpointChanges = {};
  if (request.event_types !== undefined) changes.eventTypes = request.event_types;
  if (request.description !== undefined) changes.description = request.description;
  if (request.disabled !== undefined) {
    changes.disabled = request.disabled;
    changes.disabledAt = request.disabled ? isoSeconds(deps.clock.now()) : null;
  }
  const updated = await deps.repo.updateWebhookEndpoint(endpointId, admin.orgName, changes);
  if (!updated) throw notFound('webhook endpoint', endpointId);
  await recordAudit(deps, admin.actor, admin.orgName, 'webhook.update', { type: 'webhook', id: endpointId });
  return webhookView(updated);
};
