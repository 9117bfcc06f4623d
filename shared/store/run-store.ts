/**
 * Runs: the items, a Knap's runs (gsi1) and an organization's (gsi2), each delivery attempt
 * recorded on the run, and redelivery. Key design: keys.ts; item shapes: items.ts.
 */

import type { PageRequest } from '../domain/repository.js';
import type { OrgRunFilter, Run, RunStatus, StoredRun } from '../domain/runs.js';
import type { DeliveryAttempt } from '../domain/webhooks.js';
import { QueryCommand, ScanCommand, UpdateCommand } from './commands.js';
import { type CursorShape, decodeCursor, encodeCursor } from './cursor.js';
import { key, orgRunsCursor, runsCursor } from './keys.js';
import { attemptLogAttribute, itemToRun, itemToStoredRun, orgRunsEntry, runToItem } from './run-items.js';
import { type Item, type TableOps, unlessConditionFails } from './table-ops.js';

/**
 * Queries one filtered page of an organization's runs may make (each reads at most `limit`
 * runs): filtering after the Query must not read without bound when few runs match.
 */
export const FILTERED_QUERIES = 4;

/** An index entry's LastEvaluatedKey, as DynamoDB gives it: the item's keys and the index's. */
const indexKeyOf = (item: Item, index: 'gsi1' | 'gsi2'): Item => ({
  pk: item.pk,
  sk: item.sk,
  [`${index}pk`]: item[`${index}pk`],
  [`${index}sk`]: item[`${index}sk`],
});

/** What a redelivery found: queued again, already on its way, or no such run in the organization. */
export type RedeliveryResult = 'redelivering' | 'pending' | 'not_found';

export class RunStore {
  constructor(private readonly table: TableOps) {}

  private get db() {
    return this.table.db;
  }

  private get tableName() {
    return this.table.tableName;
  }

  putRun(stored: StoredRun): Promise<boolean> {
    return this.table.putNew(runToItem(stored));
  }

  async getRun(runId: string): Promise<StoredRun | null> {
    const item = await this.table.getItem(key.run(runId));
    return item ? itemToStoredRun(item) : null;
  }

  async listRuns(knapUuid: string, page: PageRequest): Promise<{ runs: Run[]; next: string | null }> {
    const { items, next } = await this.newestFirst('gsi1', key.knapRuns(knapUuid), runsCursor(knapUuid), page);
    return { runs: items.map(itemToRun), next };
  }

  /**
   * An organization's runs, newest first: one Query on gsi2, or on gsi1 (the Knap's runs) when
   * the filter names a Knap, then only those of the organization. Status and outcome filter
   * after the Query: DynamoDB applies `Limit` before a filter, so one Query reads at most
   * `limit` runs and may keep fewer. To fill a page it queries again from where it stopped,
   * at most FILTERED_QUERIES times (so at most FILTERED_QUERIES x limit runs read per page,
   * whatever the organization holds); a page can therefore hold fewer than `limit` runs, even
   * none, and still have a next cursor. The cursor is where the reading stopped: the last
   * run kept when a Query found more than the page takes, else the Query's own LastEvaluatedKey.
   */
  async listRunsByOrg(
    orgName: string,
    page: PageRequest,
    filter: OrgRunFilter = {},
  ): Promise<{ runs: StoredRun[]; next: string | null }> {
    const conditions: string[] = [];
    const names: Record<string, string> = {};
    const values: Item = {};
    if (filter.knapUuid !== undefined) {
      conditions.push('org_name = :org');
      values[':org'] = orgName;
    }
    if (filter.status !== undefined) {
      conditions.push('#status = :status');
      names['#status'] = 'status';
      values[':status'] = filter.status;
    }
    if (filter.outcome !== undefined) {
      conditions.push('outcome = :outcome');
      values[':outcome'] = filter.outcome;
    }
    const [index, partition, shape] =
      filter.knapUuid === undefined
        ? (['gsi2', key.orgRuns(orgName), orgRunsCursor(orgName)] as const)
        : (['gsi1', key.knapRuns(filter.knapUuid), runsCursor(filter.knapUuid)] as const);
    if (conditions.length === 0) {
      const { items, next } = await this.newestFirst(index, partition, shape, page);
      return { runs: items.map(itemToStoredRun), next };
    }
    const kept: Item[] = [];
    let startKey = decodeCursor(page.cursor, shape);
    for (let query = 0; query < FILTERED_QUERIES; query += 1) {
      const result = await this.db.send(
        new QueryCommand({
          TableName: this.tableName,
          IndexName: index,
          KeyConditionExpression: `${index}pk = :pk`,
          FilterExpression: conditions.join(' AND '),
          ...(Object.keys(names).length > 0 ? { ExpressionAttributeNames: names } : {}),
          ExpressionAttributeValues: { ':pk': partition, ...values },
          ScanIndexForward: false,
          Limit: page.limit,
          ExclusiveStartKey: startKey,
        }),
      );
      const found = result.Items ?? [];
      const room = page.limit - kept.length;
      if (found.length > room) {
        // More than the page takes: stop at the last one kept, and go on from it next time.
        kept.push(...found.slice(0, room));
        const last = kept[kept.length - 1] as Item;
        return { runs: kept.map(itemToStoredRun), next: encodeCursor(indexKeyOf(last, index)) };
      }
      kept.push(...found);
      startKey = result.LastEvaluatedKey;
      if (!startKey || kept.length === page.limit) break;
    }
    return { runs: kept.map(itemToStoredRun), next: encodeCursor(startKey) };
  }

  /** One page of an index partition of runs, newest first; the cursor must be one this partition gave. */
  private async newestFirst(index: 'gsi1' | 'gsi2', partition: string, cursor: CursorShape, page: PageRequest) {
    const result = await this.db.send(
      new QueryCommand({
        TableName: this.tableName,
        IndexName: index,
        KeyConditionExpression: `${index}pk = :pk`,
        ExpressionAttributeValues: { ':pk': partition },
        ScanIndexForward: false,
        Limit: page.limit,
        ExclusiveStartKey: decodeCursor(page.cursor, cursor),
      }),
    );
    return { items: result.Items ?? [], next: encodeCursor(result.LastEvaluatedKey) };
  }

  async recordDeliveryAttempt(runId: string, attempt: DeliveryAttempt, status: RunStatus): Promise<StoredRun | null> {
    const written = await unlessConditionFails(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key.run(runId),
          UpdateExpression:
            'SET attempts = attempts + :one, last_attempt_at = :at, last_attempt_id = :id, last_error = :error, #status = :status, delivered_to = list_append(delivered_to, :delivered), #log = :log',
          // Not attribute_exists alone: two deliveries of one message must not both count.
          ConditionExpression: 'attribute_exists(pk) AND attempts = :before',
          ExpressionAttributeNames: { '#status': 'status', '#log': attemptLogAttribute(attempt.number) },
          ExpressionAttributeValues: {
            ':one': 1,
            ':before': attempt.number - 1,
            ':at': attempt.at,
            ':id': attempt.id,
            ':error': attempt.error,
            ':status': status,
            ':delivered': attempt.deliveredTo,
            ':log': { n: attempt.number, entries: attempt.entries ?? [] },
          },
          ReturnValues: 'ALL_NEW',
        }),
      ),
    );
    if (written?.Attributes) return itemToStoredRun(written.Attributes);
    // Refused: by another copy of the attempt, or by our own write, applied on a try of the
    // SDK whose answer was lost and refused on its retry. A second round trip, only then.
    const item = await this.table.getItem(key.run(runId));
    return item?.last_attempt_id === attempt.id ? itemToStoredRun(item) : null;
  }

  async noteEndpointAttempt(runId: string, at: string, error: string | null): Promise<boolean> {
    const written = await unlessConditionFails(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key.run(runId),
          UpdateExpression: `ADD attempts :one SET last_attempt_at = :at${error === null ? '' : ', last_error = :error'}`,
          ConditionExpression: 'attribute_exists(pk)',
          ExpressionAttributeValues: { ':one': 1, ':at': at, ...(error === null ? {} : { ':error': error }) },
        }),
      ),
    );
    return written !== null;
  }

  async finishRun(runId: string, status: RunStatus, lastError: string | null | undefined, round: number): Promise<boolean> {
    const clears = status === 'delivered' || lastError !== undefined;
    // Only in the round it settles: a late settle of an earlier round must not end a redelivery.
    const inRound = round <= 1 ? '(attribute_not_exists(redeliveries) OR redeliveries = :before)' : 'redeliveries = :before';
    const written = await unlessConditionFails(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key.run(runId),
          UpdateExpression: `SET #status = :status${clears ? ', last_error = :error' : ''}`,
          ConditionExpression: `attribute_exists(pk) AND #status = :pending AND ${inRound}`,
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: {
            ':status': status,
            ':pending': 'pending',
            ':before': Math.max(0, round - 1),
            ...(clears ? { ':error': status === 'delivered' ? null : (lastError ?? null) } : {}),
          },
        }),
      ),
    );
    return written !== null;
  }

  /**
   * Makes a run of `orgName` pending again for every endpoint, its retries counted afresh, in
   * one conditional write that holds only while the run is not pending: a run on its way
   * keeps its one chain of attempts. A second round trip only when refused, to say why.
   */
  async redeliverRun(runId: string, orgName: string): Promise<RedeliveryResult> {
    const written = await unlessConditionFails(
      this.db.send(
        new UpdateCommand({
          TableName: this.tableName,
          Key: key.run(runId),
          UpdateExpression:
            'SET #status = :pending, delivered_to = :none, retry_base = attempts, redeliveries = if_not_exists(redeliveries, :zero) + :one',
          ConditionExpression: 'attribute_exists(pk) AND org_name = :org AND #status <> :pending',
          ExpressionAttributeNames: { '#status': 'status' },
          ExpressionAttributeValues: { ':pending': 'pending', ':none': [], ':zero': 0, ':one': 1, ':org': orgName },
        }),
      ),
    );
    if (written) return 'redelivering';
    const item = await this.table.getItem(key.run(runId));
    return item?.org_name === orgName ? 'pending' : 'not_found';
  }

  /**
   * The ids of the runs still waiting for a delivery attempt. A Scan of the whole table: for
   * `npm start`, whose queue is timers that die with the process (deployed, SQS keeps them).
   */
  async pendingRunIds(): Promise<string[]> {
    const ids: string[] = [];
    await this.scanRuns('#status = :pending', { ':pending': 'pending' }, async (item) => {
      ids.push(String(item.run_id));
    });
    return ids;
  }

  /** Gives runs written before the organization index existed their entry in it; returns how many. Idempotent. */
  async backfillOrgRunsIndex(): Promise<number> {
    let added = 0;
    await this.scanRuns('attribute_not_exists(gsi2pk)', {}, async (item) => {
      const entry = orgRunsEntry({ run_id: String(item.run_id), created_at: String(item.created_at) }, String(item.org_name));
      const written = await unlessConditionFails(
        this.db.send(
          new UpdateCommand({
            TableName: this.tableName,
            Key: { pk: item.pk, sk: item.sk },
            UpdateExpression: 'SET gsi2pk = :pk, gsi2sk = :sk',
            // Expired and gone since the scan: not written back.
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(gsi2pk)',
            ExpressionAttributeValues: { ':pk': entry.gsi2pk, ':sk': entry.gsi2sk },
          }),
        ),
      );
      if (written) added += 1;
    });
    return added;
  }

  private async scanRuns(filter: string, values: Item, each: (item: Item) => Promise<void>): Promise<void> {
    let startKey: Item | undefined;
    do {
      const page = await this.db.send(
        new ScanCommand({
          TableName: this.tableName,
          FilterExpression: `#type = :run AND ${filter}`,
          ExpressionAttributeNames: { '#type': 'type', ...(filter.includes('#status') ? { '#status': 'status' } : {}) },
          ExpressionAttributeValues: { ':run': 'run', ...values },
          ExclusiveStartKey: startKey,
        }),
      );
      for (const item of page.Items ?? []) await each(item);
      startKey = page.LastEvaluatedKey;
    } while (startKey);
  }
}
