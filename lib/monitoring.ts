import { Duration } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  Alarm,
  ComparisonOperator,
  Dashboard,
  GraphWidget,
  type IMetric,
  MathExpression,
  Metric,
  TreatMissingData,
} from 'aws-cdk-lib/aws-cloudwatch';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import { type ITable, Operation } from 'aws-cdk-lib/aws-dynamodb';
import { Alias } from 'aws-cdk-lib/aws-kms';
import { Topic } from 'aws-cdk-lib/aws-sns';
import { EmailSubscription } from 'aws-cdk-lib/aws-sns-subscriptions';
import type { IQueue } from 'aws-cdk-lib/aws-sqs';
import { Construct } from 'constructs';
import type { KnapSettings } from './config.js';
import type { KnapFunction } from './knap-function.js';

const FIVE_MINUTES = Duration.minutes(5);
const ONE_MINUTE = Duration.minutes(1);

/**
 * The dispatcher's lag, emitted by the dispatcher itself (Powertools Metrics, EMF) on every
 * pass: seconds between the oldest occurrence it handled and now, 0 when nothing was due.
 */
export const DISPATCHER_LAG_METRIC = {
  namespace: 'KnapApi',
  metricName: 'DispatcherLagSeconds',
  dimensionsMap: { service: 'dispatch-runs' },
} as const;
/** Two five-minute periods whose worst pass ran this late (or reported nothing) page someone. */
export const DISPATCHER_LAG_THRESHOLD_SECONDS = 120;

/** DynamoDB operations the functions use: throttles and system errors are reported per operation. */
const TABLE_OPERATIONS = [
  Operation.GET_ITEM,
  Operation.PUT_ITEM,
  Operation.UPDATE_ITEM,
  Operation.DELETE_ITEM,
  Operation.QUERY,
  Operation.BATCH_GET_ITEM,
  Operation.BATCH_WRITE_ITEM,
];

/**
 * The errors of the function's newest version when called through its `live` alias (Lambda
 * publishes alias calls by `ExecutedVersion` too): during a canary, the new version's errors
 * alone, not diluted by the 90% of calls the old version still takes. Each deploy publishes a
 * version, so the alarm follows it; between deploys it is every call's errors.
 */
export const liveVersionErrors = (fn: KnapFunction): Metric =>
  new Metric({
    namespace: 'AWS/Lambda',
    metricName: 'Errors',
    dimensionsMap: {
      FunctionName: fn.functionName,
      Resource: `${fn.functionName}:${fn.live.aliasName}`,
      ExecutedVersion: fn.currentVersion.version,
    },
    period: ONE_MINUTE,
    statistic: 'Sum',
  });

export interface KnapMonitoringProps {
  readonly settings: KnapSettings;
  /** Every function, by its route or job id. */
  readonly functions: ReadonlyMap<string, KnapFunction>;
  readonly httpApi: HttpApi;
  readonly table: ITable;
  readonly deliveryDeadLetters: IQueue;
}

/**
 * What tells a platform team the API is failing: alarms on every function, the API, the
 * table and the dead-letter queue, all to one SNS topic (e-mailed when `alarmEmail` is set),
 * and one dashboard. Thresholds are in docs/runbook.md with what to do about each alarm.
 */
export class KnapMonitoring extends Construct {
  readonly topic: Topic;
  readonly alarms: Alarm[] = [];
  /** Each function's errors alarm, by function id: what CodeDeploy watches to roll a deploy back. */
  readonly errorAlarms = new Map<string, Alarm>();
  readonly dashboard: Dashboard;

  constructor(scope: Construct, id: string, props: KnapMonitoringProps) {
    super(scope, id);
    this.topic = new Topic(this, 'Alarms', {
      displayName: 'Knap API alarms',
      enforceSSL: true,
      // The AWS managed key: encrypted at rest at no key cost; CloudWatch may publish to it.
      masterKey: Alias.fromAliasName(this, 'SnsKey', 'alias/aws/sns'),
    });
    if (props.settings.alarmEmail) this.topic.addSubscription(new EmailSubscription(props.settings.alarmEmail));

    for (const [functionId, fn] of props.functions) {
      const timeout = fn.timeout?.toMilliseconds() ?? 10_000;
      // One-minute periods: CodeDeploy rolls a canary back on this alarm, and must hear of an error within its 5 minutes.
      const errors = this.alarm(`${functionId}-errors`, liveVersionErrors(fn), {
        threshold: 1,
        description: `${functionId}: the function's newest version failed (an uncaught error or a timeout; handled errors are answers, not failures). Rolls back a deploy in progress`,
      });
      this.errorAlarms.set(functionId, errors);
      this.alarm(`${functionId}-throttles`, fn.metricThrottles({ period: FIVE_MINUTES, statistic: 'Sum' }), {
        threshold: 1,
        description: `${functionId}: invocations throttled (account or reserved concurrency reached)`,
      });
      this.alarm(`${functionId}-duration-p99`, fn.metricDuration({ period: FIVE_MINUTES, statistic: 'p99' }), {
        threshold: Math.round(timeout * 0.8),
        evaluationPeriods: 3,
        description: `${functionId}: p99 duration above 80% of its ${timeout / 1000} s timeout for 15 minutes`,
      });
    }

    const requests = props.httpApi.metricCount({ period: FIVE_MINUTES, statistic: 'Sum' });
    const serverErrors = props.httpApi.metricServerError({ period: FIVE_MINUTES, statistic: 'Sum' });
    this.alarm(
      'api-5xx-rate',
      new MathExpression({
        // A rate only once there is traffic enough to speak of one.
        expression: 'IF(requests >= 20, 100 * errors / requests, 0)',
        usingMetrics: { requests, errors: serverErrors },
        period: FIVE_MINUTES,
        label: '5xx %',
      }),
      { threshold: 1, description: 'API: more than 1% of requests answered 5xx over 5 minutes' },
    );
    this.alarm('api-latency-p99', props.httpApi.metricLatency({ period: FIVE_MINUTES, statistic: 'p99' }), {
      threshold: 2000,
      evaluationPeriods: 3,
      description: 'API: p99 latency above 2 s for 15 minutes',
    });

    this.alarm(
      'table-throttles',
      props.table.metricThrottledRequestsForOperations({ operations: TABLE_OPERATIONS, period: FIVE_MINUTES }),
      {
        threshold: 1,
        description: 'DynamoDB: requests throttled (on-demand scaling behind a sudden peak, or a hot partition)',
      },
    );
    this.alarm(
      'table-system-errors',
      props.table.metricSystemErrorsForOperations({ operations: TABLE_OPERATIONS, period: FIVE_MINUTES }),
      {
        threshold: 1,
        description: 'DynamoDB: internal errors (answered 503 with Retry-After; AWS side)',
      },
    );
    this.alarm(
      'delivery-dead-letters',
      props.deliveryDeadLetters.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES, statistic: 'Maximum' }),
      { threshold: 1, description: 'Runs the deliverer itself failed five times are waiting in the dead-letter queue' },
    );

    const dispatcherLag = new Metric({ ...DISPATCHER_LAG_METRIC, statistic: 'Maximum', period: FIVE_MINUTES });
    this.alarm('dispatcher-lag', dispatcherLag, {
      threshold: DISPATCHER_LAG_THRESHOLD_SECONDS,
      evaluationPeriods: 2,
      // The dispatcher reports on every pass: ten minutes of silence means it is not running.
      treatMissingData: TreatMissingData.BREACHING,
      description: `Dispatcher: scheduled runs started ${DISPATCHER_LAG_THRESHOLD_SECONDS} s or more late, or no pass reported, for 10 minutes`,
    });

    this.dashboard = new Dashboard(this, 'Dashboard', { defaultInterval: Duration.hours(6) });
    const everyFunction = (metric: (fn: KnapFunction) => Metric): IMetric[] =>
      [...props.functions.values()].map((fn) => metric(fn));
    this.dashboard.addWidgets(
      new GraphWidget({ title: 'API requests and 5xx', left: [requests], right: [serverErrors], width: 12 }),
      new GraphWidget({
        title: 'API latency p50 / p99 (ms)',
        left: [
          props.httpApi.metricLatency({ period: FIVE_MINUTES, statistic: 'p50' }),
          props.httpApi.metricLatency({ period: FIVE_MINUTES, statistic: 'p99' }),
        ],
        width: 12,
      }),
      new GraphWidget({
        title: 'Function errors',
        left: everyFunction((fn) => fn.metricErrors({ period: FIVE_MINUTES })),
        width: 12,
      }),
      new GraphWidget({
        title: 'Function throttles',
        left: everyFunction((fn) => fn.metricThrottles({ period: FIVE_MINUTES })),
        width: 12,
      }),
      // One graph each: both sum the same operations, whose metric ids would clash in one graph.
      new GraphWidget({
        title: 'DynamoDB throttled requests',
        left: [props.table.metricThrottledRequestsForOperations({ operations: TABLE_OPERATIONS, period: FIVE_MINUTES })],
        width: 6,
      }),
      new GraphWidget({
        title: 'DynamoDB system errors',
        left: [props.table.metricSystemErrorsForOperations({ operations: TABLE_OPERATIONS, period: FIVE_MINUTES })],
        width: 6,
      }),
      new GraphWidget({
        title: 'Run deliveries: dead letters',
        left: [props.deliveryDeadLetters.metricApproximateNumberOfMessagesVisible({ period: FIVE_MINUTES })],
        width: 12,
      }),
      new GraphWidget({ title: 'Dispatcher lag (s, worst pass)', left: [dispatcherLag], width: 12 }),
    );
  }

  private alarm(
    name: string,
    metric: IMetric,
    options: { threshold: number; description: string; evaluationPeriods?: number; treatMissingData?: TreatMissingData },
  ): Alarm {
    const alarm = new Alarm(this, name, {
      metric,
      threshold: options.threshold,
      evaluationPeriods: options.evaluationPeriods ?? 1,
      comparisonOperator: ComparisonOperator.GREATER_THAN_OR_EQUAL_TO_THRESHOLD,
      // No traffic is not a failure.
      treatMissingData: options.treatMissingData ?? TreatMissingData.NOT_BREACHING,
      alarmDescription: options.description,
    });
    alarm.addAlarmAction(new SnsAction(this.topic));
    alarm.addOkAction(new SnsAction(this.topic));
    this.alarms.push(alarm);
    return alarm;
  }
}
