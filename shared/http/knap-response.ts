import { etagOf, type StoredKnap } from '../domain/knaps.js';
import { json } from './responses.js';
import type { HttpResult } from './types.js';

/**
 * A Knap with its ETag, which If-Match on PATCH and DELETE compares against. Apart from
 * responses.ts, so that a function that answers no Knap does not load the Knap's schemas.
 */
export const knapResponse = (statusCode: number, stored: StoredKnap): HttpResult =>
  json(statusCode, stored.knap, { ETag: etagOf(stored.version) });
