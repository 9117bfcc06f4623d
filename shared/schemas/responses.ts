import * as v from 'valibot';

/** What the API answers. Types below are derived from these, and so is docs/openapi.json. */
export const ErrorSchema = v.object({ detail: v.string() });

export { KnapListingSchema, KnapSchema } from '../domain/knaps.js';
export { TokenResponseSchema } from '../domain/tokens.js';
