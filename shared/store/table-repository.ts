/**
 * The Repository port over DynamoDB, assembled from the stores of the aggregates a function
 * uses (clients and grants, Knaps and the due index, runs, webhooks, idempotency, admins and
 * audit): each Lambda names its stores (shared/runtime.ts, defaultDeps), so its bundle carries
 * only those. A method of a store the function was not given fails at once, saying so: a
 * wiring mistake, which test/unit/function-stores.test.ts keeps out of every function.
 *
 * Every write is a single-item conditional write: no transactions and nothing half-written.
 */
import type { AdminAccount } from '../domain/admins.js';
import type { AuditEvent, AuditPage } from '../domain/audit.js';
import type { ApiClient } from '../domain/clients.js';
import type { ClaimResult, IdempotencyRecord, StoredResponse } from '../domain/idempotency.js';
import type { Knap, KnapOwnership, KnapPage, StoredKnap } from '../domain/knaps.js';
import type { QuotaKind, QuotaLimits, QuotaUsage } from '../domain/quotas.js';
import type {
  AdminMeterInput,
  AdminMeterResult,
  ClientChanges,
  ClientJwks,
  CountRequestInput,
  CountRequestResult,
  DueEntry,
  PageRequest,
  Repository,
  RevocationMigration,
  ScheduleRrule,
  SecretsChange,
} from '../domain/repository.js';
import type { RequestScope } from '../domain/request-scope.js';
import type { ChainState, RunEvent, RunOutcome } from '../domain/run-events.js';
import type { MeetingKnapsPage, MeetingKnapsViewer, OrgRunFilter, Run, RunStatus, StoredRun } from '../domain/runs.js';
import type { GrantRecord, TokenRecord, TokenStanding } from '../domain/tokens.js';
import type {
  DeliveryAttempt,
  EndpointDelivery,
  EndpointDeliveryPage,
  EventMessage,
  FailureRecord,
  WebhookEndpoint,
  WebhookEndpointChanges,
} from '../domain/webhooks.js';
import type { AdminStore } from './admin-store.js';
import type { ClientStore } from './client-store.js';
import type { DeliveryRound, DeliveryStore, EndpointAttempt } from './delivery-store.js';
import { type DocumentSender, scopedDocuments } from './dynamo-client.js';
import type { IdempotencyStore } from './idempotency-store.js';
import type { KnapStore } from './knap-store.js';
import type { QuotaStore } from './quota-store.js';
import type { RunEventStore } from './run-event-store.js';
import type { RedeliveryResult, RunStore } from './run-store.js';
import { TableOps } from './table-ops.js';
import type { WebhookStore } from './webhook-store.js';

/** The store of each aggregate, by name: the classes are given, so that only those are bundled. */
export interface StoreClasses {
  clients?: typeof ClientStore;
  knaps?: typeof KnapStore;
  runs?: typeof RunStore;
  /** A run's events, the report meter and the waiting streams' leases. */
  runEvents?: typeof RunEventStore;
  webhooks?: typeof WebhookStore;
  /** A run's delivery to each endpoint, with its attempts. */
  deliveries?: typeof DeliveryStore;
  idempotency?: typeof IdempotencyStore;
  admins?: typeof AdminStore;
  quotas?: typeof QuotaStore;
}

export type StoreName = keyof StoreClasses;
type StoreOf<N extends StoreName> = InstanceType<NonNullable<StoreClasses[N]>>;

export class TableRepository implements Repository {
  private readonly table: TableOps;
  private readonly stores: Partial<Record<StoreName, unknown>> = {};
  private readonly classes: StoreClasses;

  constructor(
    private readonly db: DocumentSender,
    private readonly tableName: string,
    classes: StoreClasses,
  ) {
    this.table = new TableOps(db, tableName);
    // Its own copy: addStores must never change a table of stores shared by others (ALL_STORES).
    this.classes = { ...classes };
  }

  /** Gives this repository (and every one `within` made from it) more stores: under `npm start`, every handler's. */
  addStores(classes: StoreClasses): void {
    Object.assign(this.classes, classes);
  }

  /** The names of the stores this repository was given. */
  get storeNames(): StoreName[] {
    return (Object.keys(this.classes) as StoreName[]).filter((name) => this.classes[name] !== undefined);
  }

  within(scope: RequestScope): TableRepository {
    return new TableRepository(scopedDocuments(this.db, scope), this.tableName, this.classes);
  }

  /** The store of one aggregate, made on first use. */
  private store<N extends StoreName>(name: N): StoreOf<N> {
    let store = this.stores[name] as StoreOf<N> | undefined;
    if (!store) {
      const Store = this.classes[name] as (new (table: TableOps) => StoreOf<N>) | undefined;
      if (!Store) throw new Error(`This function was not given the ${name} store (defaultDeps({ stores }))`);
      store = new Store(this.table);
      this.stores[name] = store;
    }
    return store;
  }

  reserveQuota(orgName: string, kinds: readonly QuotaKind[], defaults: QuotaLimits): Promise<QuotaKind | null> {
    return this.store('quotas').reserveQuota(orgName, kinds, defaults);
  }

  releaseQuota(orgName: string, kinds: readonly QuotaKind[]): Promise<void> {
    return this.store('quotas').releaseQuota(orgName, kinds);
  }

  quotaUsage(orgName: string): Promise<QuotaUsage> {
    return this.store('quotas').quotaUsage(orgName);
  }

  setOrgQuotas(orgName: string, limits: Partial<Record<QuotaKind, number | null>>): Promise<void> {
    return this.store('quotas').setOrgQuotas(orgName, limits);
  }

  recountQuotas(force?: boolean): Promise<number> {
    return this.store('quotas').recountQuotas(force);
  }

  putNewClient(client: ApiClient, writeToken?: string): Promise<void> {
    return this.store('clients').putNewClient(client, writeToken);
  }

  getClient(clientId: string): Promise<ApiClient | null> {
    return this.store('clients').getClient(clientId);
  }

  listClientsByOrg(orgName: string): Promise<ApiClient[]> {
    return this.store('clients').listClientsByOrg(orgName);
  }

  updateClient(
    clientId: string,
    changes: ClientChanges,
    now: string,
    onlyIf?: { orgName: string; active: boolean },
  ): Promise<ApiClient | null> {
    return this.store('clients').updateClient(clientId, changes, now, onlyIf);
  }

  changeClientSecrets(
    clientId: string,
    change: SecretsChange,
    seen: Pick<ApiClient, 'secrets' | 'legacySecret'>,
    now: string,
    orgName?: string,
  ): Promise<ApiClient | null> {
    return this.store('clients').changeClientSecrets(clientId, change, seen, now, orgName);
  }

  getClientJwks(clientId: string): Promise<ClientJwks | null> {
    return this.store('clients').getClientJwks(clientId);
  }

  putClientJwks(clientId: string, jwks: ClientJwks): Promise<void> {
    return this.store('clients').putClientJwks(clientId, jwks);
  }

  useAssertionId(clientId: string, jti: string, expiresAt: number, nowSeconds: number): Promise<boolean> {
    return this.store('clients').useAssertionId(clientId, jti, expiresAt, nowSeconds);
  }

  countRequest(input: CountRequestInput): Promise<CountRequestResult> {
    return this.store('clients').countRequest(input);
  }

  refundRequest(clientId: string, window: number): Promise<void> {
    return this.store('clients').refundRequest(clientId, window);
  }

  putGrant(grant: GrantRecord): Promise<void> {
    return this.store('clients').putGrant(grant);
  }

  deleteGrant(grantKey: string): Promise<void> {
    return this.store('clients').deleteGrant(grantKey);
  }

  tokenStanding(query: { grantKey?: string; revocationIds: readonly string[] }): Promise<TokenStanding> {
    return this.store('clients').tokenStanding(query);
  }

  putRevocations(revocations: Readonly<Record<string, number>>): Promise<void> {
    return this.store('clients').putRevocations(revocations);
  }

  migrateClientRevocations(nowSeconds: number): Promise<RevocationMigration> {
    return this.store('clients').migrateClientRevocations(nowSeconds);
  }

  putTokens(records: TokenRecord[]): Promise<void> {
    return this.store('clients').putTokens(records);
  }

  getToken(tokenHash: string): Promise<TokenRecord | null> {
    return this.store('clients').getToken(tokenHash);
  }

  deleteTokens(tokenHashes: string[]): Promise<void> {
    return this.store('clients').deleteTokens(tokenHashes);
  }

  putKnap(knap: Knap, ownership: KnapOwnership): Promise<boolean> {
    return this.store('knaps').putKnap(knap, ownership);
  }

  getKnap(orgName: string, uuid: string): Promise<StoredKnap | null> {
    return this.store('knaps').getKnap(orgName, uuid);
  }

  listKnapsByCreator(clientId: string, page: PageRequest): Promise<KnapPage> {
    return this.store('knaps').listKnapsByCreator(clientId, page);
  }

  listSharedKnaps(orgName: string, page: PageRequest): Promise<KnapPage> {
    return this.store('knaps').listSharedKnaps(orgName, page);
  }

  listOrgKnaps(orgName: string, page: PageRequest): Promise<{ knaps: StoredKnap[]; next: string | null }> {
    return this.store('knaps').listOrgKnaps(orgName, page);
  }

  listMeetingKnaps(viewer: MeetingKnapsViewer, page: PageRequest): Promise<MeetingKnapsPage> {
    return this.store('knaps').listMeetingKnaps(viewer, page);
  }

  countMeetingKnaps(viewer: MeetingKnapsViewer, cursor: string): Promise<number> {
    return this.store('knaps').countMeetingKnaps(viewer, cursor);
  }

  replaceKnap(knap: Knap, ownership: KnapOwnership, expectedVersion: number): Promise<boolean> {
    return this.store('knaps').replaceKnap(knap, ownership, expectedVersion);
  }

  deleteKnap(orgName: string, uuid: string, expectedVersion: number): Promise<boolean> {
    return this.store('knaps').deleteKnap(orgName, uuid, expectedVersion);
  }

  dueKnaps(shard: number, now: string, limit: number): Promise<StoredKnap[]> {
    return this.store('knaps').dueKnaps(shard, now, limit);
  }

  dueEntries(shard: number, now: string, limit: number): Promise<DueEntry[]> {
    return this.store('knaps').dueEntries(shard, now, limit);
  }

  knapsByKeys(keys: readonly DueEntry['key'][]): Promise<StoredKnap[]> {
    return this.store('knaps').knapsByKeys(keys);
  }

  dueSummary(shard: number, now: string, limit: number): Promise<{ due: number; oldest: string | null }> {
    return this.store('knaps').dueSummary(shard, now, limit);
  }

  claimOccurrence(stored: StoredKnap, next: string | null): Promise<boolean> {
    return this.store('knaps').claimOccurrence(stored, next);
  }

  knapNames(orgName: string, uuids: readonly string[]): Promise<Map<string, string>> {
    return this.store('knaps').knapNames(orgName, uuids);
  }

  backfillDueIndex(): Promise<number> {
    return this.store('knaps').backfillDueIndex();
  }

  backfillScheduleRrules(rruleOf: ScheduleRrule): Promise<number> {
    return this.store('knaps').backfillScheduleRrules(rruleOf);
  }

  backfillMeetingIndex(): Promise<number> {
    return this.store('knaps').backfillMeetingIndex();
  }

  claimIdempotencyKey(record: Omit<IdempotencyRecord, 'state' | 'response'>, now: number): Promise<ClaimResult> {
    return this.store('idempotency').claimIdempotencyKey(record, now);
  }

  completeIdempotencyKey(clientId: string, idempotencyKey: string, requestHash: string, response: StoredResponse): Promise<void> {
    return this.store('idempotency').completeIdempotencyKey(clientId, idempotencyKey, requestHash, response);
  }

  releaseIdempotencyKey(clientId: string, idempotencyKey: string, requestHash: string): Promise<void> {
    return this.store('idempotency').releaseIdempotencyKey(clientId, idempotencyKey, requestHash);
  }

  putRun(stored: StoredRun): Promise<boolean> {
    return this.store('runs').putRun(stored);
  }

  getRun(runId: string): Promise<StoredRun | null> {
    return this.store('runs').getRun(runId);
  }

  listRuns(knapUuid: string, page: PageRequest): Promise<{ runs: Run[]; next: string | null }> {
    return this.store('runs').listRuns(knapUuid, page);
  }

  listRunsByOrg(orgName: string, page: PageRequest, filter?: OrgRunFilter): Promise<{ runs: StoredRun[]; next: string | null }> {
    return this.store('runs').listRunsByOrg(orgName, page, filter);
  }

  recordDeliveryAttempt(runId: string, attempt: DeliveryAttempt, status: RunStatus): Promise<StoredRun | null> {
    return this.store('runs').recordDeliveryAttempt(runId, attempt, status);
  }

  redeliverRun(runId: string, orgName: string): Promise<RedeliveryResult> {
    return this.store('runs').redeliverRun(runId, orgName);
  }

  pendingRunIds(): Promise<string[]> {
    return this.store('runs').pendingRunIds();
  }

  backfillOrgRunsIndex(): Promise<number> {
    return this.store('runs').backfillOrgRunsIndex();
  }

  putWebhookEndpoint(endpoint: WebhookEndpoint, writeToken?: string): Promise<void> {
    return this.store('webhooks').putWebhookEndpoint(endpoint, writeToken);
  }

  listWebhookEndpoints(orgName: string): Promise<WebhookEndpoint[]> {
    return this.store('webhooks').listWebhookEndpoints(orgName);
  }

  deleteWebhookEndpoint(endpointId: string, orgName?: string): Promise<WebhookEndpoint | null> {
    return this.store('webhooks').deleteWebhookEndpoint(endpointId, orgName);
  }

  updateWebhookEndpoint(endpointId: string, orgName: string, changes: WebhookEndpointChanges): Promise<WebhookEndpoint | null> {
    return this.store('webhooks').updateWebhookEndpoint(endpointId, orgName, changes);
  }

  getWebhookEndpoint(endpointId: string): Promise<WebhookEndpoint | null> {
    return this.store('webhooks').getWebhookEndpoint(endpointId);
  }

  rotateWebhookSecret(
    endpointId: string,
    orgName: string,
    rotation: { secret: string; previousSecretExpiresAt: string },
  ): Promise<WebhookEndpoint | null> {
    return this.store('webhooks').rotateWebhookSecret(endpointId, orgName, rotation);
  }

  noteEndpointFailure(
    endpointId: string,
    seenRev: string | null,
    next: FailureRecord,
  ): Promise<'applied' | FailureRecord | null> {
    return this.store('webhooks').noteEndpointFailure(endpointId, seenRev, next);
  }

  clearEndpointFailures(endpointId: string): Promise<void> {
    return this.store('webhooks').clearEndpointFailures(endpointId);
  }

  disableFailingEndpoint(endpointId: string, at: string, streak: number, startedBy: string): Promise<WebhookEndpoint | null> {
    return this.store('webhooks').disableFailingEndpoint(endpointId, at, streak, startedBy);
  }

  noteEndpointAttempt(runId: string, at: string, error: string | null): Promise<boolean> {
    return this.store('runs').noteEndpointAttempt(runId, at, error);
  }

  finishRun(runId: string, status: RunStatus, lastError: string | null | undefined, round: number): Promise<boolean> {
    return this.store('runs').finishRun(runId, status, lastError, round);
  }

  startDeliveries(round: DeliveryRound, endpointIds: readonly string[]): Promise<string[]> {
    return this.store('deliveries').startDeliveries(round, endpointIds);
  }

  putMessage(message: EventMessage, expiresAt: number): Promise<boolean> {
    return this.store('deliveries').putMessage(message, expiresAt);
  }

  getMessage(messageId: string): Promise<EventMessage | null> {
    return this.store('deliveries').getMessage(messageId);
  }

  getDelivery(runId: string, endpointId: string): Promise<EndpointDelivery | null> {
    return this.store('deliveries').getDelivery(runId, endpointId);
  }

  runDeliveries(runId: string): Promise<EndpointDelivery[]> {
    return this.store('deliveries').runDeliveries(runId);
  }

  recordEndpointAttempt(runId: string, endpointId: string, attempt: EndpointAttempt): Promise<EndpointDelivery | null> {
    return this.store('deliveries').recordAttempt(runId, endpointId, attempt);
  }

  failedDeliveries(
    endpointId: string,
    since: string,
    page: { limit: number; cursor?: string },
  ): Promise<{ runIds: string[]; next: string | null }> {
    return this.store('deliveries').failedDeliveries(endpointId, since, page);
  }

  endpointDeliveries(endpointId: string, page: { limit: number; cursor?: string }): Promise<EndpointDeliveryPage> {
    return this.store('deliveries').endpointDeliveries(endpointId, page);
  }

  putNewAdmin(admin: AdminAccount): Promise<boolean> {
    return this.store('admins').putNewAdmin(admin);
  }

  getAdmin(email: string): Promise<AdminAccount | null> {
    return this.store('admins').getAdmin(email);
  }

  hasAdmins(): Promise<boolean> {
    return this.store('admins').hasAdmins();
  }

  putAuditEvent(event: AuditEvent): Promise<void> {
    return this.store('admins').putAuditEvent(event);
  }

  meterAdminRequest(input: AdminMeterInput): Promise<AdminMeterResult> {
    return this.store('admins').meterAdminRequest(input);
  }

  listAuditEvents(orgName: string, page: PageRequest): Promise<AuditPage> {
    return this.store('admins').listAuditEvents(orgName, page);
  }

  runChainHead(runId: string): Promise<ChainState> {
    return this.store('runEvents').chainHead(runId);
  }

  putRunEvent(runId: string, event: RunEvent, state: ChainState, expiresAt: number): Promise<boolean> {
    return this.store('runEvents').putEvent(runId, event, state, expiresAt);
  }

  runEventsAfter(runId: string, after: number, limit: number): Promise<{ events: RunEvent[]; state: ChainState | null }> {
    return this.store('runEvents').eventsAfter(runId, after, limit);
  }

  setRunOutcome(
    runId: string,
    outcome: RunOutcome,
    finished?: { at: string; output: unknown; error: string | null },
  ): Promise<boolean> {
    return this.store('runEvents').applyOutcome(runId, { outcome, finished });
  }

  meterRunReport(orgName: string, window: number, limit: number): Promise<boolean> {
    return this.store('runEvents').meterReport(orgName, window, limit);
  }

  claimStreamSlot(clientId: string, slots: number, nowMs: number, untilMs: number): Promise<number | null> {
    return this.store('runEvents').claimStreamSlot(clientId, slots, nowMs, untilMs);
  }

  releaseStreamSlot(clientId: string, slot: number, untilMs: number): Promise<void> {
    return this.store('runEvents').releaseStreamSlot(clientId, slot, untilMs);
  }
}
