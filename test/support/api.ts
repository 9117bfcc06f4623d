import { localAdminEnvironment, startLocalIdentity } from '../../local/oidc/provider.js';
import { startApiServer } from '../../local/server.js';
import { adminTokenVerifier } from '../../shared/auth/admin-tokens.js';
import type { NewClientInput } from '../../shared/domain/clients.js';
import { createAdmin } from '../../shared/services/admin-accounts.js';
import { createApiClient } from '../../shared/services/admin-service.js';
import { signIn } from './admin-sign-in.js';
import { FakeClock } from './clock.js';
import { type DeliveringQueue, deliverWith, type TestDeliveryOptions } from './deliveries.js';
import { startTestTable, type TestTable } from './dynamo.js';

export interface TestApi {
  url: string;
  table: TestTable;
  clock: FakeClock;
  deps: ReturnType<TestTable['deps']>;
  newClient(input?: Partial<NewClientInput>): Promise<{ clientId: string; clientSecret: string }>;
  /** Present with the `deliveries` option: the queue that delivers (deps.deliveries is the same). */
  deliveries?: DeliveringQueue;
  /**
   * With the `admins` option: makes an admin of `orgName` (once per email) and signs them in to
   * the local provider as a browser would; their access token.
   */
  adminToken(orgName: string, email?: string): Promise<string>;
  close(): Promise<void>;
}

export interface TestApiOptions {
  /**
   * Deliver queued runs to webhooks with the real local queue and deliverRun (localhost
   * receivers allowed), besides recording them; without it runs are only recorded.
   */
  deliveries?: TestDeliveryOptions;
  /**
   * Serve the local OpenID Connect provider under /oidc, as npm start does, and verify admin
   * tokens with the test's clock (token lifetimes themselves follow the real one).
   */
  admins?: boolean;
  /** Answer every request with X-DynamoDB-Round-Trips: the calls made on its behalf alone. */
  countRoundTrips?: boolean;
  /** The functions' timeout (deployed and by default 10 s). */
  lambdaTimeoutMs?: number;
}

/** The local API over a fresh table, its handlers built with a clock the test moves. */
export const startTestApi = async (options: TestApiOptions = {}): Promise<TestApi> => {
  const table = await startTestTable();
  const clock = new FakeClock();
  const deps = table.deps(clock);
  const deliveries = options.deliveries ? deliverWith(deps, options.deliveries) : undefined;
  const savedEnv = new Map<string, string | undefined>();
  const api = await startApiServer({
    deps,
    countRoundTrips: options.countRoundTrips,
    lambdaTimeoutMs: options.lambdaTimeoutMs,
    mount: options.admins
      ? (url) => {
          const identity = startLocalIdentity({ issuer: `${url}/oidc`, deps, redirectUris: [`${url}/console`] });
          deps.adminTokens = adminTokenVerifier(identity.settings, () => clock.now());
          // The console page reads its settings from the environment, as deployed: given back at close.
          for (const [name, value] of Object.entries(localAdminEnvironment(identity))) {
            savedEnv.set(name, process.env[name]);
            process.env[name] = value;
          }
          return identity;
        }
      : undefined,
  });
  // Report URLs in knap.run messages name this server.
  if (deliveries) deliveries.settings.reportBaseUrl = api.url;
  const admins = new Set<string>();
  return {
    url: api.url,
    table,
    clock,
    deps,
    deliveries,
    newClient: (input = {}) => createApiClient(deps, { orgName: 'acme', name: 'integration', ...input }),
    adminToken: async (orgName, email = `admin@${orgName}.example`) => {
      if (!options.admins) throw new Error('startTestApi({ admins: true }) serves the sign-in');
      const password = 'correct horse battery staple';
      if (!admins.has(email)) await createAdmin(deps, { orgName, email, password });
      admins.add(email);
      const result = await signIn(api.url, `${api.url}/console`, email, password);
      if (!result.tokens) throw new Error(`sign-in refused: ${result.status}`);
      return result.tokens.access_token;
    },
    close: async () => {
      await api.close();
      for (const [name, value] of savedEnv) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
      await deliveries?.close();
      await table.close();
    },
  };
};

export interface TokenSet {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
}

export const form = (fields: Record<string, string>): string => new URLSearchParams(fields).toString();

export const postToken = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  fetch(`${url}/api/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: form(fields),
  });

export const getToken = async (url: string, client: { clientId: string; clientSecret: string }): Promise<TokenSet> => {
  const response = await postToken(url, {
    grant_type: 'client_credentials',
    client_id: client.clientId,
    client_secret: client.clientSecret,
  });
  if (response.status !== 200) throw new Error(`token request failed: ${response.status} ${await response.text()}`);
  return (await response.json()) as TokenSet;
};

export interface ClientCredentials {
  clientId: string;
  clientSecret: string;
}

/** A token posted to revocation (RFC 7009) or introspection (RFC 7662), the client authenticated in the form. */
export const tokenOperation = (url: string, path: 'revoke' | 'introspect', client: ClientCredentials, token: string) =>
  fetch(`${url}/api/oauth/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form({ token, client_id: client.clientId, client_secret: client.clientSecret }),
  });

/** A refresh_token grant (RFC 6749 section 6), the client authenticated in the form. */
export const refreshGrant = (url: string, client: ClientCredentials, refreshToken: string) =>
  postToken(url, {
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: client.clientId,
    client_secret: client.clientSecret,
  });

/** Moves the test clock (forward only, in practice) and grants a token valid then: access tokens live an hour. */
export const tokenAt = async (api: TestApi, client: ClientCredentials, time: string): Promise<string> => {
  api.clock.set(time);
  return (await getToken(api.url, client)).access_token;
};

export const basic = (id: string, secret: string): string =>
  `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

export const listKnaps = (url: string, token: string, query = '') =>
  fetch(`${url}/api/studio/knap-tools${query}`, { headers: bearer(token) });

export const createKnap = (url: string, token: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${url}/api/studio/knap-tools`, {
    method: 'POST',
    headers: { ...bearer(token), 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
