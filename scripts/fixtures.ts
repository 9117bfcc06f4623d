/**
 * Fixed credentials for local invocation (`npm run invoke`, test/invoke) and for the
 * events in events/: a known client with a known secret, known access and refresh tokens,
 * a few Knaps to list, read, change, delete and run, and a few runs. They exist only in tables this module
 * seeds (an in-memory dynalite by default); `seedFixtures` refuses an AWS endpoint, so they
 * can never become a back door into a deployed table. For the admin routes: webhook endpoints,
 * and organization admins whose tokens a fixed fixture key signs (ADMIN_TOKENS), trusted only
 * by the invoke environment (scripts/invoke-core.ts), never by a deployment.
 *
 * Only hashes are stored, as the real code does: sha256(secret), sha256(token).
 */
import { createPrivateKey, sign } from 'node:crypto';
import { isDeepStrictEqual } from 'node:util';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { type ApiClient, type ClientSecret, DEFAULT_RATE_LIMIT, DEFAULT_SCOPES, secretIdOf } from '../shared/domain/clients.js';
import { epochSeconds, isoSeconds } from '../shared/domain/clock.js';
import { hashCredential } from '../shared/domain/credentials.js';
import type { Knap, KnapOwnership } from '../shared/domain/knaps.js';
import { windowStart } from '../shared/domain/rate-limit.js';
import type { Repository } from '../shared/domain/repository.js';
import { newRun, type Run, type StoredRun } from '../shared/domain/runs.js';
import type { TokenKind, TokenRecord } from '../shared/domain/tokens.js';
import type { WebhookEndpoint } from '../shared/domain/webhooks.js';

export const FIXTURE_ORG = 'acme';

/** Seals the tokens that local invocation grants; it never leaves this machine (deployed keys are in Secrets Manager). */
export const INVOKE_TOKEN_KEY = 'FIXTURE-local-invoke-only-token-signing-key-not-a-secret';
export const OTHER_ORG = 'globex';

/** Issued long ago, valid until 2100: fixtures never expire under a test. */
const ISSUED_AT = epochSeconds(new Date('2026-01-01T00:00:00Z'));
/** The fixture tokens are of the stored format, which local invocation accepts as long as they live (STORED_TOKENS_UNTIL). */
export const FIXTURE_TOKENS_UNTIL = '2100-01-01T00:00:00Z';
const FAR_FUTURE = epochSeconds(new Date(FIXTURE_TOKENS_UNTIL));
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
  /** A second live secret (a rotation under way): events/admin-remove-secret retires it. */
  extraSecret?: string;
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
  /**
   * A client of the fixture organization that only the admin events change: its secret is
   * regenerated (events/admin-regenerate-secret) and it is renamed (events/admin-update-client),
   * so the main client's secret and tokens stay valid for every other event.
   */
  adminManaged: {
    clientId: 'knap_ci_f1x7u7e0000000000000000000000006',
    secret: 'knap_cs_FIXTURE-local-invoke-only-admin-managed-secret-06',
    name: 'Fixture managed by its admin',
    userId: 4206,
    orgName: FIXTURE_ORG,
    status: 'active',
    rateLimit: 100,
  },
  /** Revoked by events/admin-revoke-client/204-active-client (and active again before it, see resetFixtureClient). */
  toRevoke: {
    clientId: 'knap_ci_f1x7u7e0000000000000000000000007',
    secret: 'knap_cs_FIXTURE-local-invoke-only-to-revoke-secret-0007',
    extraSecret: 'knap_cs_FIXTURE-local-invoke-only-to-revoke-second-07',
    name: 'Fixture the admin revokes',
    userId: 4207,
    orgName: FIXTURE_ORG,
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

/**
 * The fixture tokens, stored as sha256 hashes with generation = the client's current one: the
 * stored format of tokens issued before sealed tokens (43 characters after the prefix), which
 * the API still reads, so the events stay valid on a persistent table whatever its key.
 */
export const TOKENS = {
  access: {
    token: 'knap_at_FIXTURE-invoke-only-access-token-0000000000',
    kind: 'access',
    client: 'main',
    scope: ALL_SCOPES,
    expiresAt: FAR_FUTURE,
  },
  refresh: {
    token: 'knap_rt_FIXTURE-invoke-only-refresh-token-000000000',
    kind: 'refresh',
    client: 'main',
    scope: ALL_SCOPES,
    expiresAt: FAR_FUTURE,
  },
  readOnly: {
    token: 'knap_at_FIXTURE-invoke-only-read-only-token-0000000',
    kind: 'access',
    client: 'main',
    scope: 'read:knaps',
    expiresAt: FAR_FUTURE,
  },
  expired: {
    token: 'knap_at_FIXTURE-invoke-only-expired-token-000000000',
    kind: 'access',
    client: 'main',
    scope: ALL_SCOPES,
    expiresAt: LONG_AGO,
  },
  revoked: {
    token: 'knap_at_FIXTURE-invoke-only-revoked-client-token-00',
    kind: 'access',
    client: 'revoked',
    scope: ALL_SCOPES,
    expiresAt: FAR_FUTURE,
  },
  limited: {
    token: 'knap_at_FIXTURE-invoke-only-limited-client-token-00',
    kind: 'access',
    client: 'limited',
    scope: ALL_SCOPES,
    expiresAt: FAR_FUTURE,
  },
  colleague: {
    token: 'knap_at_FIXTURE-invoke-only-colleague-token-0000000',
    kind: 'access',
    client: 'colleague',
    scope: ALL_SCOPES,
    expiresAt: FAR_FUTURE,
  },
} as const satisfies Record<string, FixtureToken>;

/**
 * Organization admins for local invocation: a FIXED Ed25519 key pair, committed here, that
 * signs the fixture admin tokens (JWTs, as an OpenID Connect provider issues them). It is a
 * fixture key for `npm run invoke` and test/invoke only: its issuer is a `.invalid` host no
 * deployment names (ADMIN_ISSUER is Cognito's or a team's own), and only the invoke
 * environment publishes its public half, on 127.0.0.1 for as long as it runs
 * (scripts/invoke-core.ts), so no deployed function ever trusts it.
 */
export const FIXTURE_ADMIN_ISSUER = 'https://fixture-admin-issuer.invalid/local-invoke-only';
/** The audience the fixture admin tokens are for (`aud`), as ADMIN_AUDIENCE names it. */
export const FIXTURE_ADMIN_AUDIENCE = 'knap-admin-api-fixture';
/** The claim naming the admin's organization, as the local provider's tokens carry it (ADMIN_ORG_CLAIM). */
export const FIXTURE_ADMIN_ORG_CLAIM = 'org';
const FIXTURE_ADMIN_KEY_ID = 'FIXTURE-local-invoke-only-admin-key-1';

/** The private half: a fixture, not a secret (see above). Ed25519 signatures are deterministic, so the tokens are too. */
const FIXTURE_ADMIN_PRIVATE_JWK = {
  kty: 'OKP',
  crv: 'Ed25519',
  x: '2BAJe-SbI1SZzxLd2Ax-WEp-fq87jUtZfqihVcgkMsY',
  d: 'X_wfJmHCfAqUkDQpJFSubcFxAY6sUAuYBACyHSxoCbs',
} as const;

/** What the fixture issuer publishes at its JWKS URI: the public half only. */
export const FIXTURE_ADMIN_JWKS = {
  keys: [
    {
      kty: FIXTURE_ADMIN_PRIVATE_JWK.kty,
      crv: FIXTURE_ADMIN_PRIVATE_JWK.crv,
      x: FIXTURE_ADMIN_PRIVATE_JWK.x,
      kid: FIXTURE_ADMIN_KEY_ID,
      alg: 'EdDSA',
      use: 'sig',
    },
  ],
} as const;

const base64url = (value: string | Buffer): string => Buffer.from(value).toString('base64url');

/** A compact JWS (RFC 7515) of these claims, signed with the fixture key: what an OpenID Connect provider's access token is. */
const signFixtureJwt = (claims: Record<string, unknown>): string => {
  const input = `${base64url(JSON.stringify({ alg: 'EdDSA', typ: 'at+jwt', kid: FIXTURE_ADMIN_KEY_ID }))}.${base64url(JSON.stringify(claims))}`;
  const key = createPrivateKey({ key: { ...FIXTURE_ADMIN_PRIVATE_JWK }, format: 'jwk' });
  return `${input}.${base64url(sign(null, Buffer.from(input), key))}`;
};

interface FixtureAdmin {
  email: string;
  orgName: string;
  /** `exp`: 2100 for the valid ones. */
  expiresAt: number;
}

const adminClaims = (admin: FixtureAdmin): Record<string, unknown> => ({
  iss: FIXTURE_ADMIN_ISSUER,
  sub: admin.email,
  aud: FIXTURE_ADMIN_AUDIENCE,
  iat: ISSUED_AT,
  exp: admin.expiresAt,
  scope: 'openid email admin',
  email: admin.email,
  [FIXTURE_ADMIN_ORG_CLAIM]: admin.orgName,
});

/** The fixture admins: one of the fixture organization, one of another, and one whose token has expired. */
export const ADMINS = {
  /** The admin of every valid admin event: acts in the fixture organization (`acme`). */
  main: { email: 'ada.admin@acme.example', orgName: FIXTURE_ORG, expiresAt: FAR_FUTURE },
  /** Another organization's admin (`globex`): the fixture organization's clients, endpoints and runs are 404s to it. */
  otherOrg: { email: 'grace.admin@globex.example', orgName: OTHER_ORG, expiresAt: FAR_FUTURE },
  /** The fixture organization's admin with a token that expired long ago. */
  expired: { email: 'ada.admin@acme.example', orgName: FIXTURE_ORG, expiresAt: LONG_AGO },
} as const satisfies Record<string, FixtureAdmin>;

const mainAdminToken = signFixtureJwt(adminClaims(ADMINS.main));

/**
 * The fixture admin tokens (`Authorization: Bearer <token>` on /api/admin/*): JWTs signed with
 * the fixture key, valid until 2100 but `expired`; `tampered` is the main admin's token with
 * its organization changed to another one after signing, so its signature no longer holds.
 */
export const ADMIN_TOKENS = {
  main: mainAdminToken,
  otherOrg: signFixtureJwt(adminClaims(ADMINS.otherOrg)),
  expired: signFixtureJwt(adminClaims(ADMINS.expired)),
  tampered: (() => {
    const [header, , signature] = mainAdminToken.split('.');
    const claims = { ...adminClaims(ADMINS.main), [FIXTURE_ADMIN_ORG_CLAIM]: OTHER_ORG };
    return `${header}.${base64url(JSON.stringify(claims))}.${signature}`;
  })(),
} as const;

interface FixtureKnap {
  owner: ClientKey;
  knap: Knap;
  /** The version (ETag `"<version>"`) seeding leaves it at: 1, or more for a Knap "changed since it was read". */
  version: number;
}

const knap = (
  owner: ClientKey,
  uuid: string,
  name: string,
  visibility: string,
  minute: number,
  version = 1,
  /** What sets it apart from an active manual Knap: inactive, after meetings, scheduled. */
  changes: Partial<Knap> = {},
): FixtureKnap => {
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
      ...changes,
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
  /** The main client's, touched only by events/delete-knap/200-own.json, so deleting it breaks no other event. */
  toDelete: knap('main', '0b6f1c52-3f0e-4c1a-9a57-6d1f0b0c0006', 'Old standup reminder', 'private', 6),
  /** A colleague's Knap shared with the organization: the main client reads it, but may not change or delete it (403). */
  colleagueShared: knap('colleague', '0b6f1c52-3f0e-4c1a-9a57-6d1f0b0c0007', 'Team retro summary', FIXTURE_ORG, 7),
  /**
   * The main client's, at version 2: changed once since a client read it at ETag "1", so
   * If-Match: "1" is stale (412). No event changes it (a change would only raise the version).
   */
  changedSinceRead: knap('main', '0b6f1c52-3f0e-4c1a-9a57-6d1f0b0c0008', 'Quarterly OKR check-in', 'private', 8, 2),
  /** The main client's, switched off: running it now is refused (409). */
  inactive: knap('main', '0b6f1c52-3f0e-4c1a-9a57-6d1f0b0c0009', 'Paused invoice reminder', 'private', 9, 1, {
    is_active: false,
  }),
  /**
   * The main client's after-meeting Knap: every meeting report (events/report-meeting) runs
   * it, once per meeting.
   */
  afterMeeting: knap('main', '0b6f1c52-3f0e-4c1a-9a57-6d1f0b0c000a', 'Meeting action items', 'private', 10, 1, {
    schedule_type: 'post_meeting_transcription',
  }),
  /** The main client's, with a run history (FIXTURE_RUNS) that no event adds to: events/list-runs. */
  withHistory: knap('main', '0b6f1c52-3f0e-4c1a-9a57-6d1f0b0c000b', 'Daily standup digest', 'private', 11),
  /**
   * The main client's scheduled Knap, due since 2026-01-03T07:00Z: the dispatcher
   * (events/dispatch-runs) claims that occurrence and moves next_run_at on; each dispatcher
   * event finds it due again (resetDueFixtureKnaps). Its run's id derives from the
   * occurrence, so a table holds one run of it, however often it is dispatched.
   */
  due: knap('main', '0b6f1c52-3f0e-4c1a-9a57-6d1f0b0c000c', 'Morning metrics digest', 'private', 12, 1, {
    schedule_type: 'scheduled',
    tool_metadata: {
      action_description: 'Morning metrics digest (fixture)',
      schedule_description: 'every day at 7am',
      timezone: 'UTC',
    },
    schedule_info: {
      schedule_type: 'daily',
      schedule_time: '07:00',
      days_of_week: null,
      days_of_month: null,
      weeks_of_month: null,
      months_of_year: null,
      interval: 1,
      timezone: 'UTC',
      anchor_date: null,
    },
    next_run_at: '2026-01-03T07:00:00Z',
  }),
} as const satisfies Record<string, FixtureKnap>;

/** Every fixture Knap, in creation order. */
export const KNAPS: readonly FixtureKnap[] = Object.values(FIXTURE_KNAPS);

type FixtureKnapKey = keyof typeof FIXTURE_KNAPS;

const fixtureRun = (
  of: FixtureKnapKey,
  id: string,
  createdAt: string,
  outcome: Partial<Pick<Run, 'status' | 'attempts' | 'last_attempt_at' | 'last_error'>> = {},
): StoredRun => {
  const { knap: ofKnap, owner } = FIXTURE_KNAPS[of];
  const run = newRun({
    run_id: id,
    knap_uuid: ofKnap.uuid,
    trigger: 'manual',
    scheduled_for: null,
    meeting_id: null,
    created_at: createdAt,
  });
  // As the store reads back a run no attempt was logged on, and never redelivered.
  return {
    run: { ...run, ...outcome },
    orgName: CLIENTS[owner].orgName,
    deliveredTo: [],
    attemptLog: [],
    retryBase: 0,
    redeliveries: 0,
    knapName: ofKnap.name,
  };
};

/**
 * The fixture runs (ids shaped like a manual run's), by role. Seeding writes the missing
 * ones; with a RunWriter (the invoke environment has one) it also puts changed ones back.
 */
export const FIXTURE_RUNS = {
  /** withHistory's runs, oldest first: what events/list-runs/200-history lists, newest first. */
  delivered: fixtureRun('withHistory', 'run_0b6f1c523f0e4c1a9a576d1f0b0c0a01', '2026-01-05T08:00:00Z', {
    status: 'delivered',
    attempts: 1,
    last_attempt_at: '2026-01-05T08:00:00Z',
  }),
  failed: fixtureRun('withHistory', 'run_0b6f1c523f0e4c1a9a576d1f0b0c0a02', '2026-01-06T08:00:00Z', {
    status: 'failed',
    attempts: 8,
    last_attempt_at: '2026-01-06T10:41:09Z',
    last_error: 'HTTP 503 from https://hooks.acme.example/knaps',
  }),
  noEndpoint: fixtureRun('withHistory', 'run_0b6f1c523f0e4c1a9a576d1f0b0c0a03', '2026-01-07T08:00:00Z', {
    status: 'no_endpoint',
    attempts: 1,
    last_attempt_at: '2026-01-07T08:00:00Z',
    last_error: 'No webhook endpoint in the organization',
  }),
  /**
   * Manual runs of ownPrivate waiting for delivery, as start-run leaves them: the messages of
   * events/deliver-runs name them, and each such event finds them pending again.
   */
  awaitingDelivery: fixtureRun('ownPrivate', 'run_0b6f1c523f0e4c1a9a576d1f0b0c0b01', '2026-01-08T10:00:00Z'),
  awaitingDeliveryToo: fixtureRun('ownPrivate', 'run_0b6f1c523f0e4c1a9a576d1f0b0c0b02', '2026-01-08T10:05:00Z'),
  /**
   * A run of ownShared that failed for good: events/admin-redeliver-run sends it again (pending,
   * queued); each such event finds it failed again (resetFixtureRun).
   */
  toRedeliver: fixtureRun('ownShared', 'run_0b6f1c523f0e4c1a9a576d1f0b0c0c01', '2026-01-09T08:00:00Z', {
    status: 'failed',
    attempts: 8,
    last_attempt_at: '2026-01-09T10:41:09Z',
    last_error: 'HTTP 410 from https://hooks.acme.example/old-knaps',
  }),
  /**
   * A run of ownPrivate whose first attempt failed and whose retry is due: its executor (which
   * got the message) reports to it (events/report-run-event, with the report token that
   * message carried); pending, so its report window stays open.
   */
  reporting: fixtureRun('ownPrivate', 'run_0b6f1c523f0e4c1a9a576d1f0b0c0b03', '2026-01-08T11:00:00Z', {
    attempts: 1,
    last_attempt_at: '2026-01-08T11:00:01Z',
    last_error: 'timed out after 10 s (https://hooks.acme.example)',
  }),
  /** Another organization's run: a 404 to the fixture organization's admin. */
  otherOrg: fixtureRun('otherOrg', 'run_0b6f1c523f0e4c1a9a576d1f0b0c0d01', '2026-01-09T09:00:00Z', {
    status: 'delivered',
    attempts: 1,
    last_attempt_at: '2026-01-09T09:00:00Z',
  }),
} as const satisfies Record<string, StoredRun>;

/** Every fixture run. */
export const RUNS: readonly StoredRun[] = Object.values(FIXTURE_RUNS);

/**
 * The fixture webhook endpoints, all of another organization (`globex`): the fixture
 * organization has none, so its deliveries are recorded as no_endpoint (events/deliver-runs)
 * and nothing is ever sent out. Its admin lists them, removes one, and adds more; to the
 * fixture organization's admin they are 404s.
 */
export const FIXTURE_WEBHOOKS = {
  /** Listed by the other organization's admin; events/admin-remove-webhook/404-other-org names it. */
  otherOrg: {
    endpointId: 'we_0b6f1c523f0e4c1a9a570e01',
    orgName: OTHER_ORG,
    url: 'https://hooks.globex.example/knaps',
    secret: `whsec_${Buffer.from('FIXTURE-local-invoke-only-hook-1').toString('base64')}`,
    createdAt: CREATED_AT,
    eventTypes: null,
    description: null,
    disabled: false,
    disabledAt: null,
    previousSecret: null,
    previousSecretExpiresAt: null,
    failStreak: 0,
    failStreakSince: null,
    recentFailures: [],
    failRev: null,
  },
  /** Removed by events/admin-remove-webhook/204-own-endpoint; each such event finds it back (resetFixtureWebhook). */
  toRemove: {
    endpointId: 'we_0b6f1c523f0e4c1a9a570e02',
    orgName: OTHER_ORG,
    url: 'https://hooks.globex.example/old-knaps',
    secret: `whsec_${Buffer.from('FIXTURE-local-invoke-only-hook-2').toString('base64')}`,
    createdAt: CREATED_AT,
    eventTypes: null,
    description: null,
    disabled: false,
    disabledAt: null,
    previousSecret: null,
    previousSecretExpiresAt: null,
    failStreak: 0,
    failStreakSince: null,
    recentFailures: [],
    failRev: null,
  },
} as const satisfies Record<string, WebhookEndpoint>;

/** Every fixture webhook endpoint. */
export const WEBHOOKS: readonly WebhookEndpoint[] = Object.values(FIXTURE_WEBHOOKS);

/**
 * Writes a run whatever is stored under its id. The repository only ever creates runs
 * (delivery attempts are added to them), so putting one back as seeded takes a write of its
 * own: the invoke environment's (scripts/invoke-core.ts), never the deployed code's.
 */
export type RunWriter = (stored: StoredRun) => Promise<void>;

const isConditionFailure = (error: unknown): boolean =>
  error instanceof ConditionalCheckFailedException || (error as Error | undefined)?.name === 'ConditionalCheckFailedException';

const CLIENT_DESCRIPTION = 'Fixture for local invocation (scripts/fixtures.ts)';

/** Creates the client, or brings an existing one back to the fixture's state; returns its generation. */
const secretsOf = (spec: FixtureClient): ClientSecret[] =>
  [spec.secret, ...(spec.extraSecret ? [spec.extraSecret] : [])].map((secret) => ({
    secretId: secretIdOf(hashCredential(secret)),
    secretHash: hashCredential(secret),
    createdAt: CREATED_AT,
    lastUsedAt: null,
    expiresAt: null,
  }));

const seedClient = async (repo: Repository, spec: FixtureClient): Promise<number> => {
  const client: ApiClient = {
    clientId: spec.clientId,
    orgName: spec.orgName,
    name: spec.name,
    description: CLIENT_DESCRIPTION,
    userId: spec.userId,
    status: spec.status,
    generation: 1,
    rateLimit: spec.rateLimit,
    scopes: [...DEFAULT_SCOPES],
    secrets: secretsOf(spec),
    legacySecret: false,
    createdAt: CREATED_AT,
    updatedAt: CREATED_AT,
    lastUsedAt: null,
    revocations: {},
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
    {
      secretHash: hashCredential(spec.secret),
      status: spec.status,
      rateLimit: spec.rateLimit,
      // An admin event may have renamed it (events/admin-update-client).
      name: spec.name,
      description: CLIENT_DESCRIPTION,
    },
    isoSeconds(new Date()),
  );
  if (!updated) throw new Error(`Fixture client ${spec.clientId} vanished while seeding`);
  const [, extra] = secretsOf(spec);
  if (extra)
    await repo.changeClientSecrets(spec.clientId, { kind: 'add', secret: extra, drop: [] }, updated, isoSeconds(new Date()));
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
 * Seeds every fixture: clients, tokens (one BatchWriteItem), Knaps, runs. Idempotent, so it
 * may run again on a persistent local table; runs an earlier run changed (a delivery attempt)
 * are put back only given a RunWriter.
 */
export const seedFixtures = async (repo: Repository, endpoint: string | undefined, writeRun?: RunWriter): Promise<void> => {
  assertLocalEndpoint(endpoint);
  const generations = new Map<ClientKey, number>();
  for (const key of Object.keys(CLIENTS) as ClientKey[]) {
    generations.set(key, await seedClient(repo, CLIENTS[key]));
  }
  await repo.putTokens(tokenRecords(Object.values(TOKENS), generations));
  for (const fixture of KNAPS) await seedKnap(repo, fixture);
  for (const fixture of RUNS) await seedRun(repo, fixture, writeRun);
  for (const fixture of WEBHOOKS) await seedWebhook(repo, fixture);
  await primeRateLimits(repo);
};

/** The stored records of these fixture tokens, each at its client's generation. */
const tokenRecords = (fixtures: readonly FixtureToken[], generations: ReadonlyMap<ClientKey, number>): TokenRecord[] =>
  fixtures.map((fixture) => ({
    tokenHash: hashCredential(fixture.token),
    kind: fixture.kind,
    clientId: CLIENTS[fixture.client].clientId,
    generation: generations.get(fixture.client) ?? 1,
    scope: fixture.scope,
    issuedAt: ISSUED_AT,
    expiresAt: fixture.expiresAt,
  }));

/**
 * Puts the fixture client with this id back as seeded (its secret, status, name, description
 * and rate limit, and its fixture tokens at its generation), if there is one; call it before an
 * event that names a client, so that no earlier event (a revocation, a new secret, a rename)
 * changes its status. Writes nothing when the client is as seeded. True when `clientId` is a
 * fixture client's.
 */
export const resetFixtureClient = async (repo: Repository, clientId: string): Promise<boolean> => {
  const key = (Object.keys(CLIENTS) as ClientKey[]).find((candidate) => CLIENTS[candidate].clientId === clientId);
  if (key === undefined) return false;
  const spec: FixtureClient = CLIENTS[key];
  const stored = await repo.getClient(clientId);
  if (
    stored &&
    stored.orgName === spec.orgName &&
    stored.status === spec.status &&
    stored.secrets
      .map((secret) => secret.secretHash)
      .sort()
      .join() ===
      secretsOf(spec)
        .map((secret) => secret.secretHash)
        .sort()
        .join() &&
    stored.rateLimit === spec.rateLimit &&
    stored.name === spec.name &&
    stored.description === CLIENT_DESCRIPTION
  ) {
    return true;
  }
  const generation = await seedClient(repo, spec);
  const tokens = Object.values(TOKENS).filter((fixture) => fixture.client === key);
  if (tokens.length > 0) await repo.putTokens(tokenRecords(tokens, new Map([[key, generation]])));
  return true;
};

/** Writes a missing fixture webhook endpoint (endpoints are only ever added and removed, never changed). */
const seedWebhook = async (repo: Repository, fixture: WebhookEndpoint): Promise<void> => {
  try {
    await repo.putWebhookEndpoint(fixture);
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
};

/**
 * Puts the fixture webhook endpoint with this id back, if there is one (an earlier event may
 * have removed it); call it before an event that names an endpoint. True when `endpointId` is
 * a fixture endpoint's.
 */
export const resetFixtureWebhook = async (repo: Repository, endpointId: string): Promise<boolean> => {
  const fixture = WEBHOOKS.find((candidate) => candidate.endpointId === endpointId);
  if (!fixture) return false;
  await seedWebhook(repo, fixture);
  return true;
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
 * Puts every fixture Knap that is scheduled back as seeded, so the dispatcher finds its
 * occurrence due again (an earlier dispatch moved next_run_at on). Call it before a
 * dispatcher event.
 */
export const resetDueFixtureKnaps = async (repo: Repository): Promise<void> => {
  for (const fixture of KNAPS) if (fixture.knap.schedule_type === 'scheduled') await seedKnap(repo, fixture);
};

/** Writes a missing fixture run; given a writer, also puts back one that differs from the fixture. */
const seedRun = async (repo: Repository, fixture: StoredRun, writeRun: RunWriter | undefined): Promise<void> => {
  if (await repo.putRun(fixture)) return;
  if (!writeRun) return;
  const stored = await repo.getRun(fixture.run.run_id);
  if (!isDeepStrictEqual(stored, fixture)) await writeRun(fixture);
};

/**
 * Puts the fixture run with this id back as seeded (pending again, after a delivery attempt),
 * if there is one; call it before an event that delivers it. True when `runId` is a fixture run's.
 */
export const resetFixtureRun = async (repo: Repository, runId: string, writeRun: RunWriter): Promise<boolean> => {
  const fixture = RUNS.find((candidate) => candidate.run.run_id === runId);
  if (!fixture) return false;
  await seedRun(repo, fixture, writeRun);
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
