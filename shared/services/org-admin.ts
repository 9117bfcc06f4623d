/**
 * The admin API's use cases: an organization admin manages the API clients (org-clients.ts),
 * webhook endpoints (org-webhooks.ts, org-webhook-add.ts) and runs (org-runs.ts) of their own
 * organization, and reads its audit log (org-audit.ts). Anything of another organization is
 * a 404, decided in the same conditional write that would change it (or the query that lists
 * it), never by a read first. Every change is audited with the admin's name and address.
 *
 * One module per area, so that each function's bundle holds only what its route does: the
 * URL checks only where an endpoint is added, no webhook signing anywhere here.
 * This module is what they share.
 */
import { ApiError } from '../errors.js';

/** Longer ids than any this API makes are unknown without a read (DynamoDB keys stop at 2 KB). */
const MAX_ID_LENGTH = 128;

export const notFound = (what: string, id: string): ApiError =>
  new ApiError(404, `No ${what} with id ${id.length > MAX_ID_LENGTH ? `${id.slice(0, 32)}…` : id} in your organization`);

/** An id this API could not have made is a 404 with no read. */
export const knownId = (id: string, what: string): void => {
  if (id === '' || id.length > MAX_ID_LENGTH) throw notFound(what, id);
};
