/**
 * `npm run bench -- --fairness [--minutes 5] [--knaps 1500] [--project-dir DIR]`
 *
 * Fairness across organizations under `npm start` (contract, "Webhooks operators trust"): one
 * organization, X, has `--knaps` every-minute Knaps (its sub-hourly quota set to allow them)
 * and another, Y, has one, with a webhook endpoint on this machine. For `--minutes` minutes the
 * real stack (a child process: its dispatcher timer, its delivery queue, its embedded dynalite)
 * does its real work; Y's lateness is when Y's `knap.run` message reaches Y's receiver minus the
 * run's `scheduled_for`; and when Y's run first exists in the table (a GetItem every 250 ms)
 * minus its due minute: the contract's "created at most 10 s after". No clock is faked. Prints
 * the median and worst of both.
 *
 * `--stalled` is another bench (bench/stalled.ts): X's 20 stalled endpoints beside Y's healthy one.
 * `--project-dir /work/main`: the same bench against another checkout (before/after).
 */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Knap } from '../shared/domain/knaps.js';
import { runId } from '../shared/domain/runs.js';
import { newWebhookSecret } from '../shared/domain/webhooks.js';
import { describeSchedule } from '../shared/schedules/index.js';
import { startStackProcess } from './local-server.js';

export interface FairnessOptions {
  minutes: number;
  knaps: number;
  projectDir?: string;
}

interface Receipt {
  at: number;
  scheduledFor: string;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length === 0
    ? Number.NaN
    : sorted.length % 2
      ? (sorted[middle] as number)
      : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

/** Y's receiver: answers 204 at once and records each knap.run. */
const startServer = async (receipts: Receipt[]) => {
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = Date.now();
      try {
        const message = JSON.parse(Buffer.concat(chunks).toString()) as {
          type: string;
          data: { run?: { scheduled_for?: string } };
        };
        if (message.type === 'knap.run' && message.data.run?.scheduled_for) {
          receipts.push({ at, scheduledFor: message.data.run.scheduled_for });
        }
      } catch {
        // not a message of ours
      }
      response.writeHead(204).end();
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    close: async () => {
      server.closeAllConnections();
      server.close();
    },
  };
};

const everyMinute = (name: string, now: Date, firstRun: string): Knap => {
  const { schedule_info } = describeSchedule('every minute', { now });
  const at = now.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return {
    uuid: randomUUID(),
    name,
    creation_user_id: 1,
    schedule_type: 'scheduled',
    is_active: true,
    visibility: 'private',
    can_toggle_default_active: false,
    active_by_default: true,
    tool_metadata: { schedule_description: 'every minute' },
    creation_timestamp: at,
    updated_at: at,
    schedule_info,
    next_run_at: firstRun,
  };
};

export const runFairnessBench = async (options: FairnessOptions) => {
  const receipts: Receipt[] = [];
  const y = await startServer(receipts);
  const stack = await startStackProcess({ WEBHOOKS_ALLOW_LOCALHOST: 'true' }, { projectDir: options.projectDir });
  const { repo } = stack.deps;
  try {
    // X's quota set to allow its Knaps (a no-op for a checkout without quotas).
    await repo.setOrgQuotas('x-org', { subhourly: options.knaps + 100, knaps: options.knaps + 100 }).catch(() => {});
    const endpoint = (orgName: string, url: string) => ({
      endpointId: `we_${randomUUID().replace(/-/g, '').slice(0, 24)}`,
      orgName,
      url,
      secret: newWebhookSecret(),
      createdAt: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
    });
    await repo.putWebhookEndpoint(endpoint('y-org', y.url));
    // The first due minute: at least 20 s after seeding starts, so every Knap is in place.
    const now = new Date();
    const first = new Date(Math.ceil((now.getTime() + 20_000) / 60_000) * 60_000);
    const firstRun = first.toISOString().replace(/\.\d{3}Z$/, 'Z');
    const knaps = Array.from({ length: options.knaps }, (_, n) => everyMinute(`x ${n}`, now, firstRun));
    for (let start = 0; start < knaps.length; start += 50) {
      await Promise.all(
        knaps.slice(start, start + 50).map((knap) => repo.putKnap(knap, { orgName: 'x-org', creatorClientId: 'knap_ci_x' })),
      );
    }
    const yKnap = everyMinute('y', now, firstRun);
    await repo.putKnap(yKnap, { orgName: 'y-org', creatorClientId: 'knap_ci_y' });
    const seededAt = Date.now();
    if (seededAt > first.getTime()) throw new Error('Seeding took past the first due minute: use fewer --knaps');
    const end = first.getTime() + (options.minutes - 1) * 60_000 + 30_000;
    // When Y's run of each minute first exists (a GetItem every 250 ms): its creation's lateness.
    const created = new Map<string, number>();
    const occurrences = Array.from({ length: options.minutes }, (_, n) =>
      new Date(first.getTime() + n * 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
    );
    while (Date.now() < end) {
      const now = Date.now();
      for (const occurrence of occurrences) {
        if (created.has(occurrence) || Date.parse(occurrence) > now) continue;
        const run = await repo.getRun(runId.scheduled(yKnap.uuid, occurrence)).catch(() => undefined);
        if (run) created.set(occurrence, Date.now());
      }
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const creation = occurrences.map((occurrence) => {
      const at = created.get(occurrence);
      return at === undefined ? Number.POSITIVE_INFINITY : (at - Date.parse(occurrence)) / 1000;
    });
    const lateness = receipts.map((receipt) => (receipt.at - Date.parse(receipt.scheduledFor)) / 1000);
    return {
      checkout: options.projectDir ?? 'this one',
      minutes: options.minutes,
      xKnaps: options.knaps,
      /** Seconds from each due minute to when Y's run existed (Infinity: not within the window). */
      yCreationSeconds: creation.map((value) => Math.round(value * 10) / 10),
      creationMedianSeconds: Math.round(median(creation) * 10) / 10,
      creationWorstSeconds: Math.round(Math.max(...creation) * 10) / 10,
      yMessages: receipts.length,
      yLatenessSeconds: lateness.map((value) => Math.round(value * 10) / 10),
      medianSeconds: Math.round(median(lateness) * 10) / 10,
      worstSeconds: Math.round(Math.max(...lateness) * 10) / 10,
    };
  } finally {
    await stack.stop();
    await y.close();
  }
};
