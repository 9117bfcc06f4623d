import { Metrics as PowertoolsMetrics } from '@aws-lambda-powertools/metrics';
import type { Context } from 'aws-lambda';
import { DUE_SHARDS } from '../../shared/domain/runs.js';
import { startInvocation } from '../../shared/lambda/invocation.js';
import { EmfMetrics, METRICS_NAMESPACE } from '../../shared/lambda/metrics.js';
import { type Metrics, noMetrics } from '../../shared/metrics.js';
import { SqsDeliveryQueue } from '../../shared/queue/sqs-queue.js';
import { type Deps, defaultDeps } from '../../shared/runtime.js';
import { allShards, type DispatchResult, dispatchDueRuns } from '../../shared/services/dispatcher.js';

/** The `service` dimension of DispatcherLagSeconds, which the lag alarm (lib/monitoring.ts) names. */
export const DISPATCHER_SERVICE = 'dispatch-runs';

/**
 * The dispatcher's metrics carry `service=dispatch-runs`, not the deployment-wide
 * POWERTOOLS_SERVICE_NAME, so that its lag is one metric the alarm can name. EMF in a Lambda,
 * nothing elsewhere.
 */
export const dispatcherMetrics = (env: NodeJS.ProcessEnv = process.env): Metrics =>
  env.AWS_LAMBDA_FUNCTION_NAME
    ? new EmfMetrics(new PowertoolsMetrics({ namespace: METRICS_NAMESPACE, serviceName: DISPATCHER_SERVICE }))
    : noMetrics;

/**
 * The due-index shards an event asks for: `{"shards": [..]}` (the rules' constant input, one
 * invocation per shard group, lib/runs.ts), or every shard for any other event (a plain
 * Scheduled Event, a local invocation). A malformed list throws: a misconfigured rule fails
 * loudly (the errors alarm) instead of silently skipping shards.
 */
export const shardsOf = (event: unknown): number[] => {
  if (typeof event !== 'object' || event === null || !('shards' in event)) return allShards();
  const { shards } = event as { shards: unknown };
  const valid =
    Array.isArray(shards) &&
    shards.length > 0 &&
    shards.every((shard) => Number.isInteger(shard) && shard >= 0 && shard < DUE_SHARDS) &&
    new Set(shards).size === shards.length;
  if (!valid) throw new Error(`"shards" must list distinct integers from 0 to ${DUE_SHARDS - 1}: ${JSON.stringify(shards)}`);
  return shards as number[];
};

/**
 * Started every minute by EventBridge, once per shard group: creates the run of every
 * occurrence that is due in those shards and queues it for delivery. A failure throws, so the
 * invocation is retried; a retry writes the same runs (their ids derive from Knap and
 * occurrence), never new ones. Every pass that completes writes its lag; one that fails
 * writes none (the alarm counts missing data; a shard group that keeps failing while the
 * others report is the errors alarm's).
 */
export const createHandler =
  (deps: Deps) =>
  async (event?: unknown): Promise<DispatchResult> => {
    try {
      const shards = shardsOf(event);
      const result = await dispatchDueRuns(deps, shards);
      if (result.created + result.claimed > 0) deps.log.info('Dispatched due runs', { ...result, shards });
      return result;
    } finally {
      deps.metrics.flush();
    }
  };

let deps: Deps | undefined;

export const handler = async (event?: unknown, context?: Context): Promise<DispatchResult> => {
  deps ??= { ...defaultDeps({ remoteDeliveries: SqsDeliveryQueue.forUrl }), metrics: dispatcherMetrics() };
  await startInvocation(deps.log, context);
  return createHandler(deps)(event);
};
