import type { Context, SQSEvent } from 'aws-lambda';
import { DUE_SHARDS } from '../../shared/domain/runs.js';
import { startInvocation } from '../../shared/lambda/invocation.js';
import { EmfMetrics } from '../../shared/lambda/metrics.js';
import { type Metrics, noMetrics } from '../../shared/metrics.js';
import { lazySqsDeliveryQueue } from '../../shared/queue/lazy-sqs.js';
import { type Deps, defaultDeps } from '../../shared/runtime.js';
import { scopedDeps } from '../../shared/scoped-deps.js';
import {
  coordinateDispatch,
  type DispatchFanOut,
  type DispatchMessage,
  type DispatchResult,
  dispatchDueRuns,
} from '../../shared/services/dispatcher.js';
import { KnapStore } from '../../shared/store/knap-store.js';
import { RunStore } from '../../shared/store/run-store.js';
import type { StoreClasses } from '../../shared/store/table-repository.js';
import { SqsDispatchFanOut } from './fan-out.js';

/** The stores this function's route uses (its table access: lib/functions.ts, lib/runs.ts). */
export const stores: StoreClasses = { knaps: KnapStore, runs: RunStore };

/** The `service` dimension of DispatcherLagSeconds, which the lag alarm (lib/monitoring.ts) names. */
export const DISPATCHER_SERVICE = 'dispatch-runs';

/**
 * The dispatcher's metrics carry `service=dispatch-runs`, not the deployment-wide
 * POWERTOOLS_SERVICE_NAME, so that its lag is one metric the alarm can name. EMF in a Lambda,
 * nothing elsewhere.
 */
export const dispatcherMetrics = (env: NodeJS.ProcessEnv = process.env): Metrics =>
  env.AWS_LAMBDA_FUNCTION_NAME ? new EmfMetrics({ serviceName: DISPATCHER_SERVICE }) : noMetrics;

/**
 * The due-index shards a message or an event names: `{"shards": [..]}`. A malformed list
 * throws: a misconfigured sender fails loudly (the errors alarm) instead of silently skipping
 * shards.
 */
export const shardsOf = (event: { shards: unknown }): number[] => {
  const { shards } = event;
  const valid =
    Array.isArray(shards) &&
    shards.length > 0 &&
    shards.every((shard) => Number.isInteger(shard) && shard >= 0 && shard < DUE_SHARDS) &&
    new Set(shards).size === shards.length;
  if (!valid) throw new Error(`"shards" must list distinct integers from 0 to ${DUE_SHARDS - 1}: ${JSON.stringify(shards)}`);
  return shards as number[];
};

/** How long a minute's pass lasts, from the coordinator's start: its workers stop then too, before the next minute's. */
export const PASS_WINDOW_MS = 50_000;
/** No Knap is started in the last seconds before the Lambda timeout: the ones under way finish well before it. */
export const STOP_MARGIN_MS = 5_000;
/** DynamoDB calls give up this long before the Lambda timeout (a stall): the invocation fails, it is never killed. */
export const CALL_MARGIN_MS = 2_000;

/** What the dispatcher needs beyond Deps: its fan-out, and how many workers may run at once. */
export interface DispatchSettings {
  /** Absent: the coordinator drains every shard in this process (npm start, a local invocation). */
  fanOut?: DispatchFanOut;
  /** The dispatch queue event source's maxConcurrency (DISPATCH_WORKERS). */
  workers: number;
  /** Runs the coordinator drains alone (COORDINATOR_BUDGET unless given: tests and the bench give less). */
  budget?: number;
}

/** DISPATCH_QUEUE_URL and DISPATCH_WORKERS (lib/runs.ts); without a URL, no fan-out. */
export const dispatchSettingsFromEnv = (env: NodeJS.ProcessEnv = process.env): DispatchSettings => {
  const workers = Number(env.DISPATCH_WORKERS);
  return {
    ...(env.DISPATCH_QUEUE_URL ? { fanOut: new SqsDispatchFanOut(env.DISPATCH_QUEUE_URL) } : {}),
    workers: Number.isInteger(workers) && workers >= 1 ? workers : 2,
  };
};

const isSqsEvent = (event: unknown): event is SQSEvent =>
  typeof event === 'object' &&
  event !== null &&
  Array.isArray((event as { Records?: unknown }).Records) &&
  (event as SQSEvent).Records.every((record) => record?.eventSource === 'aws:sqs');

const hasShards = (event: unknown): event is { shards: unknown } =>
  typeof event === 'object' && event !== null && 'shards' in event;

/** The coordinator's log line when anything was due: its counts, `due`, `own`, `fannedOut` and `stopped` (CoordinateResult). */
export const COORDINATED = 'Coordinated due runs';

/**
 * Three kinds of invocation:
 * - the every-minute rule's Scheduled Event (or any other event: a local invocation): the
 *   coordinator, which drains what little is due itself and fans the rest out;
 * - the dispatch queue's messages (SQS): a worker, which drains the message's shards until the
 *   minute's pass ends (`by`); a message read after that is dropped (the next coordinator sees
 *   what is still due), an unreadable one too;
 * - `{"shards": [..]}` (a person invoking it): those shards, in this invocation.
 * Every pass ends before the Lambda timeout: none starts a Knap in its last STOP_MARGIN_MS, and
 * DynamoDB calls and queue sends give up CALL_MARGIN_MS before it, so the invocation fails
 * rather than being killed; what it did not reach stays due. A failure throws (the errors alarm); a retry writes
 * the same runs (their ids derive from Knap and occurrence), never new ones. Every pass that
 * completes writes its lag; one that fails writes none (the alarm counts missing data).
 */
export const createHandler =
  (deps: Deps, settings: DispatchSettings = { workers: 2 }) =>
  async (event?: unknown, context?: Pick<Context, 'getRemainingTimeInMillis'>): Promise<DispatchResult> => {
    const started = Date.now();
    const end = context ? started + context.getRemainingTimeInMillis() : Number.POSITIVE_INFINITY;
    const deadline = Number.isFinite(end) ? end - CALL_MARGIN_MS : undefined;
    const work = deadline === undefined ? deps : scopedDeps(deps, { deadline });
    const lastStart = end - STOP_MARGIN_MS;
    const bounded = deadline === undefined ? {} : { deadline };
    try {
      if (isSqsEvent(event)) return await drainMessages(work, event, lastStart, bounded);
      if (hasShards(event)) {
        const shards = shardsOf(event);
        const result = await dispatchDueRuns(work, shards, { stopAt: Math.min(lastStart, started + PASS_WINDOW_MS), ...bounded });
        if (result.created + result.claimed > 0) deps.log.info('Dispatched due runs', { ...result, shards });
        return result;
      }
      const result = await coordinateDispatch(work, {
        ...(settings.fanOut ? { fanOut: settings.fanOut } : {}),
        workers: settings.workers,
        ...(settings.budget === undefined ? {} : { budget: settings.budget }),
        stopAt: Math.min(lastStart, started + PASS_WINDOW_MS),
        ...bounded,
        workersStopAt: started + PASS_WINDOW_MS,
      });
      const { created, claimed, lagSeconds } = result;
      // The plan goes to the log; the answer keeps the shape every dispatcher invocation has.
      if (result.due > 0 || result.stopped) deps.log.info(COORDINATED, { ...result });
      return { created, claimed, lagSeconds };
    } finally {
      deps.metrics.flush();
    }
  };

/** A worker: the shards of each readable, timely message, all at once, until the earliest `by` (or the Lambda's end). */
const drainMessages = async (
  deps: Deps,
  event: SQSEvent,
  lastStart: number,
  bounded: { deadline?: number },
): Promise<DispatchResult> => {
  const shards = new Set<number>();
  let stopAt = lastStart;
  for (const record of event.Records) {
    let message: DispatchMessage;
    try {
      const body = JSON.parse(record.body) as { shards?: unknown; by?: unknown };
      const by = typeof body.by === 'string' ? Date.parse(body.by) : Number.NaN;
      if (Number.isNaN(by)) throw new Error(`"by" must be an ISO time: ${JSON.stringify(body.by)}`);
      message = { shards: shardsOf({ shards: body.shards }), by: new Date(by).toISOString() };
    } catch (error) {
      // Retrying cannot make it readable: log and let it go (the next coordinator sees what is due).
      deps.log.error('Unreadable dispatch message, dropped', { message_id: record.messageId, message: (error as Error).message });
      continue;
    }
    const by = Date.parse(message.by);
    if (Date.now() >= by) {
      deps.log.info('Dispatch message read after its pass ended, dropped: the next minute sees what is still due', {
        message_id: record.messageId,
        shards: message.shards,
        by: message.by,
      });
      continue;
    }
    for (const shard of message.shards) shards.add(shard);
    stopAt = Math.min(stopAt, by);
  }
  if (shards.size === 0) return { created: 0, claimed: 0, lagSeconds: 0 };
  const list = [...shards].sort((a, b) => a - b);
  const result = await dispatchDueRuns(deps, list, { stopAt, ...bounded });
  if (result.created + result.claimed > 0) deps.log.info('Dispatched due runs', { ...result, shards: list });
  return result;
};

let deps: Deps | undefined;
let settings: DispatchSettings | undefined;

export const handler = async (event?: unknown, context?: Context): Promise<DispatchResult> => {
  deps ??= { ...defaultDeps({ stores, remoteDeliveries: lazySqsDeliveryQueue }), metrics: dispatcherMetrics() };
  settings ??= dispatchSettingsFromEnv();
  await startInvocation(deps.log, context);
  return createHandler(deps, settings)(event, context);
};
