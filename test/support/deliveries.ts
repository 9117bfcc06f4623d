/** Helpers for tests of run delivery: a real local delivery queue, webhook receivers, bounded waits. */
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { LocalDeliveryQueue } from '../../local/delivery-queue.js';
import type { Knap, KnapOwnership } from '../../shared/domain/knaps.js';
import type { Repository } from '../../shared/domain/repository.js';
import {
  type MeetingFanOut,
  newRun,
  type Run,
  type RunStatus,
  type RunTrigger,
  runId,
  type StoredRun,
} from '../../shared/domain/runs.js';
import type { DeliveryTarget, RunStartTarget } from '../../shared/domain/webhooks.js';
import type { Deps } from '../../shared/runtime.js';
import {
  type DeliverySettings,
  deliverySettingsFromEnv,
  handleDelivery,
  resumeRunDelivery,
} from '../../shared/services/delivery.js';
import { continueMeetingFanOut } from '../../shared/services/meeting-fan-out.js';
import { RecordingQueue } from './dynamo.js';

export interface TestDeliveryOptions {
  /** Over the deployed defaults, with localhost allowed (receivers are on 127.0.0.1). */
  settings?: Partial<DeliverySettings>;
  /** Multiplies every queued wait; default 1/1000, so the 30 s first retry comes after 15 to 30 ms. */
  timeScale?: number;
  /** The local queue's bound on one organization's jobs at once. */
  maxPerLane?: number;
}

/**
 * Records what is queued, as RecordingQueue does, and delivers it through the real local
 * queue (local/delivery-queue.ts) with deliverRun: the same code npm start runs.
 */
export class DeliveringQueue extends RecordingQueue {
  readonly settings: DeliverySettings;
  /** Attempts that threw (the store failed). */
  readonly errors: { runId: string; error: unknown }[] = [];
  readonly queue: LocalDeliveryQueue;

  constructor(deps: Deps, options: TestDeliveryOptions = {}) {
    super();
    this.settings = { ...deliverySettingsFromEnv({}), allowLocalhost: true, ...options.settings };
    this.queue = new LocalDeliveryQueue({
      deliver: (id, target) => handleDelivery(deps, id, target?.endpointId, this.settings),
      resume: (id) => resumeRunDelivery(deps, id, this.settings),
      continueFanOut: (task) => continueMeetingFanOut(deps, task),
      timeScale: options.timeScale ?? 1 / 1000,
      maxPerLane: options.maxPerLane,
      onError: (id, error) => this.errors.push({ runId: id, error }),
    });
  }

  override async enqueue(id: string, delaySeconds: number, target?: DeliveryTarget | RunStartTarget): Promise<void> {
    await super.enqueue(id, delaySeconds, target);
    await this.queue.enqueue(id, delaySeconds, target);
  }

  override async enqueueMeetingFanOut(task: MeetingFanOut): Promise<void> {
    await super.enqueueMeetingFanOut(task);
    await this.queue.enqueueMeetingFanOut(task);
  }

  close(): Promise<void> {
    return this.queue.close();
  }
}

/** Gives `deps` a DeliveringQueue of its own, so that retries queued by deliverRun go through it too. */
export const deliverWith = (deps: Deps & { deliveries: RecordingQueue }, options: TestDeliveryOptions = {}): DeliveringQueue => {
  const queue = new DeliveringQueue(deps, options);
  deps.deliveries = queue;
  return queue;
};

/** Polls `check` until it returns a value other than undefined; fails at the deadline with `what`. */
export const waitFor = async <T>(
  what: string,
  check: () => T | undefined | Promise<T | undefined>,
  timeoutMs = 10_000,
): Promise<T> => {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
};

/** Waits until the run has the status (and returns it as stored). */
export const waitForRunStatus = (repo: Repository, id: string, status: RunStatus, timeoutMs = 10_000): Promise<StoredRun> =>
  waitFor(
    `run ${id} to be ${status}`,
    async () => {
      const stored = await repo.getRun(id);
      return stored?.run.status === status ? stored : undefined;
    },
    timeoutMs,
  );

export interface ReceivedWebhook {
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

/** What a receiver answers: a status (and body), or `hang` (never answer). */
export type Answer = { status: number; body?: string } | 'hang';

export interface Receiver {
  url: string;
  received: ReceivedWebhook[];
  close(): Promise<void>;
}

/**
 * A webhook receiver on 127.0.0.1 and a free port. `answer` gets the number of the request
 * (1, 2, ...) and says what to answer; hanging requests end when the receiver closes.
 */
export const startReceiver = async (answer: (request: number) => Answer = () => ({ status: 204 })): Promise<Receiver> => {
  const received: ReceivedWebhook[] = [];
  const hanging = new Set<ServerResponse>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      received.push({ headers: request.headers, body: Buffer.concat(chunks).toString(), at: Date.now() });
      const what = answer(received.length);
      if (what === 'hang') {
        hanging.add(response);
        return;
      }
      response.writeHead(what.status, { 'content-type': 'text/plain' });
      response.end(what.body ?? '');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/knap`,
    received,
    close: async () => {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, 'close').catch(() => {});
    },
  };
};

export const OWNER: KnapOwnership = { orgName: 'acme', creatorClientId: 'knap_ci_test' };

/** A stored pending run of a Knap, made the way the dispatcher and the run endpoints make them. */
export const putPendingRun = async (
  repo: Repository,
  knapUuid: string,
  orgName = OWNER.orgName,
  trigger: RunTrigger = 'manual',
): Promise<Run> => {
  const run = newRun({
    run_id: runId.manual(),
    knap_uuid: knapUuid,
    trigger,
    scheduled_for: null,
    meeting_id: null,
    created_at: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
  });
  if (!(await repo.putRun({ run, orgName, deliveredTo: [] }))) throw new Error('run exists');
  return run;
};

/** Stores a Knap (manual, active, private, unless `fields` say otherwise) and returns it. */
export const putTestKnap = async (
  repo: Repository,
  ownership: KnapOwnership = OWNER,
  fields: Partial<Knap> = {},
): Promise<Knap> => {
  const now = new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
  const knap: Knap = {
    uuid: randomUUID(),
    name: 'Delivery test',
    creation_user_id: 1,
    schedule_type: 'manual',
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
  if (!(await repo.putKnap(knap, ownership))) throw new Error('knap exists');
  return knap;
};
