/**
 * The whole Repository over DynamoDB: every aggregate's store. For `npm start`, the CLI, the
 * benches and the tests; a Lambda assembles only the stores it uses (table-repository.ts).
 */
import type { RequestScope } from '../domain/request-scope.js';
import { AdminStore } from './admin-store.js';
import { ClientStore } from './client-store.js';
import { DeliveryStore } from './delivery-store.js';
import { type DocumentSender, scopedDocuments } from './dynamo-client.js';
import { IdempotencyStore } from './idempotency-store.js';
import { KnapStore } from './knap-store.js';
import { QuotaStore } from './quota-store.js';
import { RunEventStore } from './run-event-store.js';
import { RunStore } from './run-store.js';
import { type StoreClasses, TableRepository } from './table-repository.js';
import { WebhookStore } from './webhook-store.js';

/** Every store there is. */
export const ALL_STORES: Required<StoreClasses> = {
  clients: ClientStore,
  knaps: KnapStore,
  runs: RunStore,
  runEvents: RunEventStore,
  webhooks: WebhookStore,
  deliveries: DeliveryStore,
  idempotency: IdempotencyStore,
  admins: AdminStore,
  quotas: QuotaStore,
};

export class DynamoRepository extends TableRepository {
  constructor(
    private readonly documents: DocumentSender,
    private readonly name: string,
  ) {
    super(documents, name, ALL_STORES);
  }

  override within(scope: RequestScope): DynamoRepository {
    return new DynamoRepository(scopedDocuments(this.documents, scope), this.name);
  }
}
