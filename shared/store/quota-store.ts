/**
 * Per-organization quota counters (shared/domain/quotas.ts): one small item per organization,
 * `QUOTA#<org>` / `QUOTA`, holding a count per kind (`n_<kind>`) and the organization's own
 * quotas where an operator set them (`q_<kind>`). A creation reserves its place first with one
 * conditional UpdateItem (ADD 1 while the count is under the quota), so two racing creations
 * can never both take the last place; a removal gives it back (ADD -1, never below 0). Read
 * only by writes that change a count: no listing or bearer request touches it.
 */
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { isSubHourly, QUOTA_KINDS, type QuotaKind, type QuotaLimits, type QuotaUsage } from '../domain/quotas.js';
import { ScanCommand, UpdateCommand } from './commands.js';
import { key } from './keys.js';
import { type TableOps, unlessConditionFails } from './table-ops.js';

const count = (kind: QuotaKind) => `n_${kind}`;
const own = (kind: QuotaKind) => `q_${kind}`;

export class QuotaStore {
  constructor(private readonly table: TableOps) {}

  /**
   * Adds one to each kind's count, all or none: null when done, else the first kind at its
   * quota (its own, or `defaults`), with nothing written. One round trip; a second (a read of
   * the counters) only to name the kind that refused, when several were asked.
   */
  async reserveQuota(orgName: string, kinds: readonly QuotaKind[], defaults: QuotaLimits): Promise<QuotaKind | null> {
    if (kinds.length === 0) return null;
    const names: Record<string, string> = {};
    const values: Record<string, unknown> = { ':one': 1, ':zero': 0 };
    const conditions: string[] = [];
    for (const kind of kinds) {
      names[`#n_${kind}`] = count(kind);
      names[`#q_${kind}`] = own(kind);
      values[`:d_${kind}`] = defaults[kind];
      // Under its own quota where one is set, else under the default; an absent count is 0.
      conditions.push(
        `((attribute_exists(#q_${kind}) AND (#n_${kind} < #q_${kind} OR (attribute_not_exists(#n_${kind}) AND #q_${kind} > :zero)))` +
          ` OR (attribute_not_exists(#q_${kind}) AND (#n_${kind} < :d_${kind} OR (attribute_not_exists(#n_${kind}) AND :d_${kind} > :zero))))`,
      );
    }
    try {
      await this.table.db.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: key.quota(orgName),
          UpdateExpression: `ADD ${kinds.map((kind) => `#n_${kind} :one`).join(', ')}`,
          ConditionExpression: conditions.join(' AND '),
          ExpressionAttributeNames: names,
          ExpressionAttributeValues: values,
        }),
      );
      return null;
    } catch (error) {
      if (!(error instanceof ConditionalCheckFailedException)) throw error;
      if (kinds.length === 1) return kinds[0] as QuotaKind;
      const usage = await this.quotaUsage(orgName);
      return kinds.find((kind) => usage.counts[kind] >= (usage.own[kind] ?? defaults[kind])) ?? (kinds[0] as QuotaKind);
    }
  }

  /** Gives back one place of each kind (a removal, or a creation that did not happen); never below 0. */
  async releaseQuota(orgName: string, kinds: readonly QuotaKind[]): Promise<void> {
    await Promise.all(
      kinds.map((kind) =>
        this.table.db
          .send(
            new UpdateCommand({
              TableName: this.table.tableName,
              Key: key.quota(orgName),
              UpdateExpression: 'ADD #n :minus',
              // A count never set (an organization older than quotas, not yet recounted) stays unset.
              ConditionExpression: '#n > :zero',
              ExpressionAttributeNames: { '#n': count(kind) },
              ExpressionAttributeValues: { ':minus': -1, ':zero': 0 },
            }),
          )
          .catch((error: unknown) => {
            if (!(error instanceof ConditionalCheckFailedException)) throw error;
          }),
      ),
    );
  }

  async quotaUsage(orgName: string): Promise<QuotaUsage> {
    const item = (await this.table.getItem(key.quota(orgName))) ?? {};
    const number = (value: unknown) => (typeof value === 'number' ? value : null);
    return {
      counts: Object.fromEntries(
        QUOTA_KINDS.map((kind) => [kind, Math.max(0, number(item[count(kind)]) ?? 0)]),
      ) as QuotaUsage['counts'],
      own: Object.fromEntries(QUOTA_KINDS.map((kind) => [kind, number(item[own(kind)])])) as QuotaUsage['own'],
    };
  }

  /** Sets (a number) or clears (null: the default again) an organization's own quota of each kind given. */
  async setOrgQuotas(orgName: string, limits: Partial<Record<QuotaKind, number | null>>): Promise<void> {
    const kinds = QUOTA_KINDS.filter((kind) => limits[kind] !== undefined);
    if (kinds.length === 0) return;
    const set = kinds.filter((kind) => limits[kind] !== null);
    const remove = kinds.filter((kind) => limits[kind] === null);
    const expression = [
      set.length > 0 ? `SET ${set.map((kind) => `#q_${kind} = :q_${kind}`).join(', ')}` : '',
      remove.length > 0 ? `REMOVE ${remove.map((kind) => `#q_${kind}`).join(', ')}` : '',
    ].join(' ');
    await this.table.db.send(
      new UpdateCommand({
        TableName: this.table.tableName,
        Key: key.quota(orgName),
        UpdateExpression: expression.trim(),
        ExpressionAttributeNames: Object.fromEntries(kinds.map((kind) => [`#q_${kind}`, own(kind)])),
        ExpressionAttributeValues:
          set.length > 0 ? Object.fromEntries(set.map((kind) => [`:q_${kind}`, limits[kind]])) : undefined,
      }),
    );
  }

  /**
   * Counts what each organization holds (one Scan of the table, its keys and a few members)
   * and sets the counts of every organization that has never been counted (all of them with
   * `force`): organizations older than quotas, or counts a crash left off. Creations racing
   * with it may leave a count off by one until the next recount. Returns the organizations set.
   */
  async recountQuotas(force = false): Promise<number> {
    const counts = new Map<string, Record<QuotaKind, number>>();
    const of = (org: string) => {
      let entry = counts.get(org);
      if (!entry) {
        entry = { knaps: 0, subhourly: 0, endpoints: 0, clients: 0 };
        counts.set(org, entry);
      }
      return entry;
    };
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.table.db.send(
        new ScanCommand({
          TableName: this.table.tableName,
          ProjectionExpression: 'pk, sk, #type, org_name, #status, schedule_info.schedule_type, schedule_info.#interval',
          ExpressionAttributeNames: { '#type': 'type', '#status': 'status', '#interval': 'interval' },
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) {
        const pk = String(item.pk);
        if (pk.startsWith('ORG#') && String(item.sk).startsWith('KNAP#')) {
          const entry = of(pk.slice('ORG#'.length));
          entry.knaps += 1;
          if (isSubHourly(item.schedule_info as Parameters<typeof isSubHourly>[0])) entry.subhourly += 1;
        } else if (item.type === 'webhook' && typeof item.org_name === 'string') {
          of(item.org_name).endpoints += 1;
        } else if (item.type === 'client' && typeof item.org_name === 'string' && item.status !== 'revoked') {
          of(item.org_name).clients += 1;
        }
      }
      startKey = page.LastEvaluatedKey;
    } while (startKey);
    let set = 0;
    for (const [org, entry] of counts) {
      const written = await unlessConditionFails(
        this.table.db.send(
          new UpdateCommand({
            TableName: this.table.tableName,
            Key: key.quota(org),
            UpdateExpression: `SET ${QUOTA_KINDS.map((kind) => `#n_${kind} = :n_${kind}`).join(', ')}, counted = :yes`,
            ConditionExpression: force ? undefined : 'attribute_not_exists(counted)',
            ExpressionAttributeNames: Object.fromEntries(QUOTA_KINDS.map((kind) => [`#n_${kind}`, count(kind)])),
            ExpressionAttributeValues: {
              ...Object.fromEntries(QUOTA_KINDS.map((kind) => [`:n_${kind}`, entry[kind]])),
              ':yes': true,
            },
          }),
        ),
      );
      if (written !== null) set += 1;
    }
    return set;
  }
}
