import * as v from 'valibot';
import type { TokenResponse } from '../domain/tokens.js';

/** What the API answers. Types below are derived from these, and so is docs/openapi.json. */
export const ErrorSchema = v.object({ detail: v.string() });

export { KnapListingSchema, KnapSchema } from '../domain/knaps.js';

/** The token endpoint's answer (RFC 6749 section 5.1), as domain/tokens.ts types it. */
export const TokenResponseSchema = v.object({
  access_token: v.pipe(v.string(), v.startsWith('knap_at_')),
  token_type: v.literal('Bearer'),
  expires_in: v.literal(3600),
  refresh_token: v.pipe(v.string(), v.startsWith('knap_rt_')),
  scope: v.pipe(v.string(), v.description('Space-separated scopes granted')),
});
// The schema and the domain's type say the same, both ways.
const sameTokenResponse: [v.InferOutput<typeof TokenResponseSchema>, TokenResponse] extends [
  TokenResponse,
  v.InferOutput<typeof TokenResponseSchema>,
]
  ? true
  : never = true;
void sameTokenResponse;
