/**
 * Organization admins (the local identity provider's accounts) and the audit log. Key design:
 * keys.ts. Audit events of an organization share one partition, sorted by time, so the log is
 * one Query newest first; each expires by TTL after AUDIT_RETENTION_SECONDS.
 */

import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import type { AdminAccount } from '../domain/admins.js';
import { AUDIT_RETENTION_SECONDS, type AuditAction, type AuditEvent, type AuditPage } from '../domain/audit.js';
import type { AdminMeterInput, AdminMeterResult, PageRequest } from '../domain/repository.js';
import { PutCommand, QueryCommand, ScanCommand, UpdateCommand } from './commands.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { auditCursor, key } from './keys.js';
import type { Item, TableOps } from './table-ops.js';

const adminToItem = (admin: AdminAccount): Item => ({
  ...key.admin(admin.email),
  type: 'admin',
  email: admin.email,
  org_name: admin.orgName,
  password_hash: admin.passwordHash,
  created_at: admin.createdAt,
});

const itemToAdmin = (item: Item): AdminAccount => ({
  email: String(item.email),
  orgName: String(item.org_name),
  passwordHash: String(item.password_hash),
  createdAt: String(item.created_at),
});

const eventToItem = (event: AuditEvent): Item => ({
  ...key.auditEvent(event.orgName, event.at, event.eventId),
  type: 'audit',
  event_id: event.eventId,
  org_name: event.orgName,
  at: event.at,
  actor: event.actor,
  action: event.action,
  target_type: event.target.type,
  target_id: event.target.id,
  source_ip: event.sourceIp,
  expires_at: Math.floor(Date.parse(event.at) / 1000) + AUDIT_RETENTION_SECONDS,
});

const itemToEvent = (item: Item): AuditEvent => ({
  eventId: String(item.event_id),
  orgName: String(item.org_name),
  at: String(item.at),
  actor: String(item.actor),
  action: item.action as AuditAction,
  target: { type: item.target_type as AuditEvent['target']['type'], id: String(item.target_id) },
  sourceIp: typeof item.source_ip === 'string' ? item.source_ip : null,
});

export class AdminStore {
  constructor(private readonly table: TableOps) {}

  /** False when an admin with this email exists already (nothing is written then). */
  putNewAdmin(admin: AdminAccount): Promise<boolean> {
    return this.table.putNew(adminToItem(admin));
  }

  async getAdmin(email: string): Promise<AdminAccount | null> {
    const item = await this.table.getItem(key.admin(email));
    return item ? itemToAdmin(item) : null;
  }

  /**
   * Whether any admin item exists: admins live on no index (the local provider looks them up by
   * email), so this scans, page by page, until the first. The local sign-in page asks it only
   * until it is true (local/oidc/provider.ts), on tables that fit a laptop.
   */
  async hasAdmins(): Promise<boolean> {
    let startKey: Item | undefined;
    do {
      const page = await this.table.db.send(
        new ScanCommand({
          TableName: this.table.tableName,
          FilterExpression: '#type = :admin',
          ProjectionExpression: 'pk',
          ExpressionAttributeNames: { '#type': 'type' },
          ExpressionAttributeValues: { ':admin': 'admin' },
          ExclusiveStartKey: startKey,
        }),
      );
      if ((page.Items ?? []).length > 0) return true;
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    return false;
  }

  async putAuditEvent(event: AuditEvent): Promise<void> {
    await this.table.db.send(new PutCommand({ TableName: this.table.tableName, Item: eventToItem(event) }));
  }

  /**
   * One conditional UpdateItem on the admin's item of the minute: counted only below the
   * limit, and only if the item's last count was not this very write (`wt`, its token). When the
   * condition fails, the item as it was (from the failure itself, or one GetItem where the
   * DynamoDB does not send it: dynalite) tells a refusal from the SDK's retry of a write that
   * was applied but whose answer was lost.
   */
  async meterAdminRequest(input: AdminMeterInput): Promise<AdminMeterResult> {
    const itemKey = key.adminMeter(input.orgName, input.subject, input.window);
    try {
      const result = await this.table.db.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: itemKey,
          UpdateExpression: 'ADD #count :one SET wt = :token, expires_at = :expires',
          ConditionExpression: '(attribute_not_exists(#count) OR #count < :limit) AND NOT wt = :token',
          ExpressionAttributeNames: { '#count': 'count' },
          ExpressionAttributeValues: {
            ':one': 1,
            ':limit': input.limit,
            ':token': input.writeToken,
            ':expires': input.window + 3600,
          },
          ReturnValues: 'UPDATED_NEW',
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
      return { counted: true, count: Number(result.Attributes?.count ?? 1) };
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      const item = error.Item ? unmarshall(error.Item) : await this.table.getItem(itemKey);
      return { counted: item?.wt === input.writeToken, count: Number(item?.count ?? 0) };
    }
  }

  async listAuditEvents(orgName: string, page: PageRequest): Promise<AuditPage> {
    const result = await this.table.db.send(
      new QueryCommand({
        TableName: this.table.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': key.orgAudit(orgName) },
        ScanIndexForward: false,
        Limit: page.limit,
        ConsistentRead: true,
        ExclusiveStartKey: decodeCursor(page.cursor, auditCursor(orgName)),
      }),
    );
    return { events: (result.Items ?? []).map(itemToEvent), next: encodeCursor(result.LastEvaluatedKey) };
  }
}
