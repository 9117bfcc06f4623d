/**
 * `npx tsx bench/meeting-report.ts [-- --unrelated 300 --kb 200 --reports 20 --storages dynamodb-local,dynalite]`
 *
 * What a meeting report (`POST /api/studio/meeting-transcriptions`, its service
 * `reportMeeting`) costs when the organization shares many Knaps that do not run after
 * meetings (issue 42: an audit measured 45 ms -> 930 ms and ~1 -> 7,545 read units with 300
 * shared Knaps of 200 KB, because the listing filtered after reading).
 *
 * One table per storage (Amazon's DynamoDB Local, `java -inMemory`; dynalite in memory), two
 * organizations side by side: "crowded" (a colleague's `--unrelated` shared manual Knaps of
 * `--kb` KB each) and "empty" (none). Both have the same three active after-meeting Knaps the
 * reporter sees: its private one, its shared one, a colleague's shared one. Then, in
 * alternating rounds (crowded, empty, and again), `--reports` reports per organization, each
 * of a new meeting (three runs made), with
 *
 * - "before": the listing of the version before (creator index then shared index, DynamoDB
 *   filtering `schedule_type` and `is_active` after reading), kept here to compare;
 * - "after": the meeting index (this version's store).
 *
 * For each: the median and p90 latency, the read units (what DynamoDB answers as
 * ConsumedCapacity for the report's reads: Query, GetItem), and the round trips per report.
 * Exits 1 if "after" misses its goals: crowded within 1.2x of empty (median latency), and
 * the same read units in both organizations.
 */
import '../local/quiet-sdk-warning.js';
import { randomBytes, randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { openLocalTable } from '../local/local-table.js';
import { freePort } from '../local/ports.js';
import { startDynamoDbLocal } from '../scripts/dynamodb-local.js';
import { DEFAULT_RATE_LIMIT } from '../shared/domain/clients.js';
import type { Knap, KnapOwnership } from '../shared/domain/knaps.js';
import type { Repository } from '../shared/domain/repository.js';
import type { MeetingKnapsViewer } from '../shared/domain/runs.js';
import { staticKeyring } from '../shared/domain/sealed-tokens.js';
import { noMetrics } from '../shared/metrics.js';
import type { Deps } from '../shared/runtime.js';
import { reportMeeting } from '../shared/services/runs.js';
import {
  BatchGetCommand,
  GetCommand,
  PutCommand,
  QueryCommand,
  type QueryCommandOutput,
  ScanCommand,
} from '../shared/store/commands.js';
import { createDocumentClient, type DocumentSender } from '../shared/store/dynamo-client.js';
import { DynamoRepository } from '../shared/store/dynamo-repository.js';
import { knapToItem } from '../shared/store/items.js';
import { key } from '../shared/store/keys.js';

const { values } = parseArgs({
  options: {
    unrelated: { type: 'string', default: '300' },
    kb: { type: 'string', default: '200' },
    reports: { type: 'string', default: '20' },
    storages: { type: 'string', default: 'dynamodb-local,dynalite' },
  },
});
const whole = (name: string, value: string | undefined): number => {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1) throw new Error(`--${name} must be a whole number above 0, not "${value}"`);
  return number;
};
const UNRELATED = whole('unrelated', values.unrelated);
const KB = whole('kb', values.kb);
const REPORTS = whole('reports', values.reports);
const STORAGES = String(values.storages).split(',');
for (const storage of STORAGES) {
  if (storage !== 'dynamodb-local' && storage !== 'dynalite') throw new Error(`Unknown storage "${storage}"`);
}

/** Every call's ConsumedCapacity and round trips, from the sender the store sends through. */
class Meter implements DocumentSender {
  readUnits = 0;
  roundTrips = 0;
  constructor(private readonly inner: DocumentSender) {}
  async send<Input, Output>(command: Parameters<DocumentSender['send']>[0] & { input: Input }): Promise<Output> {
    (command.input as { ReturnConsumedCapacity?: string }).ReturnConsumedCapacity = 'TOTAL';
    const output = (await this.inner.send(command)) as Output & { ConsumedCapacity?: unknown };
    this.roundTrips += 1;
    const reads = [QueryCommand, GetCommand, BatchGetCommand, ScanCommand].some((kind) => command instanceof kind);
    if (reads) {
      const consumed = output.ConsumedCapacity;
      for (const each of Array.isArray(consumed) ? consumed : [consumed]) {
        this.readUnits += (each as { CapacityUnits?: number } | undefined)?.CapacityUnits ?? 0;
      }
    }
    return output;
  }
}

/** The listing of the version before the meeting index (knap-store.ts before issue 42), uuids only. */
const legacyListing = (db: DocumentSender, tableName: string) => {
  const query = (phase: 'own' | 'shared', viewer: MeetingKnapsViewer) => {
    const index = phase === 'own' ? 'gsi1' : 'gsi2';
    return {
      TableName: tableName,
      IndexName: index,
      KeyConditionExpression: '#pk = :pk',
      FilterExpression:
        phase === 'own' ? '#type = :type AND #active = :active' : '#type = :type AND #active = :active AND #creator <> :mine',
      ExpressionAttributeNames: {
        '#pk': `${index}pk`,
        '#type': 'schedule_type',
        '#active': 'is_active',
        ...(phase === 'shared' ? { '#creator': 'gsi1pk' } : {}),
      },
      ExpressionAttributeValues: {
        ':pk': phase === 'own' ? key.creatorKnaps(viewer.clientId) : key.sharedKnaps(viewer.orgName),
        ':type': 'post_meeting_transcription',
        ':active': true,
        ...(phase === 'shared' ? { ':mine': key.creatorKnaps(viewer.clientId) } : {}),
      },
      ScanIndexForward: false,
      Limit: 500,
    };
  };
  const replaced: Partial<Repository> = {
    // Every page to the end: the bench's organizations have 3 such Knaps, under one page of 100.
    listMeetingKnaps: async (viewer) => {
      const uuids: string[] = [];
      for (const phase of ['own', 'shared'] as const) {
        let start: Record<string, unknown> | undefined;
        do {
          const result: QueryCommandOutput = await db.send(
            new QueryCommand({ ...query(phase, viewer), ExclusiveStartKey: start }),
          );
          for (const item of result.Items ?? []) uuids.push(String(item.uuid));
          start = result.LastEvaluatedKey;
        } while (start);
      }
      return { uuids, next: null };
    },
  };
  return replaced;
};

/** The repository with some methods replaced. */
const overriding = (repo: Repository, replaced: Partial<Repository>): Repository =>
  new Proxy(repo, {
    get: (target, property) => {
      if (Object.hasOwn(replaced, property)) return (replaced as Record<PropertyKey, unknown>)[property];
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });

const benchDeps = (repo: Repository): Deps => ({
  repo,
  clock: { now: () => new Date() },
  log: { info: () => undefined, warn: () => undefined, error: () => undefined },
  metrics: noMetrics,
  defaultRateLimit: DEFAULT_RATE_LIMIT,
  deliveries: { enqueue: async () => undefined, enqueueMeetingFanOut: async () => undefined },
  tokenKeys: staticKeyring([randomBytes(32)]),
});

const knap = (fields: Partial<Knap>): Knap => {
  const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    uuid: randomUUID(),
    name: 'Bench',
    creation_user_id: 1,
    schedule_type: 'post_meeting_transcription',
    is_active: true,
    visibility: 'private',
    can_toggle_default_active: false,
    active_by_default: true,
    tool_metadata: { action_description: 'Summarize the meeting' },
    creation_timestamp: now,
    updated_at: now,
    schedule_info: null,
    next_run_at: null,
    ...fields,
  };
};

const quantile = (sorted: number[], q: number): number => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;

interface Sample {
  ms: number[];
  readUnits: number[];
  roundTrips: number[];
}

const runStorage = async (storage: string) => {
  const ddbLocal = storage === 'dynamodb-local' ? await startDynamoDbLocal(await freePort()) : undefined;
  const tableName = `knap-bench-${randomBytes(3).toString('hex')}`;
  const table = await openLocalTable({ tableName, endpoint: ddbLocal?.endpoint });
  // A legacy query reads 1 MB pages, which DynamoDB Local answers in seconds: a generous bound.
  const documents = createDocumentClient({ endpoint: table.endpoint, requestTimeoutMs: 60_000 });
  try {
    const orgs = { crowded: 'bench-crowded', empty: 'bench-empty' } as const;
    const viewers: Record<keyof typeof orgs, MeetingKnapsViewer> = {
      crowded: { clientId: 'knap_ci_bench_crowded', orgName: orgs.crowded },
      empty: { clientId: 'knap_ci_bench_empty', orgName: orgs.empty },
    };
    const put = (item: Record<string, unknown>) => documents.send(new PutCommand({ TableName: tableName, Item: item }));
    for (const [name, viewer] of Object.entries(viewers)) {
      const mine: KnapOwnership = { orgName: viewer.orgName, creatorClientId: viewer.clientId };
      const colleague: KnapOwnership = { orgName: viewer.orgName, creatorClientId: `${viewer.clientId}_colleague` };
      await put(knapToItem(knap({}), mine));
      await put(knapToItem(knap({ visibility: viewer.orgName }), mine));
      await put(knapToItem(knap({ visibility: 'public' }), colleague));
      if (name !== 'crowded') continue;
      const big = { action_description: 'x'.repeat(KB * 1000) };
      for (let done = 0; done < UNRELATED; done += 10) {
        await Promise.all(
          Array.from({ length: Math.min(10, UNRELATED - done) }, () =>
            put(knapToItem(knap({ schedule_type: 'manual', visibility: viewer.orgName, tool_metadata: big }), colleague)),
          ),
        );
      }
    }

    const meter = new Meter(documents);
    const after = new DynamoRepository(meter, tableName);
    const listings = { before: overriding(after, legacyListing(meter, tableName)), after } as const;
    const samples = new Map<string, Sample>();
    let meeting = 0;
    const report = async (listing: keyof typeof listings, org: keyof typeof orgs) => {
      const viewer = viewers[org];
      const caller = { client: { clientId: viewer.clientId, orgName: viewer.orgName } } as Parameters<typeof reportMeeting>[1];
      meeting += 1;
      meter.readUnits = 0;
      meter.roundTrips = 0;
      const started = performance.now();
      const answer = await reportMeeting(benchDeps(listings[listing]), caller, { meeting_id: `bench-${meeting}` });
      const ms = performance.now() - started;
      if (answer.runs.length !== 3) throw new Error(`${listing}/${org}: ${answer.runs.length} runs, not 3`);
      const sample = samples.get(`${listing} ${org}`) ?? { ms: [], readUnits: [], roundTrips: [] };
      sample.ms.push(ms);
      sample.readUnits.push(meter.readUnits);
      sample.roundTrips.push(meter.roundTrips);
      samples.set(`${listing} ${org}`, sample);
    };
    // Warm-up (connections, JIT), not counted.
    for (const listing of ['before', 'after'] as const)
      for (const org of ['crowded', 'empty'] as const) await report(listing, org);
    samples.clear();
    for (let round = 0; round < REPORTS; round += 1) {
      for (const listing of ['before', 'after'] as const)
        for (const org of ['crowded', 'empty'] as const) await report(listing, org);
    }

    const median = (values: number[]) =>
      quantile(
        [...values].sort((a, b) => a - b),
        0.5,
      );
    const row = (listing: string, org: string) => {
      const sample = samples.get(`${listing} ${org}`) as Sample;
      const sorted = [...sample.ms].sort((a, b) => a - b);
      return {
        p50: quantile(sorted, 0.5),
        p90: quantile(sorted, 0.9),
        rcu: median(sample.readUnits),
        trips: median(sample.roundTrips),
      };
    };
    console.log(`\n### ${storage}: ${UNRELATED} unrelated shared Knaps of ${KB} KB vs none, ${REPORTS} reports each\n`);
    console.log('| listing | organization | p50 ms | p90 ms | read units / report | round trips / report |');
    console.log('|---|---|---:|---:|---:|---:|');
    for (const listing of ['before', 'after']) {
      for (const org of ['crowded', 'empty']) {
        const { p50, p90, rcu, trips } = row(listing, org);
        console.log(`| ${listing} | ${org} | ${p50.toFixed(1)} | ${p90.toFixed(1)} | ${rcu} | ${trips} |`);
      }
    }
    const ratio = (listing: string) => row(listing, 'crowded').p50 / row(listing, 'empty').p50;
    console.log(
      `\nmedian latency crowded/empty: before ${ratio('before').toFixed(2)}x, after ${ratio('after').toFixed(2)}x (goal <= 1.2x)`,
    );
    const failures: string[] = [];
    if (ratio('after') > 1.2) failures.push(`${storage}: crowded/empty ${ratio('after').toFixed(2)}x > 1.2x`);
    if (row('after', 'crowded').rcu !== row('after', 'empty').rcu)
      failures.push(`${storage}: read units differ between organizations`);
    return failures;
  } finally {
    documents.destroy();
    await table.close();
    await ddbLocal?.stop();
  }
};

const failures: string[] = [];
for (const storage of STORAGES) failures.push(...(await runStorage(storage)));
if (failures.length > 0) {
  console.error(`\nGoal missed:\n${failures.join('\n')}`);
  process.exit(1);
}
