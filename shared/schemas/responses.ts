import * as v from 'valibot';

/** What the API answers. Types below are derived from these, and so is docs/openapi.json. */
export const ErrorSchema = v.object({ detail: v.string() });

export { KnapListingSchema, KnapSchema } from '../domain/knaps.js';

/**
 * The token endpoint's answer (RFC 6749 section 5.1). Here rather than beside the tokens' rules
 * (domain/tokens.ts): a function that only checks a token need not build it at its cold start.
 */
export const TokenResponseSchema = v.object({
  access_token: v.pipe(v.string(), v.startsWith('knap_at_')),
  token_type: v.literal('Bearer'),
  expires_in: v.literal(3600),
  refresh_token: v.pipe(v.string(), v.startsWith('knap_rt_')),
  scope: v.pipe(v.string(), v.description('Space-separated scopes granted')),
});
export type TokenResponse = v.InferOutput<typeof TokenResponseSchema>;
