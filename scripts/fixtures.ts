/**
 * Fixed credentials for local invocation (`npm run invoke`, test/invoke) and for the
 * events in events/: a known client with a known secret, known access and refresh tokens,
 * and a few Knaps to list, read, change and delete. They exist only in tables this module
 * seeds (an in-memory dynalite by default); `seedFixtures` refuses an AWS endpoint, so they
 * can never become a back door into a deployed table.
 *
 * Only hashes are stored, as the real code does: sha256(secret), sha256(token).
 */
import { isDeepStrictEqual } from 'node:util';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type ApiClient, DEFAULT_RATE_LIMIT, DEFAULT_SCOPES } from '../shared/domain/clients.js';
import { epochSeconds, isoSeconds } from '../shared/domain/clock.js';
import { hashCredential } from '../shared/domain/credentials.js';
import type { Knap, KnapOwnership } from '../shared/domain/knaps.js';
import { windowStart } from '../shared/domain/rate-limit.js';
import type { Repository } from '../shared/domain/repository.js';
import type { TokenKind, TokenRecord } from '../shared/domain/tokens.js';

export const FIXTURE_ORG = 'acme';
export const OTHER_ORG = 'globex';

/** Issued long ago, valid until 2100: fixtures never expire under a test. */
const ISSUED_AT = epochSeconds(new Date('2026-01-01T00:00:00Z'));
const FAR_FUTURE = epochSeconds(new Date('2100-01-01T00:00:00Z'));
const LONG_AGO = epochSeconds(new Date('2026-01-01T01:00:00Z'));
const CREATED_AT = '2026-01-01T00:00:00Z';

interface FixtureClient {
  clientId: string;
  secret: string;
  name: string;
  userId: number;
  orgName: string;
  status: ApiClient['status'];
  rateLimit: number;
}

/** The fixture clients; ids and secrets carry the real prefixes so they take the real code paths. */
export const CLIENTS = {
  /** The integrator of every valid event. */
  main: {
    clientId: 'knap_ci_f1x7u7e0000000000000000000000001',
    secret: 'knap_cs_FIXTURE-local-invoke-only-main-client-secret-0001',
    name: 'Fixture integrator',
    userId: 4201,
    orgName: FIXTURE_ORG,
    status: 'active',
    // Generous, so a test run of every event never meets it.
    rateLimit: 10_000,
  },
  /** Another client of the same organization: its shared Knaps are listed, its private ones never. */
  colleague: {
    clientId: 'knap_ci_f1x7u7e0000000000000000000000002',
    secret: 'knap_cs_FIXTURE-local-invoke-only-colleague-secret-0002',
    name: 'Fixture colleague',
    userId: 4202,
    orgName: FIXTURE_ORG,
    status: 'active',
    rateLimit: 100,
  },
  /** A revoked client: its secret is right, and still nothing works. */
  revoked: {
    clientId: 'knap_ci_f1x7u7e0000000000000000000000003',
    secret: 'knap_cs_FIXTURE-local-invoke-only-revoked-secret-0003',
    name: 'Fixture revoked client',
    userId: 4203,
    orgName: FIXTURE_ORG,
    status: 'revoked',
    rateLimit: 100,
  },
  /** One request per minute, already used up by `primeRateLimits`: its next request gets 429. */
  limited: {
    clientId: 'knap_ci_f1x7u7e0000000000000000000000004',
    secret: 'knap_cs_FIXTURE-local-invoke-only-limited-secret-0004',
    name: 'Fixture rate-limited client',
    userId: 4204,
    orgName: FIXTURE_ORG,
    status: 'active',
    rateLimit: 1,
  },
  /** A client of another organization, whose Knaps must never show. */
  stranger: {
    clientId: 'knap_ci_f1x7u7e0000000000000000000000005',
    secret: 'knap_cs_FIXTURE-local-invoke-only-stranger-secret-0005',
    name: 'Fixture stranger',
    userId: 4205,
    orgName: OTHER_ORG,
    status: 'active',
    rateLimit: 100,
  },
} as const satisfies Record<string, FixtureClient>;

type ClientKey = keyof typeof CLIENTS;

interface FixtureToken {
  token: string;
  kind: TokenKind;
  client: ClientKey;
  scope: string;
  expiresAt: number;
}

const ALL_SCOPES = DEFAULT_SCOPES.join(' ');

/** The fixture tokens, stored as sha256 hashes with generation = the client's current one. */
export const TOKENS = {
  access: {
    token: 'knap_at_FIXTURE-local-invoke-only-access-token-000000001',
    kind: 'access',
    client: 'main',
    scope: ALL_SCOPES,
    expiresAt: FAR_FUTURE,
  },
  refresh: {
    token: 'knap_rt_FIXTURE-local-invoke-only-refresh-token-00000001',
    kind: 'refresh',
    client: 'main',
    scope: ALL_SCOPES,
    expiresAt: FAR_FUTURE,
  },
  readOnly: {
    token: 'knap_at_FIXTURE-local-invoke-only-read-only-token-000001',
    kind: 'access',
    client: 'main',
    scope: 'knaps:read',
    expiresAt: FAR_FUTURE,
  },
  expired: {
    token: 'knap_at_FIXTURE-local-invoke-only-expired-token-0000001',
    kind: 'access',
    client: 'main',
    scope: ALL_SCOPES,
    expiresAt: LONG_AGO,
  },
  revoked: {
    token: 'knap_at_FIXTURE-local-invoke-only-revoked-client-token-01',
    kind: 'access',
    client: 'revoked',
    scope: ALL_SCOPES,
    expiresAt: FAR_FUTURE,
  },
  limited: {
    token: 'knap_at_FIXTURE-local-invoke-only-limited-client-token-01',
    kind: 'access',
    client: 'limited',
    scope: ALL_SCOPES,
    expiresAt: FAR_FUTURE,
  },
  colleague: {
    token: 'knap_at_FIXTURE-local-invoke-only-colleague-token-000001',
    kind: 'access',
    client: 'colleague',
    scope: ALL_SCOPES,
    expiresAt: FAR_FUTURE,
  },
} as const satisfies Record<string, FixtureToken>;

interface FixtureKnap {
  owner: ClientKey;
  knap: Knap;
  /** The version (ETag `"<version>"`) seeding leaves it at: 1, or more for a Knap "changed since it was read". */
  version: number;
}

const knap = (owner: ClientKey, uuid: string, name: string, visibility: string, minute: number, version = 1): FixtureKnap => {
  const timestamp = `2026-01-02T09:${String(minute).padStart(2, '0')}:00.000Z`;
  return {
    owner,
    version,
    knap: {
      uuid,
      name,
      creation_user_id: CLIENTS[owner].userId,
      schedule_type: 'manual',
      is_active: true,
      visibility,
      can_toggle_default_active: visibility !== 'private',
      active_by_default: true,
      tool_metadata: { action_description: `${name} (fixture)` },
      creation_timestamp: timestamp,
      updated_at: timestamp,
      schedule_info: null,
      next_run_at: null,
    },
  };
};

/**
 * The fixture Knaps, by role. The listing events see all of them; the events on one Knap
 * (events/get-knap, update-knap, delete-knap) each name the one they need.
 */
export const FIXTURE_KNAPS = {
  /** The main client's private Knap: read, renamed (200) and refused a blank name (400). */
  ownPrivate: knap('main', '0b6f1c52-3f0e-4c1a-9a57-6d1f0b0c0001', 'Summarize support tickets', 'private', 1),
  /** The main client's Knap shared with its organization: changed by a merge patch. */
  ownShared: knap('main', '0b6f1c52-3f0e-4c1a-9a57-6d1f0b0c0002', 'Weekly pipeline digest', FIXTURE_ORG, 2),
  colleaguePublic: knap('colleague', '0b6f1c52-3f0e-4c1a-9a57-6d1f0b0c0003', 'Meeting notes to CRM', 'public', 3),
  /** Never visible to the main client: 404, as if it did not exist. */
  colleaguePrivate: knap('colleague', '0b6f1c52-3f0e-4c1a-9a57-6d1f0b0c0004', "A colleague's private draft", 'private', 4),
  /** Another organization's: 404 to the main client, public or not. */
  otherOrg: knap('stranger', '0b6f1c52-3f0e-4c1a-9a57-6d1f0b0c0005', 'Another organization', 'public', 5),
  /** The main client's, touched only by events/delete-knap/204-own.json, so deleting it breaks no other event. */
  toDelete: knap('main', '0b6f1c52-3f0e-4c1a-9a57-6d1f0b0c0006', 'Old standup reminder', 'private', 6),
  /** A colleague's Knap shared with the organization: the main client reads it, but may not change or delete it (403). */
  colleagueShared: knap('colleague', '0b6f1c52-3f0e-4c1a-9a57-6d1f0b0c0007', 'Team retro summary', FIXTURE_ORG, 7),
  /**
   * The main client's, at version 2: changed once since a client read it at ETag "1", so
   * If-Match: "1" is stale (412). No event changes it (a change would only raise the version).
   */
  changedSinceRead: knap('main', '0b6f1c52-3f0e-4c1a-9a57-6d1f0b0c0008', 'Quarterly OKR check-in', 'private', 8, 2),
} as const satisfies Record<string, FixtureKnap>;

/** Every fixture Knap, in creation order. */
export const KNAPS: readonly FixtureKnap[] = Object.values(FIXTURE_KNAPS);

const isConditionFailure = (error: unknown): boolean =>
  error instanceof ConditionalCheckFailedException || (error as Error | undefined)?.name === 'ConditionalCheckFailedException';

/** Creates the client, or brings an existing one back to the fixture's state; returns its generation. */
const seedClient = async (repo: Repository, spec: FixtureClient): Promise<number> => {
  const client: ApiClient = {
    clientId: spec.clientId,
    orgName: spec.orgName,
    name: spec.name,
    description: 'Fixture for local invocation (scripts/fixtures.ts)',
    userId: spec.userId,
    status: spec.status,
    generation: 1,
    rateLimit: spec.rateLimit,
    scopes: [...DEFAULT_SCOPES],
    secretHash: hashCredential(spec.secret),
    createdAt: CREATED_AT,
    updatedAt: CREATED_AT,
    lastUsedAt: null,
  };
  try {
    await repo.putNewClient(client);
    return client.generation;
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
  // Seeded before (a persistent DYNAMODB_ENDPOINT): reset what an earlier run may have changed.
  const updated = await repo.updateClient(
    spec.clientId,
    { secretHash: client.secretHash, status: spec.status, rateLimit: spec.rateLimit },
    isoSeconds(new Date()),
  );
  if (!updated) throw new Error(`Fixture client ${spec.clientId} vanished while seeding`);
  return updated.generation;
};

/** Refuses to put known credentials into a table on AWS. */
export const assertLocalEndpoint = (endpoint: string | undefined): void => {
  if (!endpoint)
    throw new Error('Fixtures are only seeded into a local DynamoDB (set DYNAMODB_ENDPOINT or use the embedded one)');
  const host = new URL(endpoint).hostname;
  if (/(^|\.)amazonaws\.com(\.cn)?$|(^|\.)api\.aws$/i.test(host)) {
    throw new Error(`Refusing to seed fixture credentials into ${endpoint}: that is AWS, not a local DynamoDB`);
  }
};

/**
 * Seeds every fixture: clients, tokens (one BatchWriteItem), Knaps. Idempotent, so it may
 * run again on a persistent local table.
 */
export const seedFixtures = async (repo: Repository, endpoint: string | undefined): Promise<void> => {
  assertLocalEndpoint(endpoint);
  const generations = new Map<ClientKey, number>();
  for (const key of Object.keys(CLIENTS) as ClientKey[]) {
    generations.set(key, await seedClient(repo, CLIENTS[key]));
  }
  const records: TokenRecord[] = Object.values(TOKENS).map((fixture) => ({
    tokenHash: hashCredential(fixture.token),
    kind: fixture.kind,
    clientId: CLIENTS[fixture.client].clientId,
    generation: generations.get(fixture.client) ?? 1,
    scope: fixture.scope,
    issuedAt: ISSUED_AT,
    expiresAt: fixture.expiresAt,
  }));
  await repo.putTokens(records);
  for (const fixture of KNAPS) await seedKnap(repo, fixture);
  await primeRateLimits(repo);
};

const ownershipOf = (fixture: FixtureKnap): KnapOwnership => ({
  orgName: CLIENTS[fixture.owner].orgName,
  creatorClientId: CLIENTS[fixture.owner].clientId,
});

/**
 * Puts a fixture Knap back exactly as the fixture says, at its version: brought back when an
 * event deleted it, un-done when one changed it. Left alone when it is as it should be.
 */
const seedKnap = async (repo: Repository, fixture: FixtureKnap): Promise<void> => {
  const ownership = ownershipOf(fixture);
  const { uuid } = fixture.knap;
  // A concurrent writer (another invoke on the same table) can win a step; start over then.
  for (let attempt = 1; attempt <= 3; attempt += 1) {
    const stored = await repo.getKnap(ownership.orgName, uuid);
    if (
      stored &&
      stored.version === fixture.version &&
      isDeepStrictEqual(stored.ownership, ownership) &&
      isDeepStrictEqual(stored.knap, fixture.knap)
    ) {
      return;
    }
    if (stored && !(await repo.deleteKnap(ownership.orgName, uuid, stored.version))) continue;
    if (!(await repo.putKnap(fixture.knap, ownership))) continue;
    let version = 1;
    while (version < fixture.version && (await repo.replaceKnap(fixture.knap, ownership, version))) version += 1;
    if (version === fixture.version) return;
  }
  throw new Error(`Could not reset fixture Knap ${uuid}: something else keeps changing it`);
};

/**
 * Puts the fixture Knap with this uuid back as seeded, if there is one (see seedKnap); call it
 * before an event that names a Knap, so no earlier event (a rename, a delete) changes its status.
 * True when `uuid` is a fixture Knap's.
 */
export const resetFixtureKnap = async (repo: Repository, uuid: string): Promise<boolean> => {
  const fixture = KNAPS.find((candidate) => candidate.knap.uuid === uuid);
  if (!fixture) return false;
  await seedKnap(repo, fixture);
  return true;
};

/**
 * Uses up the `limited` client's one request of the current minute, so its next request
 * is refused with 429. Call it again right before an event that expects 429: the minute
 * may have turned since seeding.
 */
export const primeRateLimits = async (repo: Repository, now = new Date()): Promise<void> => {
  const { clientId } = CLIENTS.limited;
  const client = await repo.getClient(clientId);
  if (!client) throw new Error('Seed the fixtures before priming the rate limit');
  // Opens the current window at 1 (= the limit). If this window is already open, the
  // condition fails, and the count is at the limit already.
  await repo.countRequest({
    clientId,
    guard: { generation: client.generation },
    window: windowStart(now),
    now: isoSeconds(now),
    mode: 'open',
    defaultLimit: DEFAULT_RATE_LIMIT,
  });
};
