import { Metrics as PowertoolsMetrics } from '@aws-lambda-powertools/metrics';
import type { Context } from 'aws-lambda';
import { startInvocation } from '../../shared/lambda/invocation.js';
import { EmfMetrics, METRICS_NAMESPACE } from '../../shared/lambda/metrics.js';
import { type Metrics, noMetrics } from '../../shared/metrics.js';
import { SqsDeliveryQueue } from '../../shared/queue/sqs-queue.js';
import { type Deps, defaultDeps } from '../../shared/runtime.js';
import { type DispatchResult, dispatchDueRuns } from '../../shared/services/dispatcher.js';

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
 * Started every minute by EventBridge: creates the run of every occurrence that is due and
 * queues it for delivery. A failure throws, so the invocation is retried; a retry writes the
 * same runs (their ids derive from Knap and occurrence), never new ones. Every pass that
 * completes writes its lag; one that fails writes none (the alarm counts missing data).
 */
export const createHandler = (deps: Deps) => async (): Promise<DispatchResult> => {
  try {
    const result = await dispatchDueRuns(deps);
    if (result.created + result.claimed > 0) deps.log.info('Dispatched due runs', { ...result });
    return result;
  } finally {
    deps.metrics.flush();
  }
};

let deps: Deps | undefined;

export const handler = async (_event?: unknown, context?: Context): Promise<DispatchResult> => {
  deps ??= { ...defaultDeps({ remoteDeliveries: SqsDeliveryQueue.forUrl }), metrics: dispatcherMetrics() };
  await startInvocation(deps.log, context);
  return createHandler(deps)();
};
