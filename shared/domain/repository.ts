/**
 * The storage port: what the services need from a store, in domain terms. The one
 * implementation, over DynamoDB, is shared/store/dynamo-repository.ts; it alone knows the keys.
 */
import type { ApiClient, ClientStatus } from './clients.js';
import type { ClaimResult, IdempotencyRecord, StoredResponse } from './idempotency.js';
import type { Knap, KnapOwnership, KnapPage, StoredKnap } from './knaps.js';
import type { TokenRecord } from './tokens.js';

/** A client together with its rate-limit counter, as the meter sees it. */
export interface MeteredClient {
  client: ApiClient;
  window: number | null;
  count: number;
}

/** What a metered request must match, besides the client being active. */
export type RequestGuard = { secretHash: string } | { generation: number };

export interface CountRequestInput {
  clientId: string;
  guard: RequestGuard;
  window: number;
  now: string;
  /** The limit of a client that has none of its own. */
  defaultLimit: number;
  /** `continue`: the counter is already in this window; `open`: start this window at 1. */
  mode: 'continue' | 'open';
}

export type CountRequestResult = { applied: true; state: MeteredClient } | { applied: false; state: MeteredClient | null };

export interface ClientChanges {
  secretHash?: string;
  status?: ClientStatus;
  /** A limit of its own, or null to follow the deployment's default again. */
  rateLimit?: number | null;
  /** End every token issued so far. */
  bumpGeneration?: boolean;
}

export interface PageRequest {
  limit: number;
  cursor?: string;
}

export interface Repository {
  putNewClient(client: ApiClient): Promise<void>;
  getClient(clientId: string): Promise<ApiClient | null>;
  listClientsByOrg(orgName: string): Promise<ApiClient[]>;
  updateClient(clientId: string, changes: ClientChanges, now: string): Promise<ApiClient | null>;
  countRequest(input: CountRequestInput): Promise<CountRequestResult>;
  /** Stores several tokens in one round trip (an access and a refresh token per grant). */
  putTokens(records: TokenRecord[]): Promise<void>;
  getToken(tokenHash: string): Promise<TokenRecord | null>;
  /** Stores a new Knap; false when one with its uuid exists already (nothing is written then). */
  putKnap(knap: Knap, ownership: KnapOwnership): Promise<boolean>;
  getKnap(orgName: string, uuid: string): Promise<StoredKnap | null>;
  /**
   * Writes a changed Knap as version `expectedVersion + 1` in one conditional put that holds
   * only while the stored Knap is still at `expectedVersion`; false when it is not (or gone).
   */
  replaceKnap(knap: Knap, ownership: KnapOwnership, expectedVersion: number): Promise<boolean>;
  /** Deletes a Knap still at `expectedVersion`, from the table and every index at once; false when it is not. */
  deleteKnap(orgName: string, uuid: string, expectedVersion: number): Promise<boolean>;
  listKnapsByCreator(clientId: string, page: PageRequest): Promise<KnapPage>;
  listSharedKnaps(orgName: string, page: PageRequest): Promise<KnapPage>;
  /**
   * Claims a key for one request with one conditional write. It succeeds when the key is new
   * or expired, or was claimed for the same body by a request that failed or whose lease ran
   * out (then the earlier resource id is kept); else it returns the record that holds the key.
   */
  claimIdempotencyKey(record: Omit<IdempotencyRecord, 'state' | 'response'>, now: number): Promise<ClaimResult>;
  /** Stores the answer of a claimed key, for replay. */
  completeIdempotencyKey(clientId: string, key: string, requestHash: string, response: StoredResponse): Promise<void>;
  /** Gives up a claim whose request failed, so that a retry with the same body may run at once. */
  releaseIdempotencyKey(clientId: string, key: string, requestHash: string): Promise<void>;
}

/** A paging cursor the store did not issue for this listing. */
export class InvalidCursorError extends Error {
  constructor() {
    super('Invalid cursor');
    this.name = 'InvalidCursorError';
  }
}
