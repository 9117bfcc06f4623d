import { keyringFromEnv } from '../../shared/keys/token-keyring.js';
import { defaultDeps } from '../../shared/runtime.js';
import { ClientStore } from '../../shared/store/client-store.js';
import { areaFunction } from '../area.js';

// What the routes share is part of the function, read at its cold start as a function of its
// own would read it: the clients' store (every request is metered), the token keys, the request pipeline.
defaultDeps({ stores: { clients: ClientStore }, tokenKeys: keyringFromEnv });

export { apiHandler } from '../../shared/http/api-handler.js';
// Every route but the run report (its own token, loaded by its first request) checks a bearer token.
export { bearerAuth } from '../../shared/http/bearer.js';

/** The Knap routes but creation (which has its own function): list, read, change, delete, run, runs, meeting reports, schedule preview: one function, routed inside (functions/area.ts). */
export const { handler, createHandler } = areaFunction('knaps', {
  'list-knaps': () => import('./list-knaps.js'),
  'get-knap': () => import('./get-knap.js'),
  'update-knap': () => import('./update-knap.js'),
  'put-knap': () => import('./put-knap.js'),
  'delete-knap': () => import('./delete-knap.js'),
  'start-run': () => import('./start-run.js'),
  'list-runs': () => import('./list-runs.js'),
  'report-meeting': () => import('./report-meeting.js'),
  'preview-schedule': () => import('./preview-schedule.js'),
  'get-run': () => import('./get-run.js'),
  'list-run-events': () => import('./list-run-events.js'),
  'report-run-event': () => import('./report-run-event.js'),
});
