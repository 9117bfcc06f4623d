import { areaFunction } from '../area.js';
import * as adminAddWebhook from './admin-add-webhook.js';
import * as adminAuditEvents from './admin-audit-events.js';
import * as adminCreateClient from './admin-create-client.js';
import * as adminListClients from './admin-list-clients.js';
import * as adminListRuns from './admin-list-runs.js';
import * as adminListWebhooks from './admin-list-webhooks.js';
import * as adminRedeliverRun from './admin-redeliver-run.js';
import * as adminRegenerateSecret from './admin-regenerate-secret.js';
import * as adminRemoveWebhook from './admin-remove-webhook.js';
import * as adminRevokeClient from './admin-revoke-client.js';
import * as adminUpdateClient from './admin-update-client.js';

/** The organization admins' API: one function, routed inside (functions/area.ts). */
export const { handler, createHandler } = areaFunction('admin', {
  'admin-list-clients': adminListClients,
  'admin-create-client': adminCreateClient,
  'admin-regenerate-secret': adminRegenerateSecret,
  'admin-update-client': adminUpdateClient,
  'admin-revoke-client': adminRevokeClient,
  'admin-list-webhooks': adminListWebhooks,
  'admin-add-webhook': adminAddWebhook,
  'admin-remove-webhook': adminRemoveWebhook,
  'admin-list-runs': adminListRuns,
  'admin-redeliver-run': adminRedeliverRun,
  'admin-audit-events': adminAuditEvents,
});
