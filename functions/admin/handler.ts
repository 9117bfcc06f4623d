import * as adminAddWebhook from '../admin-add-webhook/handler.js';
import * as adminAuditEvents from '../admin-audit-events/handler.js';
import * as adminCreateClient from '../admin-create-client/handler.js';
import * as adminListClients from '../admin-list-clients/handler.js';
import * as adminListRuns from '../admin-list-runs/handler.js';
import * as adminListWebhooks from '../admin-list-webhooks/handler.js';
import * as adminRedeliverRun from '../admin-redeliver-run/handler.js';
import * as adminRegenerateSecret from '../admin-regenerate-secret/handler.js';
import * as adminRemoveWebhook from '../admin-remove-webhook/handler.js';
import * as adminRevokeClient from '../admin-revoke-client/handler.js';
import * as adminUpdateClient from '../admin-update-client/handler.js';
import { areaFunction } from '../area.js';

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
