/** The run machinery in the synthesized template: the schedule, the queue, its dead letters, the trigger. */
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { routes } from '../../functions/routes.js';
import { functionLogicalId } from '../../lib/functions.js';
import { DISPATCH_SHARD_GROUPS, DISPATCHER_MEMORY_MB, TARGETS_PER_RULE } from '../../lib/runs.js';
import { DUE_SHARDS } from '../../shared/domain/runs.js';
import { allShards } from '../../shared/services/dispatcher.js';
import { resourcesOf, SYNTH_TIMEOUT_MS, synthesized } from './synth.js';

let template: Template;
let dataTemplate: Template;
beforeAll(async () => {
  ({ template, dataTemplate } = await synthesized());
}, SYNTH_TIMEOUT_MS);

/** The queues are the data stack's (they hold runs on their way). */
const queues = () => Object.entries(resourcesOf(dataTemplate, 'AWS::SQS::Queue'));

test('EventBridge starts the dispatcher (its live alias) every minute once per shard, with retries', () => {
  const rules = Object.values(resourcesOf(template, 'AWS::Events::Rule'));
  const live = { Ref: `${functionLogicalId('dispatch-runs')}Live` };
  const targets = rules.flatMap((rule) => {
    expect(rule.Properties).toMatchObject({ ScheduleExpression: 'rate(1 minute)', State: 'ENABLED' });
    expect(rule.Properties?.Targets.length).toBeLessThanOrEqual(TARGETS_PER_RULE);
    return rule.Properties?.Targets as { Arn: unknown; Input: string; RetryPolicy: unknown }[];
  });
  for (const target of targets) {
    expect(target.Arn).toEqual(live);
    expect(target.RetryPolicy).toEqual({ MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 120 });
  }
  // One invocation per shard each minute: every shard of the due index exactly once.
  const shards = targets.map((target) => JSON.parse(target.Input) as { shards: number[] });
  expect(shards).toHaveLength(DUE_SHARDS);
  expect(shards.flatMap((input) => input.shards).sort((a, b) => a - b)).toEqual(allShards());
  expect(DISPATCH_SHARD_GROUPS).toHaveLength(DUE_SHARDS);
  // Each rule may invoke the live alias, and nothing else may.
  const permissions = Object.values(resourcesOf(template, 'AWS::Lambda::Permission')).filter(
    (permission) => permission.Properties?.Principal === 'events.amazonaws.com',
  );
  expect(permissions).toHaveLength(rules.length);
  for (const permission of permissions) {
    expect(permission.Properties).toMatchObject({ Action: 'lambda:InvokeFunction', FunctionName: live });
  }
  template.hasResourceProperties('AWS::Lambda::Function', {
    Description: Match.stringLikeRegexp('due scheduled Knaps'),
    Timeout: 55,
    // One full vCPU: a pass is CPU-bound.
    MemorySize: DISPATCHER_MEMORY_MB,
  });
  expect(DISPATCHER_MEMORY_MB).toBe(1769);
});

test('the delivery queue: encrypted, TLS only, a dead-letter queue after five receives', () => {
  expect(queues()).toHaveLength(2);
  const dlqId = queues().find(([, queue]) => !queue.Properties?.RedrivePolicy)?.[0];
  const deliveries = queues().find(([, queue]) => queue.Properties?.RedrivePolicy)?.[1];
  expect(deliveries?.Properties).toMatchObject({
    SqsManagedSseEnabled: true,
    VisibilityTimeout: 180,
    RedrivePolicy: { deadLetterTargetArn: { 'Fn::GetAtt': [dlqId, 'Arn'] }, maxReceiveCount: 5 },
  });
  for (const [queueId] of queues()) {
    dataTemplate.hasResourceProperties('AWS::SQS::QueuePolicy', {
      Queues: [{ Ref: queueId }],
      PolicyDocument: {
        Statement: Match.arrayWith([
          Match.objectLike({ Effect: 'Deny', Condition: { Bool: { 'aws:SecureTransport': 'false' } } }),
        ]),
      },
    });
  }
});

test('the deliverer (its live alias) drains the queue in batches, retrying only the runs that failed', () => {
  template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
    FunctionName: {
      'Fn::Join': [
        '',
        [{ 'Fn::Select': [6, { 'Fn::Split': [':', { Ref: `${functionLogicalId('deliver-runs')}Live` }] }] }, ':live'],
      ],
    },
    BatchSize: 10,
    FunctionResponseTypes: ['ReportBatchItemFailures'],
  });
});

test('DELIVERY_QUEUE_URL reaches exactly the functions that make or re-queue runs', () => {
  const withQueue = Object.entries(resourcesOf(template, 'AWS::Lambda::Function'))
    .filter(([, fn]) => fn.Properties?.Environment?.Variables?.DELIVERY_QUEUE_URL)
    .map(([id]) => id)
    .sort();
  const makers = ['start-run', 'report-meeting', 'admin-redeliver-run'];
  const functions = [...new Set(routes.filter((route) => makers.includes(route.id)).map((route) => route.fn))];
  expect(functions.sort()).toEqual(['admin', 'knaps']);
  expect(withQueue).toEqual([...functions, 'dispatch-runs', 'deliver-runs'].map(functionLogicalId).sort());
});
