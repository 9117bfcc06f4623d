/**
 * `npm run bench:dispatch [-- --knaps 10000]`
 *
 * Loads N active scheduled Knaps, all due in the same minute, into an in-memory dynalite,
 * then times one dispatcher pass that creates and claims a run for each (runs/s). Beside it,
 * in the same run, the peer: the same number of plain conditional PutItems on the same
 * dynalite, the least any design must write per run. The ratio is what the dispatcher costs
 * over that floor; absolute numbers drift with this shared machine.
 */
import '../local/quiet-sdk-warning.js';
import { randomBytes, randomUUID } from 'node:crypto';
import { parseArgs } from 'node:util';
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { openLocalTable } from '../local/local-table.js';
import { DEFAULT_RATE_LIMIT } from '../shared/domain/clients.js';
import type { Knap } from '../shared/domain/knaps.js';
import { staticKeyring } from '../shared/domain/sealed-tokens.js';
import { noMetrics } from '../shared/metrics.js';
import type { Deps } from '../shared/runtime.js';
import { describeSchedule } from '../shared/schedules/index.js';
import { dispatchDueRuns } from '../shared/services/dispatcher.js';
import { createDocumentClient } from '../shared/store/dynamo-client.js';
import { DynamoRepository } from '../shared/store/dynamo-repository.js';

const { values } = parseArgs({ options: { knaps: { type: 'string', default: '10000' } } });
const count = Number(values.knaps);
const tableName = 'knap-bench-dispatch';

/** Monday 09:00 UTC: every Knap is due at once, the hot minute of the scale question. */
const DUE = '2026-11-30T09:00:00Z';
const AFTER = new Date('2026-11-30T09:00:01Z');

const inBatches = async <T>(items: T[], size: number, work: (item: T) => Promise<unknown>): Promise<void> => {
  for (let start = 0; start < items.length; start += size) await Promise.all(items.slice(start, start + size).map(work));
};

const main = async (): Promise<void> => {
  const table = await openLocalTable({ tableName });
  const documents = createDocumentClient({ endpoint: table.endpoint });
  const repo = new DynamoRepository(documents, tableName);
  let queued = 0;
  const deps: Deps = {
    repo,
    clock: { now: () => AFTER },
    log: console,
    metrics: noMetrics,
    defaultRateLimit: DEFAULT_RATE_LIMIT,
    deliveries: {
      enqueue: async () => {
        queued += 1;
      },
      enqueueMeetingFanOut: async () => undefined,
    },
    // The dispatcher seals no tokens.
    tokenKeys: staticKeyring([randomBytes(32)]),
  };
  try {
    const { schedule_info } = describeSchedule('every Monday at 9am', { now: new Date('2026-11-29T12:00:00Z') });
    const knaps: Knap[] = Array.from({ length: count }, (_, index) => ({
      uuid: randomUUID(),
      name: `bench ${index}`,
      creation_user_id: 1,
      schedule_type: 'scheduled',
      is_active: true,
      visibility: 'private',
      can_toggle_default_active: false,
      active_by_default: true,
      tool_metadata: { schedule_description: 'every Monday at 9am' },
      creation_timestamp: '2026-11-29T12:00:00.000Z',
      updated_at: '2026-11-29T12:00:00.000Z',
      schedule_info,
      next_run_at: DUE,
    }));
    const loadStarted = performance.now();
    await inBatches(knaps, 50, (knap) => repo.putKnap(knap, { orgName: 'bench', creatorClientId: 'knap_ci_bench' }));
    console.log(`Loaded ${count} Knaps due at ${DUE} in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`);

    const peerStarted = performance.now();
    await inBatches(knaps, 50, (knap) =>
      documents.send(
        new PutCommand({
          TableName: tableName,
          Item: { pk: `PEER#${knap.uuid}`, sk: 'PEER', at: DUE },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
      ),
    );
    const peerSeconds = (performance.now() - peerStarted) / 1000;

    const started = performance.now();
    const result = await dispatchDueRuns(deps);
    const seconds = (performance.now() - started) / 1000;
    if (result.created !== count || result.claimed !== count || queued !== count) {
      throw new Error(`expected ${count} runs created, claimed and queued; got ${JSON.stringify({ ...result, queued })}`);
    }
    const again = await dispatchDueRuns(deps);
    if (again.created !== 0) throw new Error(`a second pass created ${again.created} runs`);

    const rows = [
      ['dispatcher: run + claim + queue per Knap', seconds, count / seconds],
      ['peer: one conditional PutItem per Knap', peerSeconds, count / peerSeconds],
    ] as const;
    console.log('\n| what | seconds | per second |\n|---|---|---|');
    for (const [name, secs, rate] of rows) console.log(`| ${name} | ${secs.toFixed(2)} | ${rate.toFixed(0)} |`);
    console.log(
      `\nDispatcher / peer time: ${(seconds / peerSeconds).toFixed(2)}x (2 writes and a share of the index reads per run, against 1 write)`,
    );
    console.log(`Every one of the ${count} Knaps ran exactly once; a second pass created none.`);
  } finally {
    documents.destroy();
    await table.close();
  }
};

await main();
