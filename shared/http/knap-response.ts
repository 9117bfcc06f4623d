import { canToggleDefaultActive } from '../domain/knap-members.js';
import { etagOf, type StoredKnap } from '../domain/knaps.js';
import { json } from './responses.js';
import type { HttpResult } from './types.js';

/** Who is answered a Knap: an API client (by its id), or an admin of the Knap's organization. */
export type KnapViewer = { clientId: string } | 'admin';

/** `can_toggle_default_active` depends on who asks: the creator or an admin, on a shared Knap. */
export const viewedBy = (stored: StoredKnap, viewer: KnapViewer) => {
  const can = canToggleDefaultActive(
    stored.knap.visibility,
    viewer === 'admin' || stored.ownership.creatorClientId === viewer.clientId,
  );
  return can === stored.knap.can_toggle_default_active ? stored.knap : { ...stored.knap, can_toggle_default_active: can };
};

/**
 * A Knap with its ETag, which If-Match on PATCH, PUT and DELETE compares against. Apart from
 * responses.ts, so that a function that answers no Knap does not load the Knap's schemas.
 */
export const knapResponse = (statusCode: number, stored: StoredKnap, viewer: KnapViewer): HttpResult =>
  json(statusCode, viewedBy(stored, viewer), { ETag: etagOf(stored.version) });
