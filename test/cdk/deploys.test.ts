/** Safe deploys: every function behind a `live` alias that CodeDeploy moves, rolling back on its errors alarm. */
import type { Template } from 'aws-cdk-lib/assertions';
import { jobs } from '../../functions/jobs.js';
import { FUNCTIONS } from '../../functions/routes.js';
import { functionLogicalId } from '../../lib/functions.js';
import { resourcesOf, SYNTH_TIMEOUT_MS, synthesized } from './synth.js';

let template: Template;
beforeAll(async () => {
  ({ template } = await synthesized());
}, SYNTH_TIMEOUT_MS);

const functionIds = [...FUNCTIONS.map((fn) => fn.id), ...jobs.map((job) => job.id)];

/**
 * The alarm on the Errors of the function's newest version, called through its live alias, by
 * logical id: during a canary, the new version's errors alone (not diluted by the old one's).
 */
const errorsAlarmOf = (functionId: string, versionId: string): string => {
  const found = Object.entries(resourcesOf(template, 'AWS::CloudWatch::Alarm')).filter(
    ([, alarm]) =>
      alarm.Properties?.MetricName === 'Errors' &&
      JSON.stringify(alarm.Properties?.Dimensions).includes(
        JSON.stringify({ Name: 'FunctionName', Value: { Ref: functionLogicalId(functionId) } }),
      ),
  );
  expect(found).toHaveLength(1);
  const [id, alarm] = found[0]!;
  expect(alarm.Properties?.Dimensions).toEqual([
    { Name: 'ExecutedVersion', Value: { 'Fn::GetAtt': [versionId, 'Version'] } },
    { Name: 'FunctionName', Value: { Ref: functionLogicalId(functionId) } },
    { Name: 'Resource', Value: { 'Fn::Join': ['', [{ Ref: functionLogicalId(functionId) }, ':live']] } },
  ]);
  return id;
};

test.each(functionIds.map((id) => [id] as const))('%s: a version behind the live alias, which CodeDeploy moves', (functionId) => {
  const aliasId = `${functionLogicalId(functionId)}Live`;
  const alias = resourcesOf(template, 'AWS::Lambda::Alias')[aliasId]!;
  expect(alias.Properties).toEqual({
    FunctionName: { Ref: functionLogicalId(functionId) },
    FunctionVersion: { 'Fn::GetAtt': [expect.stringMatching(/CurrentVersion/), 'Version'] },
    Name: 'live',
  });
  const version = resourcesOf(template, 'AWS::Lambda::Version')[alias.Properties?.FunctionVersion['Fn::GetAtt'][0]]!;
  expect(version.Properties?.FunctionName).toEqual({ Ref: functionLogicalId(functionId) });
  // Old versions stay: each is a target for a manual rollback (docs/deploy.md).
  expect(version.DeletionPolicy).toBe('Retain');

  const update = (alias as { UpdatePolicy?: { CodeDeployLambdaAliasUpdate?: Record<string, { Ref: string }> } }).UpdatePolicy
    ?.CodeDeployLambdaAliasUpdate;
  const groupId = update?.DeploymentGroupName?.Ref as string;
  const group = resourcesOf(template, 'AWS::CodeDeploy::DeploymentGroup')[groupId]!;
  expect(group.Properties).toMatchObject({
    ApplicationName: update?.ApplicationName,
    // A dev stage (the default) deploys all at once; see production.test.ts for the canary.
    DeploymentConfigName: 'CodeDeployDefault.LambdaAllAtOnce',
    DeploymentStyle: { DeploymentOption: 'WITH_TRAFFIC_CONTROL', DeploymentType: 'BLUE_GREEN' },
    AlarmConfiguration: {
      Enabled: true,
      Alarms: [{ Name: { Ref: errorsAlarmOf(functionId, alias.Properties?.FunctionVersion['Fn::GetAtt'][0]) } }],
    },
    AutoRollbackConfiguration: {
      Enabled: true,
      Events: ['DEPLOYMENT_FAILURE', 'DEPLOYMENT_STOP_ON_REQUEST', 'DEPLOYMENT_STOP_ON_ALARM'],
    },
  });
});

test('one CodeDeploy application and one service role for every deployment group', () => {
  template.resourceCountIs('AWS::CodeDeploy::Application', 1);
  template.resourceCountIs('AWS::CodeDeploy::DeploymentGroup', functionIds.length);
  template.resourceCountIs('AWS::Lambda::Alias', functionIds.length);
  const groups = Object.values(resourcesOf(template, 'AWS::CodeDeploy::DeploymentGroup'));
  expect(new Set(groups.map((group) => JSON.stringify(group.Properties?.ServiceRoleArn))).size).toBe(1);
  template.hasResourceProperties('AWS::CodeDeploy::Application', { ComputePlatform: 'Lambda' });
  const [applicationId] = Object.keys(resourcesOf(template, 'AWS::CodeDeploy::Application'));
  template.hasOutput('DeploymentApplicationName', { Value: { Ref: applicationId } });
});

test('nothing calls a function but through its alias: no trigger names the bare function', () => {
  const bare = new Set(functionIds.map((id) => functionLogicalId(id)));
  for (const permission of Object.values(resourcesOf(template, 'AWS::Lambda::Permission'))) {
    const target = permission.Properties?.FunctionName as { Ref?: string; 'Fn::GetAtt'?: string[] };
    expect(bare.has(target.Ref ?? '') || bare.has(target['Fn::GetAtt']?.[0] ?? '')).toBe(false);
  }
  for (const integration of Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Integration'))) {
    expect(integration.Properties?.IntegrationUri.Ref).toMatch(/FunctionLive$/);
  }
});
