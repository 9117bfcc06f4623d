import { adminTokensFromEnv } from '../../shared/auth/admin-tokens.js';
import { defaultDeps } from '../../shared/runtime.js';
import { AdminStore } from '../../shared/store/admin-store.js';
import { areaFunction } from '../area.js';

// What the routes share is part of the function, read at its cold start as a function of its
// own would read it: the admin token verifier, the audit log's store, the request pipeline.
defaultDeps({ stores: { admins: AdminStore }, adminTokens: adminTokensFromEnv });

export { adminAuth } from '../../shared/http/admin-auth.js';
export { apiHandler } from '../../shared/http/api-handler.js';

/** The organization admins' API: one function, routed inside (functions/area.ts). */
export const { handler, createHandler } = areaFunction('admin', {
  'admin-list-clients': () => import('./admin-list-clients.js'),
  'admin-create-client': () => import('./admin-create-client.js'),
  'admin-regenerate-secret': () => import('./admin-regenerate-secret.js'),
  'admin-update-client': () => import('./admin-update-client.js'),
  'admin-revoke-client': () => import('./admin-revoke-client.js'),
  'admin-get-client': () => import('./admin-get-client.js'),
  'admin-add-secret': () => import('./admin-add-secret.js'),
  'admin-remove-secret': () => import('./admin-remove-secret.js'),
  'admin-set-jwks': () => import('./admin-set-jwks.js'),
  'admin-list-webhooks': () => import('./admin-list-webhooks.js'),
  'admin-add-webhook': () => import('./admin-add-webhook.js'),
  'admin-remove-webhook': () => import('./admin-remove-webhook.js'),
  'admin-rotate-webhook-secret': () => import('./admin-rotate-webhook-secret.js'),
  'admin-test-webhook': () => import('./admin-test-webhook.js'),
  'admin-update-webhook': () => import('./admin-update-webhook.js'),
  'admin-recover-webhook': () => import('./admin-recover-webhook.js'),
  'admin-list-webhook-attempts': () => import('./admin-list-webhook-attempts.js'),
  'admin-list-runs': () => import('./admin-list-runs.js'),
  'admin-get-run': () => import('./admin-get-run.js'),
  'admin-list-run-events': () => import('./admin-list-run-events.js'),
  'admin-redeliver-run': () => import('./admin-redeliver-run.js'),
  'admin-audit-events': () => import('./admin-audit-events.js'),
  'admin-list-knaps': () => import('./admin-list-knaps.js'),
  'admin-get-knap': () => import('./admin-get-knap.js'),
  'admin-update-knap': () => import('./admin-update-knap.js'),
  'admin-delete-knap': () => import('./admin-delete-knap.js'),
});
