import { Duration } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Rule, RuleTargetInput, Schedule } from 'aws-cdk-lib/aws-events';
import { LambdaFunction } from 'aws-cdk-lib/aws-events-targets';
import { SqsEventSource } from 'aws-cdk-lib/aws-lambda-event-sources';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import { jobs as allJobs, type JobDefinition } from '../functions/jobs.js';
import type { RouteDefinition } from '../functions/routes.js';
import { DUE_SHARDS } from '../shared/domain/runs.js';
import type { KnapSettings } from './config.js';
import { nameLogicalIds, pascalCase, reservedConcurrencyOf } from './functions.js';
import { KnapFunction } from './knap-function.js';
import { LAMBDA_SETTINGS } from './lambda-settings.js';
import { KEY_PREFIX, type TableAccess } from './table-access.js';

/**
 * What each job does with the table (see shared/services/dispatcher.ts and delivery.ts):
 * - dispatch-runs: due Knaps (Query on gsi3, then BatchGetItem of the Knaps), the run
 *   (PutItem), the claim on the Knap (UpdateItem).
 * - deliver-runs: the run and its Knap (GetItem), the organization's webhook endpoints
 *   (Query on gsi3, BatchGetItem), each attempt recorded on the run (UpdateItem); and the
 *   rest of a large meeting report (services/meeting-fan-out.ts): the reporter's Knaps
 *   (Query on gsi1 and gsi2), their runs made (PutItem) or found (GetItem).
 */
export const JOB_TABLE_ACCESS: Readonly<Record<string, TableAccess>> = {
  'dispatch-runs': {
    'dynamodb:Query': ['gsi3'],
    'dynamodb:BatchGetItem': [KEY_PREFIX.knap],
    'dynamodb:PutItem': [KEY_PREFIX.run],
    'dynamodb:UpdateItem': [KEY_PREFIX.knap],
  },
  'deliver-runs': {
    'dynamodb:Query': ['gsi1', 'gsi2', 'gsi3'],
    'dynamodb:GetItem': [KEY_PREFIX.knap, KEY_PREFIX.run],
    'dynamodb:BatchGetItem': [KEY_PREFIX.webhook],
    'dynamodb:PutItem': [KEY_PREFIX.run],
    'dynamodb:UpdateItem': [KEY_PREFIX.run],
  },
};

/** The routes whose functions create runs, or send one again (redelivery), and so use the delivery queue. */
export const RUN_QUEUEING_ROUTES: readonly string[] = ['start-run', 'report-meeting', 'admin-redeliver-run'];

/** Long enough for a delivery to every endpoint of an organization at 10 s each, in parallel, and its bookkeeping. */
const DELIVERER_TIMEOUT = Duration.seconds(LAMBDA_SETTINGS.delivererTimeoutSeconds);
/** A pass must end before the next one starts. */
const DISPATCHER_TIMEOUT = Duration.seconds(55);

/**
 * The dispatcher's work each minute, split by due-index shard: one invocation per shard, each
 * with the constant input `{"shards": [n]}`, so the claim rate grows with the shards (one
 * Lambda claims on the order of 500 runs/s, and each shard is its own index partition).
 * Together they cover every shard exactly once (test/cdk/runs.test.ts).
 */
export const DISPATCH_SHARD_GROUPS: readonly (readonly number[])[] = Array.from({ length: DUE_SHARDS }, (_, shard) => [shard]);
/**
 * The dispatcher's memory: 1,769 MB is one full vCPU. A pass is CPU-bound (about 1.7 ms of
 * CPU per run, bench/dispatch.ts), and the 256 MB of the other functions is about a seventh
 * of a vCPU: ~85 runs/s per shard instead of ~500. Idle passes (16 a minute) cost ~$1.60 a month.
 */
export const DISPATCHER_MEMORY_MB = 1769;
/** EventBridge takes at most five targets per rule: the groups are spread over as many rules as that needs. */
export const TARGETS_PER_RULE = 5;

export interface KnapRunsProps {
  readonly table: ITable;
  /** The delivery queue (the data stack's), with its dead-letter queue. */
  readonly queue: IQueue;
  readonly settings: KnapSettings;
  /** The route functions, so those that create runs (or redeliver them) may queue them. */
  readonly routeFunctions: ReadonlyMap<RouteDefinition, KnapFunction>;
  readonly jobs?: readonly JobDefinition[];
}

/**
 * Knaps that run: the dispatcher every minute, once per shard (EventBridge), the delivery queue with its
 * dead-letter queue (SQS), and the deliverer that drains it.
 */
export class KnapRuns extends Construct {
  readonly queue: IQueue;
  readonly byJob: ReadonlyMap<string, KnapFunction>;
  /** The every-minute rules: together one dispatcher invocation per shard group. */
  readonly schedules: readonly Rule[];

  constructor(scope: Construct, id: string, props: KnapRunsProps) {
    super(scope, id);
    this.queue = props.queue;

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
    // Triggers call the `live` alias, so CodeDeploy decides which version runs.
    deliverer?.live.addEventSource(new SqsEventSource(this.queue, { batchSize: 10, reportBatchItemFailures: true }));

    const dispatcher = byJob.get('dispatch-runs');
    const schedules: Rule[] = [];
    if (dispatcher) {
      for (let start = 0; start < DISPATCH_SHARD_GROUPS.length; start += TARGETS_PER_RULE) {
        const groups = DISPATCH_SHARD_GROUPS.slice(start, start + TARGETS_PER_RULE);
        const first = groups[0]?.[0];
        const last = groups.at(-1)?.at(-1);
        schedules.push(
          new Rule(this, `EveryMinuteShards${first}To${last}`, {
            description: `Starts the Knap run dispatcher, one invocation per shard group, shards ${first}-${last}`,
            schedule: Schedule.rate(Duration.minutes(1)),
            // Two retries; an event older than two minutes is dropped: the next pass catches up.
            targets: groups.map(
              (shards) =>
                new LambdaFunction(dispatcher.live, {
                  event: RuleTargetInput.fromObject({ shards }),
                  retryAttempts: 2,
                  maxEventAge: Duration.minutes(2),
                }),
            ),
          }),
        );
      }
    }
    this.schedules = schedules;

    for (const [route, fn] of props.routeFunctions) {
      if (RUN_QUEUEING_ROUTES.includes(route.id)) this.canQueueRuns(fn);
    }
  }

  private canQueueRuns(fn: KnapFunction): void {
    this.queue.grantSendMessages(fn);
    fn.addEnvironment('DELIVERY_QUEUE_URL', this.queue.queueUrl);
  }
}
