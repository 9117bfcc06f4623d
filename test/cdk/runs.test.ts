/** The run machinery in the synthesized template: the schedule, the queue, its dead letters, the trigger. */
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { routes } from '../../functions/routes.js';
import { DEFAULT_SETTINGS, settingsFromContext } from '../../lib/config.js';
import { STATEFUL_LOGICAL_IDS } from '../../lib/data.js';
import { functionLogicalId } from '../../lib/functions.js';
import { DISPATCHER_MEMORY_MB, DISPATCHER_TIMEOUT } from '../../lib/runs.js';
import { testTmpDir } from '../support/tmp.js';
import { resourcesOf, SYNTH_TIMEOUT_MS, synthesized } from './synth.js';

let template: Template;
let dataTemplate: Template;
beforeAll(async () => {
  ({ template, dataTemplate } = await synthesized());
}, SYNTH_TIMEOUT_MS);

/** The queues are the data stack's (they hold runs on their way). */
const queues = () => Object.entries(resourcesOf(dataTemplate, 'AWS::SQS::Queue'));
/** A value of the data stack, read by the stateless one (a weak reference: Fn::GetStackOutput). */
const fromData = (logicalId: string, attribute = '') => ({
  'Fn::GetStackOutput': expect.objectContaining({
    StackName: 'KnapData',
    OutputName: expect.stringMatching(new RegExp(`^PublishOutput${attribute ? 'FnGetAtt' : 'Ref'}${logicalId}${attribute}`)),
  }),
});
const live = (id: string) => ({ Ref: `${functionLogicalId(id)}Live` });
/** How an event source mapping names a function's live alias. */
const liveInMapping = (id: string) => ({
  'Fn::Join': ['', [{ 'Fn::Select': [6, { 'Fn::Split': [':', live(id)] }] }, ':live']],
});
/** The dispatch queue: the data stack's, pinned (lib/data.ts). */
const dispatchQueueId = (): string => STATEFUL_LOGICAL_IDS.dispatchShares;

test('one EventBridge rule starts the dispatcher (its live alias, the coordinator) every minute, with retries', () => {
  const rules = Object.values(resourcesOf(template, 'AWS::Events::Rule'));
  expect(rules).toHaveLength(1);
  expect(rules[0]?.Properties).toMatchObject({ ScheduleExpression: 'rate(1 minute)', State: 'ENABLED' });
  // A plain Scheduled Event: the handler coordinates (no constant input naming shards).
  expect(rules[0]?.Properties?.Targets).toEqual([
    expect.objectContaining({
      Arn: live('dispatch-runs'),
      RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 120 },
    }),
  ]);
  expect(rules[0]?.Properties?.Targets[0].Input).toBeUndefined();
  // Lambda does not retry a failed coordinator, nor run one that waited a minute: the next minute's does that work.
  template.hasResourceProperties('AWS::Lambda::EventInvokeConfig', {
    FunctionName: { Ref: functionLogicalId('dispatch-runs') },
    // The alias's name, taken from its ARN: the live alias.
    Qualifier: { 'Fn::Select': [7, { 'Fn::Split': [':', live('dispatch-runs')] }] },
    MaximumRetryAttempts: 0,
    MaximumEventAgeInSeconds: 60,
  });
  const permissions = Object.values(resourcesOf(template, 'AWS::Lambda::Permission')).filter(
    (permission) => permission.Properties?.Principal === 'events.amazonaws.com',
  );
  expect(permissions).toHaveLength(1);
  expect(permissions[0]?.Properties).toMatchObject({ Action: 'lambda:InvokeFunction', FunctionName: live('dispatch-runs') });
  template.hasResourceProperties('AWS::Lambda::Function', {
    Description: Match.stringLikeRegexp('due scheduled Knaps'),
    Timeout: 55,
    // One full vCPU: a pass is CPU-bound.
    MemorySize: DISPATCHER_MEMORY_MB,
  });
  expect(DISPATCHER_MEMORY_MB).toBe(1769);
});

test('the dispatch queue: the workers, one message each, at most dispatchMaxConcurrency at once', () => {
  const id = dispatchQueueId();
  expect(id).toBeDefined();
  template.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
    FunctionName: liveInMapping('dispatch-runs'),
    EventSourceArn: {
      'Fn::GetStackOutput': Match.objectLike({
        StackName: 'KnapData',
        OutputName: Match.stringLikeRegexp(`^PublishOutputFnGetAtt${id}Arn`),
      }),
    },
    BatchSize: 1,
    ScalingConfig: { MaximumConcurrency: DEFAULT_SETTINGS.dispatchMaxConcurrency },
  });
  expect(DEFAULT_SETTINGS.dispatchMaxConcurrency).toBe(2);
  const queue = resourcesOf(dataTemplate, 'AWS::SQS::Queue')[id]!;
  // Lambda needs the visibility timeout at least the function's; a message seen again is stale and dropped.
  expect(queue.Properties?.VisibilityTimeout).toBeGreaterThan(DISPATCHER_TIMEOUT.toSeconds());
  expect(queue.Properties).toMatchObject({ SqsManagedSseEnabled: true, MessageRetentionPeriod: 60 });
  expect(queue.Properties?.RedrivePolicy).toBeUndefined();
  // The dispatcher knows where to send and how many workers it may count on.
  const variables = resourcesOf(template, 'AWS::Lambda::Function')[functionLogicalId('dispatch-runs')]?.Properties?.Environment
    ?.Variables;
  expect(variables).toMatchObject({ DISPATCH_QUEUE_URL: fromData(id), DISPATCH_WORKERS: '2' });
  // Only the dispatcher sends to it or reads it.
  const policies = Object.values(resourcesOf(template, 'AWS::IAM::Policy')).filter((policy) =>
    JSON.stringify(policy.Properties?.PolicyDocument).includes(`FnGetAtt${id}Arn`),
  );
  const role = resourcesOf(template, 'AWS::Lambda::Function')[functionLogicalId('dispatch-runs')]?.Properties?.Role;
  expect(policies.map((policy) => policy.Properties?.Roles)).toEqual([[{ Ref: role['Fn::GetAtt'][0] }]]);
});

test("dispatchMaxConcurrency: a whole number from 2 (Lambda's minimum for an SQS event source) to 1,000", () => {
  const settings = (context: Record<string, unknown>) =>
    settingsFromContext(new App({ context, outdir: join(testTmpDir(), 'runs-settings-app') }).node);
  expect(settings({}).dispatchMaxConcurrency).toBe(2);
  expect(settings({ dispatchMaxConcurrency: '16' }).dispatchMaxConcurrency).toBe(16);
  for (const bad of [1, 0, 1_001, 2.5, 'many']) {
    expect(() => settings({ dispatchMaxConcurrency: bad })).toThrow(/"dispatchMaxConcurrency".*from 2 to 1000/);
  }
});

test(
  "dispatchMaxConcurrency sets the event source and the coordinator's count of workers",
  async () => {
    const { template: other } = await synthesized({ bundle: false, nag: false, context: { dispatchMaxConcurrency: 5 } });
    other.hasResourceProperties('AWS::Lambda::EventSourceMapping', {
      FunctionName: liveInMapping('dispatch-runs'),
      ScalingConfig: { MaximumConcurrency: 5 },
    });
    expect(
      resourcesOf(other, 'AWS::Lambda::Function')[functionLogicalId('dispatch-runs')]?.Properties?.Environment?.Variables
        .DISPATCH_WORKERS,
    ).toBe('5');
  },
  SYNTH_TIMEOUT_MS,
);

test('the delivery queue: encrypted, TLS only, a dead-letter queue after five receives', () => {
  expect(queues()).toHaveLength(3);
  const dlqId = queues().find(([id, queue]) => !queue.Properties?.RedrivePolicy && id !== dispatchQueueId())?.[0];
  expect(dlqId).toBe(STATEFUL_LOGICAL_IDS.deliveryDeadLetters);
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
    FunctionName: liveInMapping('deliver-runs'),
    BatchSize: 10,
    FunctionResponseTypes: ['ReportBatchItemFailures'],
  });
});

test('DELIVERY_QUEUE_URL reaches exactly the functions that make or re-queue runs', () => {
  const withQueue = Object.entries(resourcesOf(template, 'AWS::Lambda::Function'))
    .filter(([, fn]) => fn.Properties?.Environment?.Variables?.DELIVERY_QUEUE_URL)
    .map(([id]) => id)
    .sort();
  const makers = ['start-run', 'report-meeting', 'admin-redeliver-run', 'admin-recover-webhook'];
  const functions = [...new Set(routes.filter((route) => makers.includes(route.id)).map((route) => route.fn))];
  expect(functions.sort()).toEqual(['admin', 'knaps']);
  expect(withQueue).toEqual([...functions, 'dispatch-runs', 'deliver-runs'].map(functionLogicalId).sort());
});
