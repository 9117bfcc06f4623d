import { areaFunction } from '../area.js';
import * as introspectToken from '../introspect-token/handler.js';
import * as oauthMetadata from '../oauth-metadata/handler.js';
import * as revokeToken from '../revoke-token/handler.js';

/** OAuth 2.0 revocation, introspection and the authorization server metadata: one function, routed inside (functions/area.ts). */
export const { handler, createHandler } = areaFunction('oauth', {
  'revoke-token': revokeToken,
  'introspect-token': introspectToken,
  'oauth-metadata': oauthMetadata,
});
