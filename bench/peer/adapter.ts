/**
 * A small DynamoDB adapter for oidc-provider (its adapter interface: upsert, find,
 * findByUid, findByUserCode, consume, destroy, revokeByGrantId), one item per model
 * instance under `<Model>#<id>`, with `expires_at` (epoch seconds) checked on read as
 * DynamoDB's TTL lags. A client_credentials grant only ever calls `upsert`: one PutItem.
 */

import { DeleteCommand, type DynamoDBDocumentClient, GetCommand, PutCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Adapter, AdapterPayload } from 'oidc-provider';

export const adapterFor = (db: DynamoDBDocumentClient, tableName: string): (new (name: string) => Adapter) =>
  class DynamoAdapter implements Adapter {
    constructor(private readonly name: string) {}

    private key(id: string) {
      return { pk: `${this.name}#${id}`, sk: 'MODEL' };
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
      await db.send(
        new PutCommand({
          TableName: tableName,
          Item: {
            ...this.key(id),
            payload,
            ...(expiresIn ? { expires_at: Math.floor(Date.now() / 1000) + expiresIn } : {}),
            ...(payload.grantId ? { grant_id: payload.grantId } : {}),
          },
        }),
      );
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      const { Item } = await db.send(new GetCommand({ TableName: tableName, Key: this.key(id) }));
      if (!Item || (typeof Item.expires_at === 'number' && Item.expires_at <= Date.now() / 1000)) return undefined;
      return Item.payload as AdapterPayload;
    }

    // Device flow and interaction sessions are not enabled in the peer.
    async findByUserCode(): Promise<AdapterPayload | undefined> {
      return undefined;
    }

    async findByUid(): Promise<AdapterPayload | undefined> {
      return undefined;
    }

    async consume(id: string): Promise<void> {
      await db.send(
        new UpdateCommand({
          TableName: tableName,
          Key: this.key(id),
          UpdateExpression: 'SET payload.consumed = :now',
          ExpressionAttributeValues: { ':now': Math.floor(Date.now() / 1000) },
        }),
      );
    }

    async destroy(id: string): Promise<void> {
      await db.send(new DeleteCommand({ TableName: tableName, Key: this.key(id) }));
    }

    // No grant-linked tokens (authorization code, refresh) are issued by the peer.
    async revokeByGrantId(): Promise<void> {}
  };
