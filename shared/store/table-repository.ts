/**
 * The Repository port over DynamoDB, assembled from the stores of the aggregates a function
 * uses (clients and grants, Knaps and the due index, runs, webhooks, idempotency, admins and
 * audit): each Lambda names its stores (shared/runtime.ts, defaultDeps), so its bundle carries
 * only those. A method of a store the function was not given fails at once, saying so: a
 * wiring mistake, which test/unit/function-stores.test.ts keeps out of every function.
 *
 * The port's methods are the stores' own, delegated by name (DELEGATED): a table of names
 * rather than a method each, since every function's cold start parses this module.
 *
 * Every write is a single-item conditional write: no transactions and nothing half-written.
 */
import type { Repository } from '../domain/repository.js';
import type { RequestScope } from '../domain/request-scope.js';
import type { AdminStore } from './admin-store.js';
import type { ClientStore } from './client-store.js';
import type { DeliveryStore } from './delivery-store.js';
import { type DocumentSender, scopedDocuments } from './dynamo-client.js';
import type { IdempotencyStore } from './idempotency-store.js';
import type { KnapStore } from './knap-store.js';
import type { QuotaStore } from './quota-store.js';
import type { RunEventStore } from './run-event-store.js';
import type { RunStore } from './run-store.js';
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

/** A port method `name` the store has under the same name, or `name:method` where it has another. */
type Delegate<N extends StoreName> = {
  [Port in keyof Repository & string]: {
    [Method in keyof StoreOf<N> & string]: StoreOf<N>[Method] extends NonNullable<Repository[Port]>
      ? Port extends Method
        ? Port
        : `${Port}:${Method}`
      : never;
  }[keyof StoreOf<N> & string];
}[keyof Repository & string];

/** Each store's methods that the Repository port names: the signatures are checked against the port's. */
const DELEGATED = {
  quotas: ['reserveQuota', 'releaseQuota', 'quotaUsage', 'setOrgQuotas', 'recountQuotas'],
  clients: [
    'putNewClient',
    'getClient',
    'listClientsByOrg',
    'updateClient',
    'changeClientSecrets',
    'getClientJwks',
    'putClientJwks',
    'useAssertionId',
    'countRequest',
    'refundRequest',
    'putGrant',
    'deleteGrant',
    'tokenStanding',
    'putRevocations',
    'migrateClientRevocations',
    'putTokens',
    'getToken',
    'deleteTokens',
  ],
  knaps: [
    'putKnap',
    'getKnap',
    'listKnapsByCreator',
    'listSharedKnaps',
    'listOrgKnaps',
    'listMeetingKnaps',
    'countMeetingKnaps',
    'replaceKnap',
    'deleteKnap',
    'dueKnaps',
    'dueEntries',
    'knapsByKeys',
    'dueSummary',
    'claimOccurrence',
    'knapNames',
    'backfillDueIndex',
    'backfillScheduleRrules',
    'backfillMeetingIndex',
  ],
  idempotency: ['claimIdempotencyKey', 'completeIdempotencyKey', 'releaseIdempotencyKey'],
  runs: [
    'putRun',
    'getRun',
    'listRuns',
    'listRunsByOrg',
    'recordDeliveryAttempt',
    'redeliverRun',
    'pendingRunIds',
    'backfillOrgRunsIndex',
    'noteEndpointAttempt',
    'finishRun',
  ],
  webhooks: [
    'putWebhookEndpoint',
    'listWebhookEndpoints',
    'deleteWebhookEndpoint',
    'updateWebhookEndpoint',
    'getWebhookEndpoint',
    'rotateWebhookSecret',
    'noteEndpointFailure',
    'clearEndpointFailures',
    'disableFailingEndpoint',
  ],
  deliveries: [
    'startDeliveries',
    'putMessage',
    'getMessage',
    'getDelivery',
    'runDeliveries',
    'recordEndpointAttempt:recordAttempt',
    'failedDeliveries',
    'endpointDeliveries',
  ],
  admins: ['putNewAdmin', 'getAdmin', 'hasAdmins', 'putAuditEvent', 'meterAdminRequest', 'listAuditEvents'],
  runEvents: [
    'runChainHead:chainHead',
    'putRunEvent:putEvent',
    'runEventsAfter:eventsAfter',
    'setRunOutcome',
    'meterRunReport:meterReport',
    'claimStreamSlot',
    'releaseStreamSlot',
  ],
} as const satisfies { [N in StoreName]: readonly Delegate<N>[] };

type PortOf<Entry> = Entry extends `${infer Port}:${string}` ? Port : Entry;
/** Every method of the port is delegated (`within` is the repository's own): else this is `false`, and the line fails to compile. */
const everyMethodDelegated: [Exclude<keyof Repository, PortOf<(typeof DELEGATED)[StoreName][number]> | 'within'>] extends [never]
  ? true
  : false = true;
void everyMethodDelegated;

// The class and this interface merge: the port's methods are defined on the prototype below.
export interface TableRepository extends Repository {}

// biome-ignore lint/suspicious/noUnsafeDeclarationMerging: see the interface.
export class TableRepository {
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
  protected store<N extends StoreName>(name: N): StoreOf<N> {
    let store = this.stores[name] as StoreOf<N> | undefined;
    if (!store) {
      const Store = this.classes[name] as (new (table: TableOps) => StoreOf<N>) | undefined;
      if (!Store) throw new Error(`This function was not given the ${name} store (defaultDeps({ stores }))`);
      store = new Store(this.table);
      this.stores[name] = store;
    }
    return store;
  }
}

for (const [name, entries] of Object.entries(DELEGATED) as [StoreName, readonly string[]][]) {
  for (const entry of entries) {
    const [port, method = port] = entry.split(':') as [string, string?];
    Object.defineProperty(TableRepository.prototype, port, {
      value(this: TableRepository, ...args: unknown[]): unknown {
        const store = (this as unknown as { store(name: StoreName): Record<string, (...args: unknown[]) => unknown> }).store(
          name,
        );
        return store[method]!(...args);
      },
      writable: true,
      configurable: true,
    });
  }
}
