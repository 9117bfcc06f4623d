import { areaFunction } from '../area.js';
import * as introspectToken from './introspect-token.js';
import * as oauthMetadata from './oauth-metadata.js';
import * as revokeToken from './revoke-token.js';

/** OAuth 2.0 revocation, introspection and the authorization server metadata: one function, routed inside (functions/area.ts). */
export const { handler, createHandler } = areaFunction('oauth', {
  'revoke-token': revokeToken,
  'introspect-token': introspectToken,
  'oauth-metadata': oauthMetadata,
});
