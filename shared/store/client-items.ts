/**
 * API clients, their secrets, tokens and grants to and from DynamoDB items (see keys.ts for the
 * key design): apart from the other items' code, so that what reads a client at every request
 * (bearer authentication, metering) does not load the Knaps', runs' and webhooks' code.
 */
import { type ApiClient, type ClientSecret, secretIdOf } from '../domain/clients.js';
import { setOwnMember } from '../domain/own-member.js';
import type { MeteredClient } from '../domain/repository.js';
import { canonicalScopes, SCOPES } from '../domain/scopes.js';
import type { GrantRecord, TokenKind, TokenRecord } from '../domain/tokens.js';
import { key } from './keys.js';
import type { Item } from './table-ops.js';

// Each item's literal starts with a plain key, its key spread after: on Node.js 20 a literal
// that starts with a spread makes every key after it cost about a microsecond
// (docs/performance.md, "Spreads on Node.js 20").

export const clientToItem = (client: ApiClient): Item => ({
  type: 'client',
  ...key.client(client.clientId),
  gsi3pk: key.orgClients(client.orgName),
  gsi3sk: `${client.createdAt}#${client.clientId}`,
  client_id: client.clientId,
  org_name: client.orgName,
  name: client.name,
  description: client.description,
  user_id: client.userId,
  status: client.status,
  generation: client.generation,
  rate_limit: client.rateLimit ?? undefined,
  scopes: client.scopes,
  client_secrets: secretsToMap(client.secrets),
  created_at: client.createdAt,
  updated_at: client.updatedAt,
  last_used_at: client.lastUsedAt,
  ...Object.fromEntries(Object.entries(client.revocations).map(([id, until]) => [key.revocationMark(id), until])),
});

/** A secret that never expires is stored as expiring at the end of 9999: the metering condition needs no OR. */
export const NEVER_EXPIRES = 253_402_300_799;

/** One entry of the client item's `client_secrets` map (keyed by secret id). */
export const secretToEntry = (secret: ClientSecret): Item => ({
  secret_hash: secret.secretHash,
  created_at: secret.createdAt,
  last_used_at: secret.lastUsedAt ?? undefined,
  expires_epoch: secret.expiresAt === null ? NEVER_EXPIRES : Math.floor(Date.parse(secret.expiresAt) / 1000),
});

export const secretsToMap = (secrets: readonly ClientSecret[]): Item =>
  Object.fromEntries(secrets.map((secret) => [secret.secretId, secretToEntry(secret)]));

const isoOfEpoch = (epoch: number): string => new Date(epoch * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');

/** The client's secrets: the `client_secrets` map, or the one `secret_hash` of earlier versions. */
const itemSecrets = (item: Item): ClientSecret[] => {
  const map = item.client_secrets;
  if (map && typeof map === 'object') {
    return Object.entries(map as Record<string, Item>)
      .map(([secretId, entry]) => ({
        secretId,
        secretHash: String(entry.secret_hash),
        createdAt: String(entry.created_at),
        lastUsedAt: typeof entry.last_used_at === 'string' ? entry.last_used_at : null,
        expiresAt:
          typeof entry.expires_epoch === 'number' && entry.expires_epoch < NEVER_EXPIRES ? isoOfEpoch(entry.expires_epoch) : null,
      }))
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.secretId.localeCompare(b.secretId));
  }
  if (typeof item.secret_hash !== 'string') return [];
  const secretHash = item.secret_hash;
  return [
    {
      secretId: secretIdOf(secretHash),
      secretHash,
      createdAt: String(item.created_at),
      lastUsedAt: typeof item.last_used_at === 'string' ? item.last_used_at : null,
      expiresAt: null,
    },
  ];
};

const REVOCATION = key.revocationMark('');

/** The `rv_` marks earlier versions set on a client item: id to the epoch second they last matter. */
export const clientRevocationMarks = (item: Item): Record<string, number> => {
  // Every metered request reads its client's item: one array of its names, no entry arrays.
  // Object.keys, not for-in: an unmarshalled item of twenty attributes is a dictionary-mode
  // object, whose for-in costs more (437 against 314 ns here).
  const marks: Record<string, number> = {};
  const names = Object.keys(item);
  for (let index = 0; index < names.length; index += 1) {
    const name = names[index] as string;
    const until = item[name];
    if (typeof until !== 'number' || !name.startsWith(REVOCATION)) continue;
    setOwnMember(marks, name.slice(REVOCATION.length), until);
  }
  return marks;
};

export const itemToClient = (item: Item): ApiClient => ({
  clientId: String(item.client_id),
  orgName: String(item.org_name),
  name: String(item.name),
  description: String(item.description ?? ''),
  userId: Number(item.user_id),
  status: item.status === 'revoked' ? 'revoked' : 'active',
  generation: Number(item.generation),
  rateLimit: typeof item.rate_limit === 'number' ? item.rate_limit : null,
  // Clients stored before scopes were chosen per client hold every scope; old names read as the new.
  scopes: Array.isArray(item.scopes) ? canonicalScopes(item.scopes.map(String)) : [...SCOPES],
  secrets: itemSecrets(item),
  legacySecret: !item.client_secrets && typeof item.secret_hash === 'string',
  createdAt: String(item.created_at),
  updatedAt: String(item.updated_at ?? item.created_at),
  lastUsedAt: typeof item.last_used_at === 'string' ? item.last_used_at : null,
  revocations: clientRevocationMarks(item),
});

export const itemToMetered = (item: Item): MeteredClient => ({
  client: itemToClient(item),
  window: typeof item.rl_window === 'number' ? item.rl_window : null,
  count: typeof item.rl_count === 'number' ? item.rl_count : 0,
  ...(typeof item.wt === 'string' ? { writeToken: item.wt } : {}),
});

export const tokenToItem = (record: TokenRecord): Item => ({
  type: 'token',
  ...key.token(record.tokenHash),
  kind: record.kind,
  client_id: record.clientId,
  generation: record.generation,
  scope: record.scope,
  issued_at: record.issuedAt,
  expires_at: record.expiresAt,
  // A string set, so a refresh grant can ADD to it in one write.
  ...(record.accessHashes && record.accessHashes.length > 0 ? { access_hashes: new Set(record.accessHashes) } : {}),
});

export const itemToToken = (tokenHash: string, item: Item): TokenRecord => ({
  tokenHash,
  kind: item.kind as TokenKind,
  clientId: String(item.client_id),
  generation: Number(item.generation),
  scope: String(item.scope ?? ''),
  issuedAt: Number(item.issued_at),
  expiresAt: Number(item.expires_at),
  ...(item.access_hashes instanceof Set ? { accessHashes: [...item.access_hashes].map(String) } : {}),
});

export const grantToItem = (grant: GrantRecord): Item => ({
  type: 'grant',
  ...key.grant(grant.grantKey),
  grant_id: grant.grantId,
  client_id: grant.clientId,
  generation: grant.generation,
  scope: grant.scope,
  issued_at: grant.issuedAt,
  expires_at: grant.expiresAt,
});

export const itemToGrant = (item: Item): GrantRecord => ({
  grantKey: String(item.pk).slice(key.grant('').pk.length),
  grantId: String(item.grant_id),
  clientId: String(item.client_id),
  generation: Number(item.generation),
  scope: String(item.scope ?? ''),
  issuedAt: Number(item.issued_at),
  expiresAt: Number(item.expires_at),
});
