import { ASSERTION_ALGORITHMS } from './client-keys.js';
import { DEFAULT_SCOPES } from './clients.js';
import { GRANT_TYPES } from './tokens.js';

const CLIENT_AUTH_METHODS = ['client_secret_post', 'client_secret_basic', 'private_key_jwt'];
const SIGNING_ALGORITHMS = [...ASSERTION_ALGORITHMS];

/** OAuth 2.0 Authorization Server Metadata (RFC 8414) of the API at `issuer` (its base URL). */
export const authorizationServerMetadata = (issuer: string) => ({
  issuer,
  token_endpoint: `${issuer}/api/oauth/token`,
  revocation_endpoint: `${issuer}/api/oauth/revoke`,
  introspection_endpoint: `${issuer}/api/oauth/introspect`,
  grant_types_supported: [...GRANT_TYPES],
  token_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
  revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
  introspection_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
  token_endpoint_auth_signing_alg_values_supported: SIGNING_ALGORITHMS,
  revocation_endpoint_auth_signing_alg_values_supported: SIGNING_ALGORITHMS,
  introspection_endpoint_auth_signing_alg_values_supported: SIGNING_ALGORITHMS,
  scopes_supported: [...DEFAULT_SCOPES],
  // No authorization endpoint: machine-to-machine only.
  response_types_supported: [],
  service_documentation: `${issuer}/api/docs`,
});
