/** What pages a platform team: the alarms, where they go, and the dashboard. */
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { jobs } from '../../functions/jobs.js';
import { FUNCTIONS } from '../../functions/routes.js';
import { functionLogicalId } from '../../lib/functions.js';
import { resourcesOf, SYNTH_TIMEOUT_MS, synthesized } from './synth.js';

let template: Template;
let withEmail: Template;
beforeAll(async () => {
  ({ template } = await synthesized());
  ({ template: withEmail } = await synthesized({ context: { alarmEmail: 'oncall@example.com' } }));
}, SYNTH_TIMEOUT_MS);

const alarms = (of = template) => Object.values(resourcesOf(of, 'AWS::CloudWatch::Alarm'));
const functionIds = [...FUNCTIONS.map((fn) => fn.id), ...jobs.map((job) => job.id)];

test('every function: errors, throttles and p99 duration (80% of its timeout) alarms', () => {
  for (const id of functionIds) {
    const ofFunction = alarms().filter((alarm) =>
      JSON.stringify(alarm.Properties?.Dimensions ?? []).includes(`"Ref":"${functionLogicalId(id)}"`),
    );
    expect(ofFunction.map((alarm) => alarm.Properties?.MetricName ?? alarm.Properties?.ExtendedStatistic).sort()).toEqual(
      ['Duration', 'Errors', 'Throttles'].sort(),
    );
    const timeout = resourcesOf(template, 'AWS::Lambda::Function')[functionLogicalId(id)]?.Properties?.Timeout as number;
    const duration = ofFunction.find((alarm) => alarm.Properties?.MetricName === 'Duration');
    expect(duration?.Properties).toMatchObject({ ExtendedStatistic: 'p99', Threshold: timeout * 800, EvaluationPeriods: 3 });
    // Errors by the minute: CodeDeploy rolls a 5-minute canary back on this alarm.
    const errors = ofFunction.find((alarm) => alarm.Properties?.MetricName === 'Errors');
    expect(errors?.Properties).toMatchObject({ Statistic: 'Sum', Period: 60, Threshold: 1, EvaluationPeriods: 1 });
  }
});

test('the API 5xx rate and p99 latency, DynamoDB throttles and system errors, and the dead letters', () => {
  template.hasResourceProperties('AWS::CloudWatch::Alarm', {
    Metrics: Match.arrayWith([Match.objectLike({ Expression: 'IF(requests >= 20, 100 * errors / requests, 0)' })]),
    Threshold: 1,
  });
  template.hasResourceProperties('AWS::CloudWatch::Alarm', {
    Namespace: 'AWS/ApiGateway',
    MetricName: 'Latency',
    ExtendedStatistic: 'p99',
    Threshold: 2000,
  });
  const described = alarms().map((alarm) => String(alarm.Properties?.AlarmDescription));
  expect(described.filter((text) => text.startsWith('DynamoDB: requests throttled'))).toHaveLength(1);
  expect(described.filter((text) => text.startsWith('DynamoDB: internal errors'))).toHaveLength(1);
  template.hasResourceProperties('AWS::CloudWatch::Alarm', {
    Namespace: 'AWS/SQS',
    MetricName: 'ApproximateNumberOfMessagesVisible',
    Threshold: 1,
  });
  expect(alarms()).toHaveLength(functionIds.length * 3 + 6);
});

test('the dispatcher lag: its own EMF metric, and silence counts as lag', () => {
  template.hasResourceProperties('AWS::CloudWatch::Alarm', {
    Namespace: 'KnapApi',
    MetricName: 'DispatcherLagSeconds',
    Dimensions: [{ Name: 'service', Value: 'dispatch-runs' }],
    Statistic: 'Maximum',
    Period: 300,
    EvaluationPeriods: 2,
    Threshold: 120,
    TreatMissingData: 'breaching',
  });
});

test('every alarm notifies the topic when it fires and when it clears; no traffic is not a failure', () => {
  const [topicId] = Object.keys(resourcesOf(template, 'AWS::SNS::Topic')) as [string];
  for (const alarm of alarms()) {
    expect(alarm.Properties?.AlarmActions).toEqual([{ Ref: topicId }]);
    expect(alarm.Properties?.OKActions).toEqual([{ Ref: topicId }]);
    const reportsEveryPass = alarm.Properties?.MetricName === 'DispatcherLagSeconds';
    expect(alarm.Properties?.TreatMissingData).toBe(reportsEveryPass ? 'breaching' : 'notBreaching');
    expect(String(alarm.Properties?.AlarmDescription).length).toBeGreaterThan(20);
  }
  template.hasResourceProperties('AWS::SNS::Topic', { KmsMasterKeyId: Match.anyValue() });
  template.hasOutput('AlarmTopicArn', { Value: { Ref: topicId } });
});

test('alarmEmail subscribes an address to the topic; without it, nobody is subscribed', () => {
  template.resourceCountIs('AWS::SNS::Subscription', 0);
  withEmail.hasResourceProperties('AWS::SNS::Subscription', { Protocol: 'email', Endpoint: 'oncall@example.com' });
});

test('one dashboard', () => {
  template.resourceCountIs('AWS::CloudWatch::Dashboard', 1);
});
