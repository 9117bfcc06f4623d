import { type Clock, isoSeconds } from './clock.js';
import { hashCredential, newClientId, newSecret, PREFIX } from './credentials.js';

export type ClientStatus = 'active' | 'revoked';

export const DEFAULT_SCOPES = ['knaps:read', 'knaps:write'] as const;
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
  secretHash: string;
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

/** What an admin may see of a client. */
export type ClientSummary = Omit<ApiClient, 'secretHash' | 'generation' | 'revocations'>;

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
  const secret = newClientSecret();
  const now = isoSeconds(clock.now());
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
      scopes: input.scopes ?? [...DEFAULT_SCOPES],
      secretHash: hashCredential(secret),
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
  secretHash: _hash,
  generation: _generation,
  revocations: _revocations,
  ...summary
}: ApiClient): ClientSummary => summary;

/** Whether any of `ids` (a token's id, its grant's id) was revoked, by a revocation still in force. */
export const isRevoked = (client: Pick<ApiClient, 'revocations'>, ids: readonly string[], nowSeconds: number): boolean =>
  ids.some((id) => (client.revocations[id] ?? 0) > nowSeconds);
