/**
 * A run's delivery to each endpoint: one item per (run, endpoint) in the run's `DLV#` partition,
 * holding that endpoint's status, attempt count and a ring of its last DELIVERY_LOG_SIZE
 * attempts (`da_<n mod size>`, overwritten by the attempt's own write: no read before it).
 * One that finally failed enters gsi1 under its endpoint (sparse), so recovery lists them by
 * time without a scan; every attempt moves it in gsi2 under its endpoint, by its last attempt,
 * for the endpoint's attempts listing. Key design: keys.ts.
 */
import type { DeliveryRoundInput, EndpointAttemptInput } from '../domain/repository.js';
import type { DeliveryAttemptEntry } from '../domain/runs.js';
import { DELIVERY_LOG_SIZE, type EndpointDelivery, type EndpointDeliveryPage, type EventMessage } from '../domain/webhooks.js';
import { GetCommand, QueryCommand, UpdateCommand } from './commands.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { key } from './keys.js';
import { type Item, type TableOps, unlessConditionFails } from './table-ops.js';

/**
 * Starting a round of a run's deliveries: `round` is 1 for the first, one more per redelivery
 * (a copy of an earlier round's message starts nothing); `all` restarts delivered ones too (a
 * run delivered everywhere, sent again), else only failed ones.
 */
export type DeliveryRound = DeliveryRoundInput;

/** One attempt at one endpoint as its item records it: `number` is the count after it, `id` unique to it. */
export type EndpointAttempt = EndpointAttemptInput;

const slot = (attemptNumber: number): string => `da_${attemptNumber % DELIVERY_LOG_SIZE}`;

const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
const num = (value: unknown): number | null => (typeof value === 'number' ? value : null);

export const readAttemptEntry = (entry: Record<string, unknown>): DeliveryAttemptEntry => {
  const status = num(entry.response_status) ?? num(entry.http_status);
  return {
    at: String(entry.at),
    endpoint_id: str(entry.endpoint_id),
    status: entry.status as DeliveryAttemptEntry['status'],
    error: str(entry.error),
    response_status: status,
    duration_ms: num(entry.duration_ms),
    response_body: str(entry.response_body),
    http_status: status,
  };
};

export const itemToDelivery = (item: Item): EndpointDelivery => {
  const log = Object.entries(item)
    .filter(([name, value]) => /^da_\d+$/.test(name) && value !== null && typeof value === 'object')
    .map(([, value]) => value as { n?: unknown; entry?: unknown })
    .filter((ring): ring is { n: number; entry: Record<string, unknown> } => typeof ring.n === 'number' && !!ring.entry)
    .sort((a, b) => a.n - b.n)
    .map((ring) => readAttemptEntry(ring.entry));
  const status = item.status === 'delivered' || item.status === 'failed' ? item.status : 'pending';
  return {
    runId: String(item.run_id),
    endpointId: String(item.endpoint_id),
    orgName: String(item.org_name),
    status,
    attempts: num(item.attempts) ?? 0,
    retryBase: num(item.retry_base) ?? 0,
    round: num(item.dl_round) ?? 1,
    nextAt: str(item.next_at),
    failedAt: str(item.failed_at),
    log,
  };
};

export class DeliveryStore {
  constructor(private readonly table: TableOps) {}

  async putMessage(message: EventMessage, expiresAt: number): Promise<boolean> {
    return this.table.putNew({
      ...key.message(message.messageId),
      type: 'message',
      message_id: message.messageId,
      org_name: message.orgName,
      message_type: message.type,
      body: message.body,
      created_at: message.createdAt,
      expires_at: expiresAt,
    });
  }

  async getMessage(messageId: string): Promise<EventMessage | null> {
    const item = await this.table.getItem(key.message(messageId));
    return item
      ? {
          messageId: String(item.message_id),
          orgName: String(item.org_name),
          type: item.message_type as EventMessage['type'],
          body: String(item.body),
          createdAt: String(item.created_at),
        }
      : null;
  }

  /**
   * Starts the deliveries of a round to these endpoints, each in one conditional write: a new
   * one, or one of an earlier round that failed (or, `all`, that is over). Returns the
   * endpoints started; one already under way, or started by another copy of the message, is not.
   */
  async startDeliveries(round: DeliveryRound, endpointIds: readonly string[]): Promise<string[]> {
    const started = await Promise.all(
      endpointIds.map(async (endpointId) => {
        const written = await unlessConditionFails(
          this.table.db.send(
            new UpdateCommand({
              TableName: this.table.tableName,
              Key: key.delivery(round.runId, endpointId),
              UpdateExpression:
                `SET #type = :type, run_id = :run, endpoint_id = :ep, org_name = :org, expires_at = :exp, #status = :pending, dl_round = :round, next_at = :now, ${
                  round.messageType === undefined ? '' : 'message_type = :mtype, '
                }` +
                'attempts = if_not_exists(attempts, :zero), retry_base = if_not_exists(attempts, :zero) REMOVE gsi1pk, gsi1sk, failed_at',
              ConditionExpression: round.all
                ? 'attribute_not_exists(pk) OR (dl_round < :round AND #status <> :pending)'
                : 'attribute_not_exists(pk) OR (dl_round < :round AND #status = :failed)',
              ExpressionAttributeNames: { '#type': 'type', '#status': 'status' },
              ExpressionAttributeValues: {
                ':type': 'delivery',
                ':run': round.runId,
                ':ep': endpointId,
                ':org': round.orgName,
                ':exp': round.expiresAt,
                ':pending': 'pending',
                ':round': round.round,
                ':now': round.now,
                ':zero': 0,
                ...(round.all ? {} : { ':failed': 'failed' }),
                ...(round.messageType === undefined ? {} : { ':mtype': round.messageType }),
              },
            }),
          ),
        );
        return written ? endpointId : null;
      }),
    );
    return started.filter((id): id is string => id !== null);
  }

  async getDelivery(runId: string, endpointId: string): Promise<EndpointDelivery | null> {
    const item = await this.table.getItem(key.delivery(runId, endpointId));
    return item ? itemToDelivery(item) : null;
  }

  /** Every endpoint's delivery of a run (a run goes to at most the organization's endpoints), read consistently. */
  async runDeliveries(runId: string): Promise<EndpointDelivery[]> {
    const items: Item[] = [];
    let startKey: Item | undefined;
    do {
      const page = await this.table.db.send(
        new QueryCommand({
          TableName: this.table.tableName,
          KeyConditionExpression: 'pk = :pk',
          ExpressionAttributeValues: { ':pk': key.runDeliveries(runId) },
          ConsistentRead: true,
          ExclusiveStartKey: startKey,
        }),
      );
      items.push(...(page.Items ?? []));
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return items.map(itemToDelivery);
  }

  /**
   * Records one attempt at one endpoint, in one write that holds only while the delivery is
   * pending with `number - 1` attempts (two copies of a message record it once). A final
   * failure enters the endpoint's failed index. Null when refused by another copy.
   */
  async recordAttempt(runId: string, endpointId: string, attempt: EndpointAttempt): Promise<EndpointDelivery | null> {
    const failed = attempt.status === 'failed';
    const written = await unlessConditionFails(
      this.table.db.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: key.delivery(runId, endpointId),
          UpdateExpression: `SET attempts = :n, last_attempt_id = :id, #status = :status, #slot = :ring, next_at = :next, gsi2pk = :apk, gsi2sk = :ask${
            failed ? ', failed_at = :at, gsi1pk = :fpk, gsi1sk = :fsk' : ''
          }`,
          ConditionExpression: 'attribute_exists(pk) AND attempts = :before AND #status = :pending',
          ExpressionAttributeNames: { '#status': 'status', '#slot': slot(attempt.number) },
          ExpressionAttributeValues: {
            ':n': attempt.number,
            ':before': attempt.number - 1,
            ':id': attempt.id,
            ':status': attempt.status,
            ':pending': 'pending',
            ':ring': { n: attempt.number, entry: attempt.entry },
            ':next': attempt.nextAt,
            ':apk': key.endpointDeliveries(endpointId),
            ':ask': `${attempt.entry.at}#${runId}`,
            ...(failed
              ? {
                  ':at': attempt.entry.at,
                  ':fpk': key.failedDeliveries(endpointId),
                  ':fsk': `${attempt.entry.at}#${runId}`,
                }
              : {}),
          },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    if (written?.Attributes) return itemToDelivery(written.Attributes);
    const item = (
      await this.table.db.send(
        new GetCommand({ TableName: this.table.tableName, Key: key.delivery(runId, endpointId), ConsistentRead: true }),
      )
    ).Item;
    return item?.last_attempt_id === attempt.id ? itemToDelivery(item) : null;
  }

  /**
   * One page of an endpoint's deliveries that finally failed at or after `since`, oldest first
   * (gsi1); `next` resumes after the last one.
   */
  async failedDeliveries(
    endpointId: string,
    since: string,
    page: { limit: number; cursor?: string },
  ): Promise<{ runIds: string[]; next: string | null }> {
    const partition = key.failedDeliveries(endpointId);
    const result = await this.table.db.send(
      new QueryCommand({
        TableName: this.table.tableName,
        IndexName: 'gsi1',
        KeyConditionExpression: 'gsi1pk = :pk AND gsi1sk >= :since',
        ExpressionAttributeValues: { ':pk': partition, ':since': since },
        Limit: page.limit,
        ExclusiveStartKey: decodeCursor(page.cursor, {
          pk: (value) => value.startsWith('DLV#'),
          sk: (value) => value === `EP#${endpointId}`,
          gsi1pk: (value) => value === partition,
          gsi1sk: () => true,
        }),
      }),
    );
    return { runIds: (result.Items ?? []).map((item) => String(item.run_id)), next: encodeCursor(result.LastEvaluatedKey) };
  }

  /**
   * One page of an endpoint's deliveries, the one attempted last first (gsi2: each attempt moves
   * its delivery to the front), each with its recorded attempts. One Query; `next` resumes after
   * the last one. Deliveries last attempted before gsi2 held them are not listed.
   */
  async endpointDeliveries(endpointId: string, page: { limit: number; cursor?: string }): Promise<EndpointDeliveryPage> {
    const partition = key.endpointDeliveries(endpointId);
    const result = await this.table.db.send(
      new QueryCommand({
        TableName: this.table.tableName,
        IndexName: 'gsi2',
        KeyConditionExpression: 'gsi2pk = :pk',
        ExpressionAttributeValues: { ':pk': partition },
        ScanIndexForward: false,
        Limit: page.limit,
        ExclusiveStartKey: decodeCursor(page.cursor, {
          pk: (value) => value.startsWith('DLV#'),
          sk: (value) => value === `EP#${endpointId}`,
          gsi2pk: (value) => value === partition,
          gsi2sk: () => true,
        }),
      }),
    );
    return {
      deliveries: (result.Items ?? []).map((item) => ({
        delivery: itemToDelivery(item),
        messageType: str(item.message_type),
      })),
      next: encodeCursor(result.LastEvaluatedKey),
    };
  }
}
