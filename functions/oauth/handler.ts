import { keyringFromEnv } from '../../shared/keys/token-keyring.js';
import { defaultDeps } from '../../shared/runtime.js';
import { ClientStore } from '../../shared/store/client-store.js';
import { areaFunction } from '../area.js';

// What the routes share is part of the function, read at its cold start as a function of its
// own would read it: the clients' store, the token keys, the request pipeline.
defaultDeps({ stores: { clients: ClientStore }, tokenKeys: keyringFromEnv });

export { apiHandler } from '../../shared/http/api-handler.js';

/** OAuth 2.0 revocation, introspection and the authorization server metadata: one function, routed inside (functions/area.ts). */
export const { handler, createHandler } = areaFunction('oauth', {
  'revoke-token': () => import('./revoke-token.js'),
  'introspect-token': () => import('./introspect-token.js'),
  'oauth-metadata': () => import('./oauth-metadata.js'),
});
