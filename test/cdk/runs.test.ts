/** The run machinery in the synthesized template: the schedule, the queue, its dead letters, the trigger. */
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { routes } from '../../functions/routes.js';
import { functionLogicalId } from '../../lib/functions.js';
import { resourcesOf, SYNTH_TIMEOUT_MS, synthesized } from './synth.js';

let template: Template;
beforeAll(async () => {
  ({ template } = await synthesized());
}, SYNTH_TIMEOUT_MS);

const queues = () => Object.entries(resourcesOf(template, 'AWS::SQS::Queue'));

test('an EventBridge rule starts the dispatcher (its live alias) every minute, with retries', () => {
  template.hasResourceProperties('AWS::Events::Rule', {
    ScheduleExpression: 'rate(1 minute)',
    State: 'ENABLED',
    Targets: [
      Match.objectLike({
        Arn: { Ref: `${functionLogicalId('dispatch-runs')}Live` },
        RetryPolicy: { MaximumRetryAttempts: 2, MaximumEventAgeInSeconds: 120 },
      }),
    ],
  });
  template.hasResourceProperties('AWS::Lambda::Function', {
    Description: Match.stringLikeRegexp('due scheduled Knaps'),
    Timeout: 55,
  });
  template.hasResourceProperties('AWS::Lambda::Permission', {
    Action: 'lambda:InvokeFunction',
    Principal: 'events.amazonaws.com',
    FunctionName: { Ref: `${functionLogicalId('dispatch-runs')}Live` },
  });
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
    template.hasResourceProperties('AWS::SQS::QueuePolicy', {
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
  expect(withQueue).toEqual(['start-run', 'report-meeting', 'dispatch-runs', 'deliver-runs'].map(functionLogicalId).sort());
  expect(routes.some((route) => route.id === 'start-run')).toBe(true);
});
