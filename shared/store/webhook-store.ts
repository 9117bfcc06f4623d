/**
 * Webhook endpoints: one item each, listed per organization by gsi3 (keys only, then the items).
 * Key design: keys.ts; item shapes: items.ts.
 */

import { type FailureRecord, failureRecordOf, type WebhookEndpoint, type WebhookEndpointChanges } from '../domain/webhooks.js';
import { DeleteCommand, PutCommand, UpdateCommand } from './commands.js';
import { itemToWebhook, webhookToItem } from './items.js';
import { key } from './keys.js';
import { type TableOps, unlessConditionFails } from './table-ops.js';

export class WebhookStore {
  constructor(private readonly table: TableOps) {}

  /** New only, or this very write again (see ClientStore.putNewClient: `wt`, the write's token). */
  async putWebhookEndpoint(endpoint: WebhookEndpoint, writeToken?: string): Promise<void> {
    await this.table.db.send(
      new PutCommand({
        TableName: this.table.tableName,
        Item: writeToken === undefined ? webhookToItem(endpoint) : { ...webhookToItem(endpoint), wt: writeToken },
        ConditionExpression: writeToken === undefined ? 'attribute_not_exists(pk)' : 'attribute_not_exists(pk) OR wt = :token',
        ExpressionAttributeValues: writeToken === undefined ? undefined : { ':token': writeToken },
      }),
    );
  }

  async getWebhookEndpoint(endpointId: string): Promise<WebhookEndpoint | null> {
    const item = await this.table.getItem(key.webhook(endpointId));
    return item ? itemToWebhook(item) : null;
  }

  /** See Repository.rotateWebhookSecret: the secret moves to previous_secret in the same write. */
  async rotateWebhookSecret(
    endpointId: string,
    orgName: string,
    rotation: { secret: string; previousSecretExpiresAt: string },
  ): Promise<WebhookEndpoint | null> {
    const updated = await unlessConditionFails(
      this.table.db.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: key.webhook(endpointId),
          // Every operand is read from the item before the update: previous_secret takes the old secret.
          UpdateExpression: 'SET previous_secret = #secret, #secret = :secret, previous_secret_expires_at = :expires',
          ConditionExpression: 'attribute_exists(pk) AND org_name = :org',
          ExpressionAttributeNames: { '#secret': 'secret' },
          ExpressionAttributeValues: {
            ':org': orgName,
            ':secret': rotation.secret,
            ':expires': rotation.previousSecretExpiresAt,
          },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return updated?.Attributes ? itemToWebhook(updated.Attributes) : null;
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

  /**
   * The endpoint as changed, or null when there is none with this id in `orgName` (another
   * organization's is left alone, in the same conditional write). Members left out stay.
   */
  async updateWebhookEndpoint(
    endpointId: string,
    orgName: string,
    changes: WebhookEndpointChanges,
  ): Promise<WebhookEndpoint | null> {
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = { ':org': orgName };
    const sets: string[] = [];
    const set = (attribute: string, value: unknown) => {
      names[`#${attribute}`] = attribute;
      values[`:${attribute}`] = value;
      sets.push(`#${attribute} = :${attribute}`);
    };
    if (changes.eventTypes !== undefined) set('event_types', changes.eventTypes);
    if (changes.description !== undefined) set('description', changes.description);
    if (changes.disabled !== undefined) {
      set('disabled', changes.disabled);
      set('disabled_at', changes.disabledAt ?? null);
    }
    // Nothing to change: the same condition still says whether the endpoint is there.
    if (sets.length === 0) set('org_name', orgName);
    const updated = await unlessConditionFails(
      this.table.db.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: key.webhook(endpointId),
          UpdateExpression: `SET ${sets.join(', ')}`,
          ConditionExpression: 'attribute_exists(pk) AND org_name = :org',
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return updated?.Attributes ? itemToWebhook(updated.Attributes) : null;
  }

  /**
   * One more message finally failed at the endpoint: its failure record replaced by `next` in
   * one UpdateItem, conditional on the record being the one read (`seenRev`; null: none, or an
   * item of an earlier version). 'applied'; the record as it is now when another write came
   * first (the caller counts again from it); null when the endpoint is gone.
   */
  async noteEndpointFailure(
    endpointId: string,
    seenRev: string | null,
    next: FailureRecord,
  ): Promise<'applied' | FailureRecord | null> {
    const written = await unlessConditionFails(
      this.table.db.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: key.webhook(endpointId),
          UpdateExpression: 'SET fail_streak = :streak, fail_streak_since = :since, recent_failures = :recent, fail_rev = :rev',
          ConditionExpression:
            seenRev === null
              ? 'attribute_exists(pk) AND attribute_not_exists(fail_rev)'
              : 'attribute_exists(pk) AND fail_rev = :seen',
          ExpressionAttributeValues: {
            ':streak': next.streak,
            ':since': next.since,
            ':recent': next.recent,
            ':rev': next.rev,
            ...(seenRev === null ? {} : { ':seen': seenRev }),
          },
        }),
      ),
    );
    if (written) return 'applied';
    const item = await this.table.getItem(key.webhook(endpointId));
    return item ? failureRecordOf(itemToWebhook(item)) : null;
  }

  /** A message reached the endpoint: the streak ends (written only while there is one). */
  async clearEndpointFailures(endpointId: string): Promise<void> {
    await unlessConditionFails(
      this.table.db.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: key.webhook(endpointId),
          UpdateExpression: 'REMOVE fail_streak, fail_streak_since, recent_failures, fail_rev',
          ConditionExpression: 'attribute_exists(fail_streak)',
        }),
      ),
    );
  }

  /**
   * Disables the endpoint if it is enabled and the first of its last `streak` recorded final
   * failures (its bounded list holds that many at most) was at or before `startedBy`: the
   * rule itself, on the item as it is at the write, so of two deliverers only one disables (and
   * announces) it, and a success in between (which empties the list) stops it. The record ends
   * with it: enabled again, it starts from nothing.
   */
  async disableFailingEndpoint(
    endpointId: string,
    at: string,
    streak: number,
    startedBy: string,
  ): Promise<WebhookEndpoint | null> {
    const updated = await unlessConditionFails(
      this.table.db.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: key.webhook(endpointId),
          UpdateExpression:
            'SET disabled = :true, disabled_at = :at REMOVE fail_streak, fail_streak_since, recent_failures, fail_rev',
          ConditionExpression:
            'attribute_exists(pk) AND size(recent_failures) >= :streak AND recent_failures[0] <= :by AND (attribute_not_exists(disabled) OR disabled = :false)',
          ExpressionAttributeValues: { ':true': true, ':false': false, ':at': at, ':streak': streak, ':by': startedBy },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    return updated?.Attributes ? itemToWebhook(updated.Attributes) : null;
  }
}
