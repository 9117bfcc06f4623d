import { createHash } from 'node:crypto';
import { type Clock, isoSeconds } from './clock.js';
import { digestsEqual, hashCredential, newClientId, newSecret, PREFIX } from './credentials.js';
import { canonicalScopes, SCOPES } from './scopes.js';

export type ClientStatus = 'active' | 'revoked';

/** A client made without a choice of scopes holds every scope. */
export const DEFAULT_SCOPES = SCOPES;
export const DEFAULT_RATE_LIMIT = 100;
export const MAX_RATE_LIMIT = 1_000_000;

/** An API client as stored. Never leaves the service with its secret hash. */
export interface ApiClient {
  clientId: string;
  orgName: string;
  name: string;
  description: string;
  userId: number;
  status: ClientStatus;
  /** Bumped by regenerate and revoke; every token carries the generation it was issued under. */
  generation: number;
  /** Requests per minute; null follows the deployment's default (DEFAULT_RATE_LIMIT). */
  rateLimit: number | null;
  scopes: string[];
  /**
   * Its secrets (at most MAX_LIVE_SECRETS live ones), oldest first: several while a rotation
   * overlaps. Only their hashes are stored.
   */
  secrets: ClientSecret[];
  /** Stored by an earlier version as one `secret_hash` (read as one secret; moved on its next use or change). */
  legacySecret: boolean;
  createdAt: string;
  updatedAt: string;
  lastUsedAt: string | null;
  /**
   * Revocation marks earlier versions set on the client item: a token id or grant id to the
   * epoch second after which no such token lives. Read only for tokens those versions sealed;
   * revocations are separate items now, and the migration moves these out.
   */
  revocations: Readonly<Record<string, number>>;
}

/** One secret of a client, as stored: never the secret itself. */
export interface ClientSecret {
  /** Derived from the hash (secretIdOf), so a presented secret names its own entry: one conditional write checks it. */
  secretId: string;
  secretHash: string;
  createdAt: string;
  /** Stamped by the metering write that checks the secret (no write of its own). */
  lastUsedAt: string | null;
  /** Null: until it is retired or the client's secret is regenerated. */
  expiresAt: string | null;
}

/** Live secrets a client may have at once: the one in use and the one replacing it. */
export const MAX_LIVE_SECRETS = 2;
export const MAX_SECRET_DAYS = 3650;

/**
 * A secret's id: a hash of its hash, so the id tells nothing of the secret, and a presented
 * secret names the entry to compare it with (no scan of the client's secrets in DynamoDB).
 */
export const secretIdOf = (secretHash: string): string =>
  `cs_${createHash('sha256').update(`knap-secret-id:${secretHash}`).digest('base64url').slice(0, 16)}`;

export const isLiveSecret = (secret: Pick<ClientSecret, 'expiresAt'>, now: Date): boolean =>
  secret.expiresAt === null || Date.parse(secret.expiresAt) > now.getTime();

/**
 * The live secret whose hash is `secretHash`, or null. Compares with every secret, in constant
 * time each, whichever matches: a wrong secret costs what a right one does.
 */
export const liveSecretMatching = (client: Pick<ApiClient, 'secrets'>, secretHash: string, now: Date): ClientSecret | null => {
  let found: ClientSecret | null = null;
  for (const secret of client.secrets) {
    if (digestsEqual(secret.secretHash, secretHash) && isLiveSecret(secret, now)) found = secret;
  }
  return found;
};

/** A new secret and what is stored of it. */
export const newStoredSecret = (now: string, expiresAt: string | null = null): { secret: string; stored: ClientSecret } => {
  const secret = newClientSecret();
  const secretHash = hashCredential(secret);
  return { secret, stored: { secretId: secretIdOf(secretHash), secretHash, createdAt: now, lastUsedAt: null, expiresAt } };
};

/** What an admin may see of a client. */
export type ClientSummary = Omit<ApiClient, 'secrets' | 'legacySecret' | 'generation' | 'revocations'>;

export interface NewClientInput {
  orgName: string;
  name: string;
  description?: string;
  rateLimit?: number;
  userId?: number;
  scopes?: string[];
}

export const newClientSecret = (): string => newSecret(PREFIX.clientSecret);

/**
 * Control characters, and the bidirectional controls that make a name read otherwise than it
 * is stored (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C): never shown as written.
 */
export const UNSHOWABLE_TEXT = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

/** Builds a client and its secret; the plain secret is returned once and never stored. */
export const createClient = (input: NewClientInput, clock: Clock): { client: ApiClient; secret: string } => {
  const now = isoSeconds(clock.now());
  const { secret, stored } = newStoredSecret(now);
  return {
    secret,
    client: {
      clientId: newClientId(),
      orgName: input.orgName,
      name: input.name,
      description: input.description ?? '',
      userId: input.userId ?? 1,
      status: 'active',
      generation: 1,
      rateLimit: input.rateLimit ?? null,
      scopes: canonicalScopes(input.scopes ?? DEFAULT_SCOPES),
      secrets: [stored],
      legacySecret: false,
      createdAt: now,
      updatedAt: now,
      lastUsedAt: null,
      revocations: {},
    },
  };
};

/** The limit the API applies: the client's own, else the deployment's default. */
export const effectiveRateLimit = (client: Pick<ApiClient, 'rateLimit'>, defaultLimit: number): number =>
  client.rateLimit ?? defaultLimit;

export const summarizeClient = ({
  secrets: _secrets,
  legacySecret: _legacy,
  generation: _generation,
  revocations: _revocations,
  ...summary
}: ApiClient): ClientSummary => summary;

/** Whether any of `ids` (a token's id, its grant's id) was revoked, by a revocation still in force. */
export const isRevoked = (client: Pick<ApiClient, 'revocations'>, ids: readonly string[], nowSeconds: number): boolean =>
  ids.some((id) => (client.revocations[id] ?? 0) > nowSeconds);
