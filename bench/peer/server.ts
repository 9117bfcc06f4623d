/**
 * The benchmark's anchor: oidc-provider (a certified Node.js OAuth server) issuing opaque
 * client_credentials tokens over DynamoDB, given the storage work the contract asks of us
 * (bench/peer/limiter.ts: one conditional UpdateItem that authenticates and counts, then
 * the token stored by the adapter: one PutItem). Run by the benchmark as its own process:
 *
 *   DYNAMODB_ENDPOINT=http://127.0.0.1:8000 PORT=3001 node --import tsx bench/peer/server.ts
 *
 * It creates its table if missing and one client (a fresh id and secret, its item holding
 * only the secret's SHA-256), and prints `peer listening {"url":...,"clientId":...,"clientSecret":...}`.
 * Clients are configured in memory, as oidc-provider's static clients: no read before the
 * limiter write. Each response says how many DynamoDB calls it made (X-DynamoDB-Round-Trips).
 */
import '../../local/quiet-sdk-warning.js';
import { AsyncLocalStorage } from 'node:async_hooks';
import { createHash, generateKeyPairSync, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import {
  CreateTableCommand,
  DescribeTableCommand,
  DynamoDBClient,
  ResourceInUseException,
  ResourceNotFoundException,
} from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import Provider, { errors, type KoaContextWithOIDC } from 'oidc-provider';
import { adapterFor } from './adapter.js';
import { DynamoLimiter } from './limiter.js';

const env = process.env;
const port = Number(env.PORT ?? 0);
const tableName = env.PEER_TABLE ?? 'oidc-provider-peer';
const rateLimit = Number(env.PEER_RATE_LIMIT ?? 1_000_000);
const endpoint = env.DYNAMODB_ENDPOINT;
if (!endpoint) throw new Error('Set DYNAMODB_ENDPOINT');

/** DynamoDB calls made on behalf of the request in flight. */
const calls = new AsyncLocalStorage<{ count: number }>();

// The SDK as an application would configure it: the defaults, a local endpoint.
const client = new DynamoDBClient({
  endpoint,
  region: env.AWS_REGION ?? 'us-east-1',
  credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
});
client.middlewareStack.add(
  (next) => (args) => {
    const scope = calls.getStore();
    if (scope) scope.count += 1;
    return next(args);
  },
  { step: 'finalizeRequest', priority: 'low', name: 'countRoundTrips' },
);
const db = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });

const ensureTable = async (): Promise<void> => {
  try {
    await client.send(new DescribeTableCommand({ TableName: tableName }));
    return;
  } catch (error) {
    if (!(error instanceof ResourceNotFoundException)) throw error;
  }
  try {
    await client.send(
      new CreateTableCommand({
        TableName: tableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: 'pk', AttributeType: 'S' },
          { AttributeName: 'sk', AttributeType: 'S' },
        ],
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
      }),
    );
  } catch (error) {
    if (!(error instanceof ResourceInUseException)) throw error;
  }
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const { Table } = await client.send(new DescribeTableCommand({ TableName: tableName }));
    if (Table?.TableStatus === 'ACTIVE') return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`Table ${tableName} did not become ACTIVE`);
};

const sha256 = (value: string): string => createHash('sha256').update(value).digest('base64url');

class RateLimited extends errors.OIDCProviderError {
  constructor() {
    super(429, 'slow_down');
    this.error_description = 'rate limit exceeded';
  }
}

/** The secret the request presented (client_secret_post or client_secret_basic). */
const presentedSecret = (ctx: KoaContextWithOIDC): string => {
  const posted = ctx.oidc.params?.client_secret;
  if (typeof posted === 'string') return posted;
  const header = ctx.headers.authorization;
  if (typeof header === 'string' && header.toLowerCase().startsWith('basic ')) {
    const basic = Buffer.from(header.slice(6), 'base64').toString('utf8');
    return decodeURIComponent(basic.slice(basic.indexOf(':') + 1).replace(/\+/g, '%20'));
  }
  return '';
};

await ensureTable();
const limiter = new DynamoLimiter(db, tableName);
const clientId = `peer-${randomBytes(8).toString('hex')}`;
const clientSecret = randomBytes(32).toString('base64url');
await limiter.putClient(clientId, sha256(clientSecret), rateLimit);

const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
const provider = new Provider(`http://127.0.0.1:${port}`, {
  adapter: adapterFor(db, tableName),
  clients: [
    {
      client_id: clientId,
      client_secret: clientSecret,
      grant_types: ['client_credentials'],
      response_types: [],
      redirect_uris: [],
      token_endpoint_auth_method: 'client_secret_post',
      id_token_signed_response_alg: 'ES256',
    },
  ],
  features: {
    clientCredentials: { enabled: true },
    devInteractions: { enabled: false },
  },
  jwks: { keys: [{ ...privateKey.export({ format: 'jwk' }), kid: 'bench', use: 'sig', alg: 'ES256' }] },
  cookies: { keys: [randomBytes(16).toString('hex')] },
  ttl: { ClientCredentials: 3600 },
  // Runs while the token is being saved, before the adapter's upsert: the limiter write
  // first, the token written only if it succeeded.
  extraTokenClaims: async (ctx, token) => {
    if (token.kind !== 'ClientCredentials' || !ctx.oidc.client) return undefined;
    const outcome = await limiter.meter(ctx.oidc.client.clientId, sha256(presentedSecret(ctx)));
    if (outcome === 'limited') throw new RateLimited();
    if (outcome !== 'ok') throw new errors.InvalidClientAuth(outcome);
    return undefined;
  },
});
provider.use(async (ctx, next) => {
  const scope = { count: 0 };
  await calls.run(scope, next);
  ctx.set('X-DynamoDB-Round-Trips', String(scope.count));
});
provider.on('server_error', (_ctx, error) => console.error(`peer: ${(error as Error).stack}`));

const server = createServer(provider.callback());
server.listen(port, '127.0.0.1', () => {
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : port}`;
  console.log(`peer listening ${JSON.stringify({ url, tokenPath: '/token', clientId, clientSecret })}`);
});
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
