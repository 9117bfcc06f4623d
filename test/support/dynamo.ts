import { randomBytes } from 'node:crypto';
import { openLocalTable } from '../../local/local-table.js';
import { DEFAULT_RATE_LIMIT } from '../../shared/domain/clients.js';
import { type Clock, systemClock } from '../../shared/domain/clock.js';
import type { MeetingFanOut } from '../../shared/domain/runs.js';
import type { DeliveryQueue, DeliveryTarget, RunStartTarget } from '../../shared/domain/webhooks.js';
import { MemoryMetrics } from '../../shared/metrics.js';
import { correlationKeys, type RequestScope } from '../../shared/request-scope.js';
import type { Deps, Log } from '../../shared/runtime.js';
import { GetCommand } from '../../shared/store/commands.js';
import { createDocumentClient } from '../../shared/store/dynamo-client.js';
import { DynamoRepository } from '../../shared/store/dynamo-repository.js';
import { testKeyring } from './token-keys.js';

/** Captures log lines instead of printing them, with the request's correlation id as KnapLogger adds it; tests read `lines`. */
type MemoryLine = { level: string; message: string; extra: Record<string, unknown>[]; correlation_id?: string };

export class MemoryLog implements Log {
  constructor(
    readonly lines: MemoryLine[] = [],
    /** What `within` gave this view: the request's keys, on each of its lines. */
    private readonly keys?: Record<string, string>,
  ) {}
  #push(level: string, message: string, extra: Record<string, unknown>[]): void {
    this.lines.push({ level, message, extra, ...this.keys });
  }
  within(scope: RequestScope): MemoryLog {
    return new MemoryLog(this.lines, { ...this.keys, ...correlationKeys(scope) });
  }
  info(message: string, ...extra: Record<string, unknown>[]): void {
    this.#push('info', message, extra);
  }
  warn(message: string, ...extra: Record<string, unknown>[]): void {
    this.#push('warn', message, extra);
  }
  error(message: string, ...extra: Record<string, unknown>[]): void {
    this.#push('error', message, extra);
  }
}

/** Remembers what was queued for delivery instead of delivering it; tests read `queued`. */
export class RecordingQueue implements DeliveryQueue {
  /** Runs' starts (no endpoint), and attempts at one endpoint (`endpointId`). */
  readonly queued: { runId: string; delaySeconds: number; endpointId?: string }[] = [];
  /** The rest of meeting reports, queued (tests run them with continueMeetingFanOut). */
  readonly fanOuts: MeetingFanOut[] = [];
  async enqueue(runId: string, delaySeconds: number, target?: DeliveryTarget | RunStartTarget): Promise<void> {
    this.queued.push(target?.endpointId ? { runId, delaySeconds, endpointId: target.endpointId } : { runId, delaySeconds });
  }
  async enqueueMeetingFanOut(task: MeetingFanOut): Promise<void> {
    this.fanOuts.push(task);
  }
}

export interface TestTable {
  endpoint: string;
  tableName: string;
  /** A document client of the table's, for tests that look at (or plant) items directly. */
  documents: ReturnType<typeof createDocumentClient>;
  /** The item under `itemKey`, read consistently; undefined when there is none. */
  item(itemKey: Record<string, string>): Promise<Record<string, unknown> | undefined>;
  /** Dependencies over this table, with the given clock and a capturing log. */
  deps(clock?: Clock): Deps & { log: MemoryLog; metrics: MemoryMetrics; deliveries: RecordingQueue };
  close(): Promise<void>;
}

/**
 * A real DynamoDB for a test file: an in-memory dynalite on a free port, or the endpoint in
 * TEST_DYNAMODB_ENDPOINT (e.g. Amazon's DynamoDB Local), with a fresh table either way.
 */
export const startTestTable = async (): Promise<TestTable> => {
  const tableName = `knap-test-${randomBytes(4).toString('hex')}`;
  const table = await openLocalTable({ tableName, endpoint: process.env.TEST_DYNAMODB_ENDPOINT || undefined });
  const { endpoint } = table;
  const documents = createDocumentClient({ endpoint });
  return {
    endpoint,
    tableName,
    documents,
    item: async (itemKey) =>
      (await documents.send(new GetCommand({ TableName: tableName, Key: itemKey, ConsistentRead: true }))).Item,
    deps: (clock = systemClock) => ({
      repo: new DynamoRepository(documents, tableName),
      clock,
      log: new MemoryLog(),
      metrics: new MemoryMetrics(),
      defaultRateLimit: DEFAULT_RATE_LIMIT,
      deliveries: new RecordingQueue(),
      tokenKeys: testKeyring,
    }),
    close: async () => {
      documents.destroy();
      await table.close();
    },
  };
};

/** One test table for the whole file, and what each test starts (a queue, a receiver) stopped after it. */
export interface FileTable {
  /** The file's table (from its beforeAll on). */
  readonly table: TestTable;
  /** Stopped after the test that calls this, with everything else it started (`first`: started before the others). */
  cleanup(stop: () => Promise<void>, first?: 'first'): void;
}

/** Registers the hooks of a FileTable: call it at the top level of a test file. */
export const tableForFile = (): FileTable => {
  let table: TestTable | undefined;
  let cleanups: (() => Promise<void>)[] = [];
  beforeAll(async () => {
    table = await startTestTable();
  });
  afterAll(() => table?.close());
  afterEach(async () => {
    await Promise.all(cleanups.map((stop) => stop()));
    cleanups = [];
  });
  return {
    get table() {
      if (!table) throw new Error('The file table opens in beforeAll: use it inside a test or hook');
      return table;
    },
    cleanup: (stop, first) => {
      if (first) cleanups.unshift(stop);
      else cleanups.push(stop);
    },
  };
};
