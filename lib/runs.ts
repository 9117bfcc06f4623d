import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { jobs as allJobs, type JobDefinition } from '../functions/jobs.js';
import type { RouteDefinition } from '../functions/routes.js';
import type { KnapSettings } from './config.js';
import { nameLogicalIds, pascalCase, reservedConcurrencyOf } from './functions.js';
import { KnapFunction } from './knap-function.js';
import { LAMBDA_SETTINGS } from './lambda-settings.js';
import { KEY_PARTITION, KEY_PREFIX, type TableAccess } from './table-access.js';

/**
 * What each job does with the table (see shared/services/dispatcher.ts and delivery.ts):
 * - dispatch-runs: due Knaps (Query on gsi3, then BatchGetItem of the Knaps), the run
 *   (PutItem), the claim on the Knap (UpdateItem).
 * - deliver-runs: the run and its Knap (GetItem), the organization's webhook endpoints
 *   (Query on gsi3, BatchGetItem; one by GetItem for an attempt at it), the run's delivery to
 *   each endpoint (UpdateItem DLV#, GetItem DLV#, Query DLV#<run>), each attempt counted on
 *   the run (UpdateItem); and the
 *   rest of a large meeting report (services/meeting-fan-out.ts): the reporter's Knaps
 *   (Query on gsi1 and gsi2), their runs made (PutItem) or found (GetItem); each attempt's
 *   run events (Query RUNEVENTS#<run> for the last one, conditional PutItem RUNEVENTS#) and an
 *   outcome an answer reported (UpdateItem RUN#); an endpoint's streak of final failures and
 *   its automatic disabling (UpdateItem WEBHOOK#), audited (PutItem ORG#<org>#AUDIT only).
 *   It reads the token keys: each message
 *   carries a report token.
 */
export const JOB_TABLE_ACCESS: Readonly<Record<string, TableAccess>> = {
  'dispatch-runs': {
    'dynamodb:Query': ['gsi3'],
    'dynamodb:BatchGetItem': [KEY_PREFIX.knap],
    'dynamodb:PutItem': [KEY_PREFIX.run],
    'dynamodb:UpdateItem': [KEY_PREFIX.knap],
  },
  'deliver-runs': {
    // gsi3: webhook endpoints and the meeting index (a meeting report's later pages); a run's endpoint deliveries.
    // gsi1: an endpoint's failed deliveries, a recovery's pages (webhook-recovery.ts).
    'dynamodb:Query': ['gsi3', 'gsi1', KEY_PARTITION.runEvents, KEY_PARTITION.deliveries],
    'dynamodb:GetItem': [KEY_PREFIX.knap, KEY_PREFIX.run, KEY_PREFIX.webhook, KEY_PREFIX.delivery, KEY_PREFIX.message],
    // Webhook endpoints; the names of a meeting report's Knaps that run.
    'dynamodb:BatchGetItem': [KEY_PREFIX.webhook, KEY_PREFIX.knap],
    // Runs and their events; messages other than knap.run (a run's outcome, queued by whoever
    // ended its chain; endpoint.disabled...), stored once for every attempt.
    // An endpoint's automatic disabling is audited as `system`: its organization's audit partition, nothing else there.
    'dynamodb:PutItem': [KEY_PREFIX.run, KEY_PREFIX.runEvent, KEY_PREFIX.message, KEY_PARTITION.audit],
    // An endpoint's failure record (its streak, the times of its last 10 final failures), and its
    // automatic disabling (endpoint-health.ts).
    'dynamodb:UpdateItem': [KEY_PREFIX.run, KEY_PREFIX.delivery, KEY_PREFIX.webhook],
  },
};

/**
 * The routes whose functions create runs, or send one again (redelivery), or queue a run's
 * outcome message (a terminal report), and so use the delivery queue.
 */
export const RUN_QUEUEING_ROUTES: readonly string[] = [
  'start-run',
  'report-meeting',
  'report-run-event',
  'admin-redeliver-run',
  'admin-recover-webhook',
];

/** Long enough for a delivery to every endpoint of an organization at 10 s each, in parallel, and its bookkeeping. */
const DELIVERER_TIMEOUT = Duration.seconds(LAMBDA_SETTINGS.delivererTimeoutSeconds);
/**
 * A pass must end before the next one starts: the handler starts no Knap after 50 s (its
 * PASS_WINDOW_MS) nor in the last 5 s, and its DynamoDB calls give up 2 s before this.
 */
export const DISPATCHER_TIMEOUT = Duration.seconds(55);
/**
 * A dispatch message comes back only if its worker failed; by then its pass has ended and the
 * worker drops it (the next coordinator sees what is still due). Above the function's timeout,
 * as Lambda requires of an event source's queue.
 */
export const DISPATCH_VISIBILITY_TIMEOUT = Duration.seconds(DISPATCHER_TIMEOUT.toSeconds() * 2);
/**
 * The dispatcher's memory: 1,769 MB is one full vCPU. A pass is CPU-bound (about 1.7 ms of
 * CPU per run, bench/dispatch.ts), and the 256 MB of the other functions is about a seventh
 * of a vCPU: ~85 runs/s instead of ~500. An idle minute is one invocation of ~0.1 s.
 */
export const DISPATCHER_MEMORY_MB = 1769;

export interface KnapRunsProps {
  readonly table: ITable;
  /** The delivery queue (the data stack's), with its dead-letter queue. */
  readonly queue: IQueue;
  /** The dispatcher's queue of shares of a busy minute (the data stack's, with the other queues). */
  readonly dispatchQueue: IQueue;
  readonly settings: KnapSettings;
  /** The route functions, so those that create runs (or redeliver them) may queue them. */
  readonly routeFunctions: ReadonlyMap<RouteDefinition, KnapFunction>;
  readonly jobs?: readonly JobDefinition[];
  /** The token keys: the deliverer seals each message's report token with them. */
  readonly tokenKeys?: ISecret;
  /** The API's base URL, under which report URLs are (REPORT_BASE_URL of the deliverer). */
  readonly reportBaseUrl?: string;
}

/**
 * Knaps that run: the dispatcher (one coordinator invocation a minute from EventBridge, and
 * its workers from the dispatch queue, at most `dispatchMaxConcurrency` at once), the delivery
 * queue with its dead-letter queue (SQS), and the deliverer that drains it.
 */
export class KnapRuns extends Construct {
  readonly queue: IQueue;
  /** The coordinator's shares of a busy minute, `{"shards": [..], "by"}`, one worker invocation each. */
  readonly dispatchQueue: IQueue;
  readonly byJob: ReadonlyMap<string, KnapFunction>;
  /** The every-minute rule: one coordinator invocation a minute. */
  readonly schedule: Rule | undefined;

  constructor(scope: Construct, id: string, props: KnapRunsProps) {
    super(scope, id);
    this.queue = props.queue;
    this.dispatchQueue = props.dispatchQueue;

    const byJob = new Map<string, KnapFunction>();
    for (const job of props.jobs ?? allJobs) {
      const access = JOB_TABLE_ACCESS[job.id];
      if (!access) throw new Error(`Job "${job.id}" has no entry in lib/runs.ts JOB_TABLE_ACCESS`);
      const fn = new KnapFunction(this, pascalCase(job.id), {
        entry: job.entry,
        description: job.description,
        logLevel: props.settings.logLevel,
        defaultRateLimit: props.settings.defaultRateLimit,
        timeout: job.trigger === 'queue' ? DELIVERER_TIMEOUT : DISPATCHER_TIMEOUT,
        ...(job.trigger === 'schedule' ? { memorySize: DISPATCHER_MEMORY_MB } : {}),
        reservedConcurrentExecutions: reservedConcurrencyOf(props.settings, job.id),
        declareLocalEndpoint: props.settings.samLocal,
      });
      fn.bindTable(props.table, access);
      nameLogicalIds(fn, job.id);
      this.canQueueRuns(fn);
      byJob.set(job.id, fn);
    }
    this.byJob = byJob;

    const deliverer = byJob.get('deliver-runs');
    if (deliverer && props.tokenKeys) {
      props.tokenKeys.grantRead(deliverer);
      deliverer.addEnvironment('TOKEN_KEYS_SECRET_ARN', props.tokenKeys.secretArn);
    }
    if (deliverer && props.reportBaseUrl) deliverer.addEnvironment('REPORT_BASE_URL', props.reportBaseUrl);
    // Triggers call the `live` alias, so CodeDeploy decides which version runs.
    deliverer?.live.addEventSource(new SqsEventSource(this.queue, { batchSize: 10, reportBatchItemFailures: true }));

    const dispatcher = byJob.get('dispatch-runs');
    if (dispatcher) {
      this.schedule = new Rule(this, 'EveryMinute', {
        description: 'Starts the Knap run dispatcher (its coordinator) every minute',
        schedule: Schedule.rate(Duration.minutes(1)),
        // Two retries; an event older than two minutes is dropped: the next pass catches up.
        targets: [new LambdaFunction(dispatcher.live, { retryAttempts: 2, maxEventAge: Duration.minutes(2) })],
      });
      // A failed or long-throttled coordinator is not run again: the next minute's does the same
      // work, and a retry beside it would only hold one more of the account's few invocations.
      dispatcher.live.configureAsyncInvoke({ retryAttempts: 0, maxEventAge: Duration.minutes(1) });
      // The workers: one invocation per message, never more than the setting at once, whatever is due.
      dispatcher.live.addEventSource(
        new SqsEventSource(this.dispatchQueue, { batchSize: 1, maxConcurrency: props.settings.dispatchMaxConcurrency }),
      );
      this.dispatchQueue.grantSendMessages(dispatcher);
      dispatcher.addEnvironment('DISPATCH_QUEUE_URL', this.dispatchQueue.queueUrl);
      dispatcher.addEnvironment('DISPATCH_WORKERS', String(props.settings.dispatchMaxConcurrency));
    }

    for (const [route, fn] of props.routeFunctions) {
      if (RUN_QUEUEING_ROUTES.includes(route.id)) this.canQueueRuns(fn);
    }
  }

  private canQueueRuns(fn: KnapFunction): void {
    this.queue.grantSendMessages(fn);
    fn.addEnvironment('DELIVERY_QUEUE_URL', this.queue.queueUrl);
  }
}
