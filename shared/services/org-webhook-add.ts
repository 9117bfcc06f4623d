/** An organization admin adds a webhook endpoint (see org-admin.ts); its URL is checked as deliveries check it. */
import { badRequest } from '../errors.js';
import type { Deps } from '../runtime.js';
import type { AddWebhookRequest, WebhookEndpointView } from '../schemas/admin.js';
import { urlPolicyFromEnv } from '../webhooks/urls.js';
import { AdminError } from './admin-service.js';
import { webhookView } from './org-webhooks.js';
import type { OrgAdmin } from './request-state.js';
import { addWebhook } from './webhook-admin.js';

/** The endpoint with its `whsec_` secret, shown this once. The URL rules are the CLI's. */
export const addOrgWebhook = async (
  deps: Deps,
  admin: OrgAdmin,
  request: AddWebhookRequest,
): Promise<WebhookEndpointView & { secret: string }> => {
  try {
    const input = {
      orgName: admin.orgName,
      url: request.url,
      eventTypes: request.event_types,
      description: request.description,
    };
    const endpoint = await addWebhook(deps, input, urlPolicyFromEnv(), admin.actor);
    return { ...webhookView(endpoint), secret: endpoint.secret };
  } catch (error) {
    if (error instanceof AdminError) throw badRequest(error.message);
    throw error;
  }
};
