/**
 * The storage port: what the services need from a store, in domain terms. The one
 * implementation, over DynamoDB, is shared/store/dynamo-repository.ts; it alone knows the keys.
 */
import type { AdminAccount } from './admins.js';
import type { AuditEvent, AuditPage } from './audit.js';
import type { ApiClient, ClientSecret, ClientStatus } from './clients.js';
import type { ClaimResult, IdempotencyRecord, StoredResponse } from './idempotency.js';
import type { Knap, KnapOwnership, KnapPage, StoredKnap } from './knaps.js';
import type { QuotaKind, QuotaLimits, QuotaUsage } from './quotas.js';
import type { RequestScope } from './request-scope.js';
import type { ChainState, RunEvent, RunOutcome } from './run-events.js';
import type {
  DeliveryAttemptEntry,
  MeetingKnapsPage,
  MeetingKnapsViewer,
  OrgRunFilter,
  Run,
  RunStatus,
  StoredRun,
} from './runs.js';
import type { GrantRecord, TokenRecord, TokenStanding } from './tokens.js';
import type {
  DeliveryAttempt,
  EndpointDelivery,
  EndpointDeliveryPage,
  EventMessage,
  FailureRecord,
  WebhookEndpoint,
  WebhookEndpointChanges,
} from './webhooks.js';

/** A client together with its rate-limit counter, as the meter sees it. */
export interface MeteredClient {
  client: ApiClient;
  window: number | null;
  count: number;
  /** The write token of the last metering write (CountRequestInput.writeToken), if any. */
  writeToken?: string;
}

/**
 * What a metered request must match, besides the client being active: the client's secret,
 * or a token's generation (and, for tokens sealed by versions that marked revocations on the
 * client item, none of its ids marked there).
 */
export type RequestGuard =
  | {
      secretHash: string;
      /**
       * The client's one secret is still stored as earlier versions stored it (`secret_hash`):
       * check it there, and move it into the secrets map in the same write (its creation time).
       */
      legacy?: { createdAt: string };
    }
  | { generation: number; notRevoked?: readonly string[] }
  /** A client assertion (private_key_jwt), verified already against the client's keys: the client need only be active. */
  | { assertion: true };

/**
 * A change to a client's secrets in one conditional write, made only if its secrets are still
 * as read (`seen`): add one (dropping expired ones), or remove one.
 */
export type SecretsChange = { kind: 'add'; secret: ClientSecret; drop: readonly string[] } | { kind: 'remove'; secretId: string };

export interface CountRequestInput {
  clientId: string;
  guard: RequestGuard;
  window: number;
  now: string;
  /** The limit of a client that has none of its own. */
  defaultLimit: number;
  /** `continue`: the counter is already in this window; `open`: start this window at 1. */
  mode: 'continue' | 'open';
  /**
   * Continuing a window: whether the client is expected to have a limit of its own (`own`)
   * or to follow the default. A wrong guess fails the write like a stale window does, and
   * the caller tries again knowing better; the guess keeps the condition free of an OR.
   */
  limit?: 'own' | 'default';
  /**
   * This request's token, stored by the write: an SDK retry of a write that was applied (its
   * answer lost) finds its own token and is taken as applied, not counted again.
   */
  writeToken?: string;
}

export type CountRequestResult = { applied: true; state: MeteredClient } | { applied: false; state: MeteredClient | null };

/** A client's public JWKs (RFC 7517), as registered. */
export interface ClientJwks {
  keys: Record<string, unknown>[];
  updatedAt: string;
}

export interface ClientChanges {
  name?: string;
  description?: string;
  secretHash?: string;
  status?: ClientStatus;
  /** Current names only (canonicalScopes). */
  scopes?: readonly string[];
  /** A limit of its own, or null to follow the deployment's default again. */
  rateLimit?: number | null;
  /** End every token issued so far. */
  bumpGeneration?: boolean;
}

export interface RevocationMigration {
  /** Client items that held marks. */
  clients: number;
  /** Marks still in force, now revocation items. */
  moved: number;
  /** Marks removed from client items. */
  removed: number;
}

/** A schedule's RRULE from its first run on (`first`: ISO, or null when it has no run left), or null. */
export type ScheduleRrule = (info: NonNullable<Knap['schedule_info']>, first: string | null) => string | null;

export interface PageRequest {
  limit: number;
  cursor?: string;
}

export interface Repository {
  /**
   * The same store, its DynamoDB calls bound to one request: its deadline, its round-trip
   * counter. A wrapper of a store (a test's failing one) must wrap what this returns too.
   */
  within?(scope: RequestScope): Repository;
  /**
   * Stores a new client; `writeToken` (stored in the item) lets the SDK's retry of this write,
   * after an answer was lost, find its own item and succeed instead of failing as a duplicate.
   */
  putNewClient(client: ApiClient, writeToken?: string): Promise<void>;
  getClient(clientId: string): Promise<ApiClient | null>;
  listClientsByOrg(orgName: string): Promise<ApiClient[]>;
  /**
   * Applies `changes` in one conditional write; null when there is no such client (or, with
   * `onlyIf`, when it is not of that organization, or not active: nothing is written then).
   */
  updateClient(
    clientId: string,
    changes: ClientChanges,
    now: string,
    onlyIf?: { orgName: string; active: boolean },
  ): Promise<ApiClient | null>;
  countRequest(input: CountRequestInput): Promise<CountRequestResult>;
  /** Applies `change` if the client is active, of `orgName` (when given), with its secrets as in `seen`; the client after it, or null. */
  changeClientSecrets(
    clientId: string,
    change: SecretsChange,
    seen: Pick<ApiClient, 'secrets' | 'legacySecret'>,
    now: string,
    orgName?: string,
  ): Promise<ApiClient | null>;
  /** A client's registered public keys (private_key_jwt), or null when it has none. */
  getClientJwks(clientId: string): Promise<ClientJwks | null>;
  putClientJwks(clientId: string, jwks: ClientJwks): Promise<void>;
  /**
   * Records a client assertion's jti until `expiresAt` (epoch seconds) in one conditional put;
   * false when it was used before (a replay).
   */
  useAssertionId(clientId: string, jti: string, expiresAt: number, nowSeconds: number): Promise<boolean>;
  /** Stores several tokens in one round trip (an access and a refresh token per grant). */
  putTokens(records: TokenRecord[]): Promise<void>;
  getToken(tokenHash: string): Promise<TokenRecord | null>;
  /** Deletes tokens (revocation): gone, they are unknown on their next use. */
  deleteTokens(tokenHashes: string[]): Promise<void>;
  /** Stores a refresh token's grant; the token itself is never stored. */
  putGrant(grant: GrantRecord): Promise<void>;
  /** Deletes a grant by its key (its refresh token is unknown from then on); nothing when it is gone already. */
  deleteGrant(grantKey: string): Promise<void>;
  /**
   * In one round trip: the grant `grantKey` names (null when absent or not asked for), and
   * whether any of `revocationIds` (token ids, grant ids) has been revoked.
   */
  tokenStanding(query: { grantKey?: string; revocationIds: readonly string[] }): Promise<TokenStanding>;
  /**
   * Revokes token ids or grant ids, each until the epoch second after which nothing it names
   * can be used (a revocation is never shortened by a later, shorter one). One small item each:
   * nothing that every request reads or writes grows.
   */
  putRevocations(revocations: Readonly<Record<string, number>>): Promise<void>;
  /** Takes back one request counted in `window` (a request its token's revocation refused); nothing when the window has moved on. */
  refundRequest(clientId: string, window: number): Promise<void>;
  /**
   * Moves the revocation marks earlier versions kept on client items (`rv_...`) out: those still
   * in force become revocation items, then every mark is removed, in writes small enough for
   * DynamoDB's limits. Idempotent; returns what it did.
   */
  migrateClientRevocations(nowSeconds: number): Promise<RevocationMigration>;
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
  /** Every Knap of an organization, private ones included (admins), by uuid. */
  listOrgKnaps(orgName: string, page: PageRequest): Promise<{ knaps: StoredKnap[]; next: string | null }>;
  /**
   * Up to `page.limit` of the active after-meeting Knaps `viewer` sees (its own, then its
   * organization's shared ones not its own: each Knap once), from `page.cursor` on; `next`
   * resumes right after the last one returned. Reads by the creator and shared indexes, never
   * a scan; a page may take several queries when most Knaps are of other kinds.
   */
  listMeetingKnaps(viewer: MeetingKnapsViewer, page: PageRequest): Promise<MeetingKnapsPage>;
  /** How many of those Knaps there are from `cursor` on (COUNT queries: no items come back). */
  countMeetingKnaps(viewer: MeetingKnapsViewer, cursor: string): Promise<number>;
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

  /** Active scheduled Knaps of one shard of the due index whose next run is at or before `now`, soonest first. */
  dueKnaps(shard: number, now: string, limit: number): Promise<StoredKnap[]>;
  /**
   * The due-index entries of one shard due at or before `now`, soonest first, up to `limit`:
   * one keys-only query, no Knap read (each names its organization and due time).
   */
  dueEntries(shard: number, now: string, limit: number): Promise<DueEntry[]>;
  /** The Knaps of these keys (BatchGetItem); one deleted meanwhile is left out. */
  knapsByKeys(keys: readonly DueEntry['key'][]): Promise<StoredKnap[]>;
  /**
   * How much of one shard of the due index is due at or before `now`, counted up to `limit`
   * (one keys-only query, no Knap read), and its oldest `next_run_at` (null when nothing is).
   */
  dueSummary(shard: number, now: string, limit: number): Promise<{ due: number; oldest: string | null }>;
  /**
   * Claims the occurrence `stored.knap.next_run_at` of a Knap: in one conditional write that
   * holds only while the Knap is still at the version read, moves next_run_at (and the due
   * index) to `next`; `null` when the schedule has ended (a one-off, `until`, `count`): the Knap
   * leaves the due index with next_run_at null. False when another dispatcher, a PATCH or a
   * DELETE came first.
   */
  claimOccurrence(stored: StoredKnap, next: string | null): Promise<boolean>;
  /** The names of an organization's Knaps by uuid; a Knap that is gone is left out. */
  knapNames(orgName: string, uuids: readonly string[]): Promise<Map<string, string>>;
  /** Gives scheduled Knaps written before the due index existed their entry in it; returns how many. Idempotent. */
  backfillDueIndex(): Promise<number>;
  /**
   * Gives active scheduled Knaps stored before schedule_info.rrule theirs, worked out from their
   * next run (null once ended); returns how many. Idempotent; a Knap changed since is left as it is.
   */
  backfillScheduleRrules(rruleOf: ScheduleRrule): Promise<number>;
  /**
   * Gives active after-meeting Knaps written before the meeting index existed their entry in
   * it; returns how many. Idempotent; a Knap changed since the scan is left to its own write.
   */
  backfillMeetingIndex(): Promise<number>;

  /** Stores a new run; false when a run with its id exists already (nothing is written then). */
  putRun(stored: StoredRun): Promise<boolean>;
  getRun(runId: string): Promise<StoredRun | null>;
  /** A Knap's runs, newest first. */
  listRuns(knapUuid: string, page: PageRequest): Promise<{ runs: Run[]; next: string | null }>;
  /**
   * An organization's runs, newest first, with their attempt logs; with a filter, only those
   * that match, reading a bounded number of runs per page (a page may hold fewer than `limit`,
   * even none, and still have a next cursor).
   */
  listRunsByOrg(orgName: string, page: PageRequest, filter?: OrgRunFilter): Promise<{ runs: StoredRun[]; next: string | null }>;
  /**
   * Makes a run of `orgName` pending again for every endpoint (its retries counted afresh), in
   * one conditional write that holds only while it is not pending: `pending` when it already
   * was (nothing written), `not_found` when there is no such run in the organization.
   */
  redeliverRun(runId: string, orgName: string): Promise<'redelivering' | 'pending' | 'not_found'>;
  /** Gives runs written before the organization index existed their entry in it; returns how many. Idempotent. */
  backfillOrgRunsIndex(): Promise<number>;
  /**
   * Records one delivery attempt on the run: attempts + 1, when, the error, the new status.
   * Null when there is no such run, or when it no longer has `attempt.number - 1` attempts
   * (another delivery of the same message recorded this attempt first): nothing is written then.
   */
  recordDeliveryAttempt(runId: string, attempt: DeliveryAttempt, status: RunStatus): Promise<StoredRun | null>;
  /**
   * The ids of the runs still waiting for a delivery attempt. A Scan of the whole table: for
   * `npm start`, whose queue is timers that die with the process (deployed, SQS keeps them).
   */
  pendingRunIds(): Promise<string[]>;

  /** The state of a run's event chain after its last stored event (INITIAL_CHAIN when none is). */
  runChainHead(runId: string): Promise<ChainState>;
  /** Stores event `event.id` of a run with the chain's state after it, only while that id is free; false when taken. */
  putRunEvent(runId: string, event: RunEvent, state: ChainState, expiresAt: number): Promise<boolean>;
  /** A run's events after id `after` in id order (at most `limit`), and the chain's state after the last of them. */
  runEventsAfter(runId: string, after: number, limit: number): Promise<{ events: RunEvent[]; state: ChainState | null }>;
  /** Sets a run's outcome, and when it finished its output or error; false when there is no such run. */
  setRunOutcome(
    runId: string,
    outcome: RunOutcome,
    finished?: { at: string; output: unknown; error: string | null },
  ): Promise<boolean>;
  /** Counts a run report of an organization in a minute (epoch seconds), only below `limit`; false at it. */
  meterRunReport(orgName: string, window: number, limit: number): Promise<boolean>;
  /** Takes one of a client's `slots` waiting-stream leases until `untilMs`; its index, or null when all are held. */
  claimStreamSlot(clientId: string, slots: number, nowMs: number, untilMs: number): Promise<number | null>;
  releaseStreamSlot(clientId: string, slot: number, untilMs: number): Promise<void>;

  /** Stores a new organization admin; false when one with this email exists already. */
  putNewAdmin(admin: AdminAccount): Promise<boolean>;
  getAdmin(email: string): Promise<AdminAccount | null>;
  /**
   * Whether the local identity provider has any admin yet (its sign-in page says how to make
   * the first). Walks the table until it finds one: meant for `npm start`'s small tables only.
   */
  hasAdmins(): Promise<boolean>;
  putAuditEvent(event: AuditEvent): Promise<void>;
  /** Counts one admin-API request of an admin in a minute, only below its limit (see AdminMeterInput). */
  meterAdminRequest(input: AdminMeterInput): Promise<AdminMeterResult>;
  /** An organization's audit events, newest first. */
  listAuditEvents(orgName: string, page: PageRequest): Promise<AuditPage>;

  /** A new endpoint; `writeToken` as putNewClient's. */
  putWebhookEndpoint(endpoint: WebhookEndpoint, writeToken?: string): Promise<void>;
  listWebhookEndpoints(orgName: string): Promise<WebhookEndpoint[]>;
  /** The endpoint deleted, or null when no endpoint has this id (in `orgName`, when given). */
  deleteWebhookEndpoint(endpointId: string, orgName?: string): Promise<WebhookEndpoint | null>;
  /**
   * Takes one place of each kind in the organization's quotas, all or none: null when done,
   * else a kind at its quota (nothing changed). `defaults`: the deployment's quotas.
   */
  reserveQuota(orgName: string, kinds: readonly QuotaKind[], defaults: QuotaLimits): Promise<QuotaKind | null>;
  /** Gives back one place of each kind (never below 0). */
  releaseQuota(orgName: string, kinds: readonly QuotaKind[]): Promise<void>;
  quotaUsage(orgName: string): Promise<QuotaUsage>;
  /** An organization's own quotas: a number sets one, null clears it (the default again). */
  setOrgQuotas(orgName: string, limits: Partial<Record<QuotaKind, number | null>>): Promise<void>;
  /**
   * Counts what each organization holds (a Scan) and sets the counts of those never counted
   * (every one with `force`); the number of organizations set.
   */
  recountQuotas(force?: boolean): Promise<number>;
  /** The endpoint as changed, or null when `orgName` has no endpoint with this id. */
  updateWebhookEndpoint(endpointId: string, orgName: string, changes: WebhookEndpointChanges): Promise<WebhookEndpoint | null>;

  getWebhookEndpoint(endpointId: string): Promise<WebhookEndpoint | null>;
  /**
   * One more message finally failed at the endpoint: its failure record becomes `next`, in one
   * conditional write on the record read (`seenRev`). 'applied'; the record as it is now when
   * another write changed it first; null when the endpoint is gone.
   */
  noteEndpointFailure(endpointId: string, seenRev: string | null, next: FailureRecord): Promise<'applied' | FailureRecord | null>;
  /** A message reached the endpoint: its streak of failures ends. */
  clearEndpointFailures(endpointId: string): Promise<void>;
  /**
   * Disables an enabled endpoint whose last `streak` recorded final failures began at or before
   * `startedBy`, in one conditional write (the record ends with it); the endpoint when this
   * write did it, else null.
   */
  disableFailingEndpoint(endpointId: string, at: string, streak: number, startedBy: string): Promise<WebhookEndpoint | null>;

  /**
   * Replaces the endpoint's secret with `secret`, keeping the one it had as its previous one
   * until `previousSecretExpiresAt` (one conditional write: no read, so two rotations at once
   * cannot lose a secret). The endpoint as changed, or null when `orgName` has no such endpoint.
   */
  rotateWebhookSecret(
    endpointId: string,
    orgName: string,
    rotation: { secret: string; previousSecretExpiresAt: string },
  ): Promise<WebhookEndpoint | null>;

  /** Counts one attempt at one endpoint on the run (attempts, last_attempt_at, last_error when it failed); false when the run is gone. */
  noteEndpointAttempt(runId: string, at: string, error: string | null): Promise<boolean>;
  /**
   * Ends a pending run's delivery with `status` (delivered: last_error cleared), only while it
   * is in delivery round `round` (1 + its redeliveries); false when it was not pending or is in another round.
   */
  finishRun(runId: string, status: RunStatus, lastError: string | null | undefined, round: number): Promise<boolean>;
  /**
   * Starts a round of a run's deliveries to these endpoints (new ones, and those of an earlier
   * round that failed, or with `all` that are over); returns the endpoints started.
   */
  startDeliveries(round: DeliveryRoundInput, endpointIds: readonly string[]): Promise<string[]>;
  /**
   * Stores a message other than knap.run (its deliveries are started apart, as a run's are):
   * false when one with its id exists already (nothing is written then).
   */
  putMessage(message: EventMessage, expiresAt: number): Promise<boolean>;
  getMessage(messageId: string): Promise<EventMessage | null>;
  getDelivery(runId: string, endpointId: string): Promise<EndpointDelivery | null>;
  /** Every endpoint's delivery of a run. */
  runDeliveries(runId: string): Promise<EndpointDelivery[]>;
  /** Records one attempt at one endpoint; null when another copy of the message recorded it first. */
  recordEndpointAttempt(runId: string, endpointId: string, attempt: EndpointAttemptInput): Promise<EndpointDelivery | null>;
  /** The runs whose delivery to the endpoint finally failed at or after `since`, oldest first, a page at a time. */
  failedDeliveries(endpointId: string, since: string, page: PageRequest): Promise<{ runIds: string[]; next: string | null }>;
  /** One page of an endpoint's deliveries, the one attempted last first. */
  endpointDeliveries(endpointId: string, page: PageRequest): Promise<EndpointDeliveryPage>;
}

/** A round of a run's deliveries (see Repository.startDeliveries). */
export interface DeliveryRoundInput {
  runId: string;
  orgName: string;
  /** 1 for the first delivery, one more per redelivery. */
  round: number;
  all: boolean;
  now: string;
  expiresAt: number;
  /** A message's type (not knap.run), kept on its deliveries for the endpoint's attempts listing. */
  messageType?: string;
}

/** One attempt at one endpoint (see Repository.recordEndpointAttempt). */
export interface EndpointAttemptInput {
  number: number;
  id: string;
  entry: DeliveryAttemptEntry;
  status: EndpointDelivery['status'];
  nextAt: string | null;
}

/** One entry of the due index, as the dispatcher orders its work (by organization, then due time). */
export interface DueEntry {
  key: { pk: string; sk: string };
  orgName: string;
  /** ISO: the Knap's next_run_at as the (eventually consistent) index has it. */
  nextRunAt: string;
}

/** A paging cursor the store did not issue for this listing. */
export class InvalidCursorError extends Error {
  constructor() {
    super('Invalid cursor');
    this.name = 'InvalidCursorError';
  }
}

/** One admin-API request to count: the admin (organization and subject), the minute, the limit. */
export interface AdminMeterInput {
  orgName: string;
  subject: string;
  /** The minute's start, epoch seconds. */
  window: number;
  limit: number;
  /** This request's write token: a retry of the same write is not counted twice. */
  writeToken: string;
}

/** Whether the request was counted (by this write or its own earlier try), and the count it saw. */
export interface AdminMeterResult {
  counted: boolean;
  count: number;
}
