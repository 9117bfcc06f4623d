import { type KnapViewer, viewedBy } from '../domain/knap-members.js';
import { etagOf, type StoredKnap } from '../domain/knaps.js';
import { json } from './responses.js';

export { type KnapViewer, viewedBy } from '../domain/knap-members.js';

import type { HttpResult } from './types.js';

/** Who is answered a Knap: an API client (by its id), or an admin of the Knap's organization. */
/**
 * A Knap with its ETag, which If-Match on PATCH, PUT and DELETE compares against. Apart from
 * responses.ts, so that a function that answers no Knap does not load the Knap's schemas.
 */
export const knapResponse = (statusCode: number, stored: StoredKnap, viewer: KnapViewer): HttpResult =>
  json(statusCode, viewedBy(stored, viewer), { ETag: etagOf(stored.version) });
