/**
 * A run's events (items of their own: the run item never grows with them), the per-minute
 * report meter of an organization, and the leases of a client's waiting event streams. Key
 * design: keys.ts.
 */
import { type ChainState, INITIAL_CHAIN, RUN_OUTCOMES, type RunEvent, type RunOutcome } from '../domain/run-events.js';
import { parseStoredJson, toJson } from '../domain/storable-json.js';
import { PutCommand, QueryCommand, UpdateCommand } from './commands.js';
import { key } from './keys.js';
import { type Item, type TableOps, unlessConditionFails } from './table-ops.js';

/** What a run item takes from a report: its outcome, and when it finished with output or error. */
export interface OutcomeChange {
  outcome: RunOutcome;
  /** Set for succeeded and failed only. */
  finished?: { at: string; output: unknown; error: string | null };
}

const OUTCOMES: readonly unknown[] = RUN_OUTCOMES;
const num = (value: unknown): number => (typeof value === 'number' ? value : 0);
const text = (value: unknown): string | null => (typeof value === 'string' ? value : null);

const stateOf = (item: Item): ChainState => ({
  lastId: num(item.id),
  terminal: item.terminal === true,
  reported: num(item.reported),
  outcome: OUTCOMES.includes(item.outcome) ? (item.outcome as RunOutcome) : null,
  rateWindow: num(item.rate_window),
  rateCount: num(item.rate_count),
});

/** An event item as the API shows it: the members of its type, in the schema's order. */
export const itemToEvent = (item: Item): RunEvent => {
  const base = { id: num(item.id), type: item.event_type, at: String(item.at) };
  switch (item.event_type) {
    case 'delivered':
      return { ...base, type: 'delivered', endpoint_id: String(item.endpoint_id) };
    case 'delivery_failed':
      return { ...base, type: 'delivery_failed', endpoint_id: text(item.endpoint_id), error: String(item.error ?? '') };
    case 'running':
    case 'progress':
      return { ...base, type: item.event_type, message: text(item.message) };
    case 'succeeded':
      return {
        ...base,
        type: 'succeeded',
        message: text(item.message),
        output: typeof item.output_json === 'string' ? parseStoredJson(item.output_json) : null,
      };
    case 'failed':
      return { ...base, type: 'failed', message: text(item.message), error: text(item.error) };
    case 'expired':
      return { ...base, type: 'expired' };
    default:
      return { ...base, type: 'created' };
  }
};

const eventToItem = (runId: string, event: RunEvent, state: ChainState, expiresAt: number): Item => {
  const item: Item = {
    type: 'run_event',
    ...key.runEvent(runId, event.id),
    id: event.id,
    event_type: event.type,
    at: event.at,
    terminal: state.terminal,
    reported: state.reported,
    outcome: state.outcome,
    rate_window: state.rateWindow,
    rate_count: state.rateCount,
    expires_at: expiresAt,
  };
  if ('endpoint_id' in event) item.endpoint_id = event.endpoint_id;
  if ('message' in event && event.message !== null) item.message = event.message;
  if ('error' in event && event.error !== null) item.error = event.error;
  if (event.type === 'succeeded' && event.output !== null && event.output !== undefined) item.output_json = toJson(event.output);
  return item;
};

export class RunEventStore {
  constructor(private readonly table: TableOps) {}

  /** The chain's state after its last stored event: one Query of one item, read consistently. */
  async chainHead(runId: string): Promise<ChainState> {
    const result = await this.table.db.send(
      new QueryCommand({
        TableName: this.table.tableName,
        KeyConditionExpression: 'pk = :pk',
        ExpressionAttributeValues: { ':pk': key.runEvents(runId) },
        ScanIndexForward: false,
        Limit: 1,
        ConsistentRead: true,
      }),
    );
    const last = result.Items?.[0];
    return last ? stateOf(last) : INITIAL_CHAIN;
  }

  /** Writes event `event.id` with the chain's state after it, only while that id is free; false when taken. */
  async putEvent(runId: string, event: RunEvent, state: ChainState, expiresAt: number): Promise<boolean> {
    const written = await unlessConditionFails(
      this.table.db.send(
        new PutCommand({
          TableName: this.table.tableName,
          Item: eventToItem(runId, event, state, expiresAt),
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    );
    return written !== null;
  }

  /**
   * Events after id `after`, in id order, at most `limit` (one Query, read consistently), and
   * the chain's state after the last of them (null when there are none).
   */
  async eventsAfter(runId: string, after: number, limit: number): Promise<{ events: RunEvent[]; state: ChainState | null }> {
    const result = await this.table.db.send(
      new QueryCommand({
        TableName: this.table.tableName,
        KeyConditionExpression: 'pk = :pk AND sk > :after',
        ExpressionAttributeValues: { ':pk': key.runEvents(runId), ':after': key.runEvent(runId, after).sk },
        Limit: limit,
        ConsistentRead: true,
      }),
    );
    const items = result.Items ?? [];
    const last = items.at(-1);
    return { events: items.map(itemToEvent), state: last ? stateOf(last) : null };
  }

  /** Sets a run's outcome (and output, error, finished_at when it finished); false when there is no such run. */
  async applyOutcome(runId: string, change: OutcomeChange): Promise<boolean> {
    const values: Item = { ':outcome': change.outcome };
    let update = 'SET outcome = :outcome';
    if (change.finished) {
      update += ', finished_at = :at, #error = :error';
      values[':at'] = change.finished.at;
      values[':error'] = change.finished.error;
      if (change.finished.output !== null && change.finished.output !== undefined) {
        update += ', output_json = :output';
        values[':output'] = toJson(change.finished.output);
      }
    }
    const written = await unlessConditionFails(
      this.table.db.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: key.run(runId),
          UpdateExpression: update,
          // A report of a run that expired with its retention has nothing to update.
          ConditionExpression: 'attribute_exists(pk)',
          ...(change.finished ? { ExpressionAttributeNames: { '#error': 'error' } } : {}),
          ExpressionAttributeValues: values,
        }),
      ),
    );
    return written !== null;
  }

  /**
   * Counts one report of an organization in the minute `window` (epoch seconds), in one
   * conditional write that holds only below `limit`: false when the organization is at it.
   */
  async meterReport(orgName: string, window: number, limit: number): Promise<boolean> {
    const written = await unlessConditionFails(
      this.table.db.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: key.reportMeter(orgName, window),
          UpdateExpression: 'ADD #count :one SET expires_at = :expires',
          ConditionExpression: 'attribute_not_exists(#count) OR #count < :limit',
          ExpressionAttributeNames: { '#count': 'count' },
          ExpressionAttributeValues: { ':one': 1, ':limit': limit, ':expires': window + 3600 },
        }),
      ),
    );
    return written !== null;
  }

  /**
   * Takes one of a client's `slots` stream leases until `untilMs` (epoch ms), if one is free
   * (never taken, released, or its lease over: a stream cut off by its function's end frees
   * its slot when the lease runs out). One conditional write per slot tried; the slot's
   * index, or null when all are held.
   */
  async claimStreamSlot(clientId: string, slots: number, nowMs: number, untilMs: number): Promise<number | null> {
    for (let slot = 0; slot < slots; slot += 1) {
      const written = await unlessConditionFails(
        this.table.db.send(
          new UpdateCommand({
            TableName: this.table.tableName,
            Key: key.streamSlots(clientId),
            UpdateExpression: 'SET #slot = :until, expires_at = :expires',
            ConditionExpression: 'attribute_not_exists(#slot) OR #slot <= :now',
            ExpressionAttributeNames: { '#slot': `s${slot}` },
            ExpressionAttributeValues: { ':until': untilMs, ':now': nowMs, ':expires': Math.ceil(untilMs / 1000) + 3600 },
          }),
        ),
      );
      if (written) return slot;
    }
    return null;
  }

  /** Gives a lease back (only the one taken: a later lease of the slot stays). */
  async releaseStreamSlot(clientId: string, slot: number, untilMs: number): Promise<void> {
    await unlessConditionFails(
      this.table.db.send(
        new UpdateCommand({
          TableName: this.table.tableName,
          Key: key.streamSlots(clientId),
          UpdateExpression: 'SET #slot = :zero',
          ConditionExpression: '#slot = :until',
          ExpressionAttributeNames: { '#slot': `s${slot}` },
          ExpressionAttributeValues: { ':zero': 0, ':until': untilMs },
        }),
      ),
    );
  }
}
