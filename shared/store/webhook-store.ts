/**
 * Webhook endpoints: one item each, listed per organization by gsi3 (keys only, then the items).
 * Key design: keys.ts; item shapes: items.ts.
 */

import type { WebhookEndpoint } from '../domain/webhooks.js';
import { DeleteCommand, PutCommand } from './commands.js';
import { itemToWebhook, webhookToItem } from './items.js';
import { key } from './keys.js';
import { type TableOps, unlessConditionFails } from './table-ops.js';

export class WebhookStore {
  constructor(private readonly table: TableOps) {}

  async putWebhookEndpoint(endpoint: WebhookEndpoint): Promise<void> {
    await this.table.db.send(
      new PutCommand({
        TableName: this.table.tableName,
        Item: webhookToItem(endpoint),
        ConditionExpression: 'attribute_not_exists(pk)',
      }),
    );
  }

  async getWebhookEndpoint(endpointId: string): Promise<WebhookEndpoint | null> {
    const item = await this.table.getItem(key.webhook(endpointId));
    return item ? itemToWebhook(item) : null;
  }

  async listWebhookEndpoints(orgName: string): Promise<WebhookEndpoint[]> {
    const items = await this.table.itemsOfKeysIndex('gsi3', key.orgWebhooks(orgName));
    return items.map(itemToWebhook).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  /**
   * The endpoint deleted, or null when there is none with this id (in `orgName`, when given:
   * an endpoint of another organization is left alone, in the same conditional write).
   */
  async deleteWebhookEndpoint(endpointId: string, orgName?: string): Promise<WebhookEndpoint | null> {
    const deleted = await unlessConditionFails(
      this.table.db.send(
        new DeleteCommand({
          TableName: this.table.tableName,
          Key: key.webhook(endpointId),
          ConditionExpression: orgName === undefined ? 'attribute_exists(pk)' : 'attribute_exists(pk) AND org_name = :org',
          ExpressionAttributeValues: orgName === undefined ? undefined : { ':org': orgName },
          ReturnValues: 'ALL_OLD',
        }),
      ),
    );
    return deleted?.Attributes ? itemToWebhook(deleted.Attributes) : null;
  }
}
