/**
 * Idempotency keys: one item per client and key, claimed with one conditional write, holding
 * the answer for replay until it expires. Key design: keys.ts.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { ClaimResult, IdempotencyRecord, StoredResponse } from '../domain/idempotency.js';
import { PutCommand, UpdateCommand } from './commands.js';
import { itemToIdempotency } from './items.js';
import { key } from './keys.js';
import { type TableOps, unlessConditionFails } from './table-ops.js';

export class IdempotencyStore {
  constructor(private readonly table: TableOps) {}

  private get db() {
    return this.table.db;
  }

  private get tableName() {
    return this.table.tableName;
  }

  async claimIdempotencyKey(record: Omit<IdempotencyRecord, 'state' | 'response'>, now: number): Promise<ClaimResult> {
    const itemKey = key.idempotency(record.clientId, record.key);
    try {
      const result = await this.db.send(
        new PutCommand({
          TableName: this.tableName,
          Item: {
            ...itemKey,
            type: 'idempotency',
            client_id: record.clientId,
            idempotency_key: record.key,
            request_hash: record.requestHash,
            resource_id: record.resourceId,
            state: 'in_flight',
            expires_at: record.expiresAt,
            lease_until: record.leaseUntil,
          },
          ConditionExpression:
            'attribute_not_exists(pk) OR expires_at <= :now OR (request_hash = :hash AND (#state = :released OR (#state = :inFlight AND lease_until <= :now)))',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: {
            ':now': now,
            ':hash': record.requestHash,
            ':released': 'released',
            ':inFlight': 'in_flight',
          },
          ReturnValues: 'ALL_OLD',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      const earlier = result.Attributes;
      if (earlier && Number(earlier.expires_at) > now && typeof earlier.resource_id === 'string') {
        // A retry of a request that failed or went silent: create what it was creating.
        await this.db.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: itemKey,
            UpdateExpression: 'SET resource_id = :id',
            ExpressionAttributeValues: { ':id': earlier.resource_id },
          }),
        );
        return { claimed: true, resourceId: earlier.resource_id };
      }
      return { claimed: true, resourceId: record.resourceId };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      // DynamoDB hands back the record that holds the key; an emulator that does not costs one read.
      const existing = error.Item ? unmarshall(error.Item) : await this.table.getItem(itemKey);
      // Gone between the two calls (expired and swept): claim again.
      if (!existing) return this.claimIdempotencyKey(record, now);
      return { claimed: false, existing: itemToIdempotency(existing) };
    }
  }

  async completeIdempotencyKey(clientId: string, idempotencyKey: string, requestHash: string, response: StoredResponse) {
    await this.db.send(
      new UpdateCommand({
        TableName: this.tableName,
        Key: key.idempotency(clientId, idempotencyKey),
        UpdateExpression: 'SET #state = :done, response_status = :status, response_headers = :headers, response_body = :body',
        ConditionExpression: 'request_hash = :hash',
        ExpressionAttributeNames: { '#state': 'state' },
        ExpressionAttributeValues: {
          ':done': 'done',
          ':status': response.status,
          ':headers': response.headers,
          ':body': response.body,
          ':hash': requestHash,
        },
      }),
    );
  }

  async releaseIdempotencyKey(clientId: string, idempotencyKey: string, requestHash: string): Promise<void> {
    // A claim no longer in flight (completed, or taken over) is left as it is.
    await unlessConditionFails(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key.idempotency(clientId, idempotencyKey),
          UpdateExpression: 'SET #state = :released',
          ConditionExpression: '#state = :inFlight AND request_hash = :hash',
          ExpressionAttributeNames: { '#state': 'state' },
          ExpressionAttributeValues: { ':inFlight': 'in_flight', ':released': 'released', ':hash': requestHash },
        }),
      ),
    );
  }
}
