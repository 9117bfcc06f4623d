/**
 * A production stage (test/cdk/contexts.ts): pinned to an account and region, protected from
 * deletion, canary deploys, a custom domain with no execute-api endpoint, per-route throttles
 * and reserved concurrency. Shares its synthesis with config.test.ts.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { jobs } from '../../functions/jobs.js';
import { FUNCTIONS, routes } from '../../functions/routes.js';
import { functionLogicalId } from '../../lib/functions.js';
import { PRODUCTION_CONTEXT } from './contexts.js';
import { resourcesOf, SYNTH_TIMEOUT_MS, synthesized } from './synth.js';

let template: Template;
let outdir: string;
beforeAll(async () => {
  ({ template, outdir } = await synthesized({ context: PRODUCTION_CONTEXT }));
}, SYNTH_TIMEOUT_MS);

const functionIds = [...FUNCTIONS.map((fn) => fn.id), ...jobs.map((job) => job.id)];

test('pinned to its account and region, with termination protection', () => {
  const manifest = JSON.parse(readFileSync(join(outdir, 'manifest.json'), 'utf8')) as {
    artifacts: Record<string, { type: string; environment?: string; properties?: { terminationProtection?: boolean } }>;
  };
  const stack = manifest.artifacts.KnapApi!;
  expect(stack.environment).toBe('aws://123456789012/eu-west-1');
  expect(stack.properties?.terminationProtection).toBe(true);
});

test('canary deploys: 10% for 5 minutes, then all, for every function', () => {
  const groups = Object.values(resourcesOf(template, 'AWS::CodeDeploy::DeploymentGroup'));
  expect(groups).toHaveLength(functionIds.length);
  for (const group of groups) {
    expect(group.Properties?.DeploymentConfigName).toBe('CodeDeployDefault.LambdaCanary10Percent5Minutes');
  }
});

test('the custom domain: a DNS-validated certificate, TLS 1.2, the API at its root, an alias record', () => {
  template.hasResourceProperties('AWS::CertificateManager::Certificate', {
    DomainName: 'api.example.com',
    ValidationMethod: 'DNS',
    DomainValidationOptions: [{ DomainName: 'api.example.com', HostedZoneId: 'Z0123456789ABCDEFGHIJ' }],
  });
  const [certificateId] = Object.keys(resourcesOf(template, 'AWS::CertificateManager::Certificate'));
  template.hasResourceProperties('AWS::ApiGatewayV2::DomainName', {
    DomainName: 'api.example.com',
    DomainNameConfigurations: [{ CertificateArn: { Ref: certificateId }, EndpointType: 'REGIONAL', SecurityPolicy: 'TLS_1_2' }],
  });
  const [domainId] = Object.keys(resourcesOf(template, 'AWS::ApiGatewayV2::DomainName'));
  const [apiId] = Object.keys(resourcesOf(template, 'AWS::ApiGatewayV2::Api'));
  const [stageId] = Object.keys(resourcesOf(template, 'AWS::ApiGatewayV2::Stage'));
  template.hasResource('AWS::ApiGatewayV2::ApiMapping', {
    Properties: { ApiId: { Ref: apiId }, DomainName: { Ref: domainId }, Stage: 'prod', ApiMappingKey: Match.absent() },
    DependsOn: Match.arrayWith([stageId]),
  });
  template.hasResourceProperties('AWS::Route53::RecordSet', {
    Name: 'api.example.com.',
    Type: 'A',
    HostedZoneId: 'Z0123456789ABCDEFGHIJ',
    AliasTarget: {
      DNSName: { 'Fn::GetAtt': [domainId, 'RegionalDomainName'] },
      HostedZoneId: { 'Fn::GetAtt': [domainId, 'RegionalHostedZoneId'] },
    },
  });
});

test('with a domain: no execute-api endpoint, the URL output and PUBLIC_BASE_URL are the domain', () => {
  template.hasResourceProperties('AWS::ApiGatewayV2::Api', { Name: 'KnapApi', DisableExecuteApiEndpoint: true });
  template.hasOutput('ApiUrl', { Value: 'https://api.example.com' });
  const functions = resourcesOf(template, 'AWS::Lambda::Function');
  for (const id of functionIds) {
    const variables = functions[functionLogicalId(id)]?.Properties?.Environment.Variables as Record<string, unknown>;
    const namesItsUrl = ['oauth', 'pages'].includes(id);
    expect(variables.PUBLIC_BASE_URL).toBe(namesItsUrl ? 'https://api.example.com' : undefined);
    expect(variables).not.toHaveProperty('DYNAMODB_ENDPOINT');
  }
});

test('route throttles: the defaults capped at a lower stage limit, a route given its own above it', () => {
  const [stage] = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Stage'));
  expect(stage?.Properties?.DefaultRouteSettings).toEqual({ ThrottlingRateLimit: 15, ThrottlingBurstLimit: 30 });
  const settings = stage?.Properties?.RouteSettings as Record<string, unknown>;
  expect(settings['POST /api/oauth/token']).toEqual({ ThrottlingRateLimit: 15, ThrottlingBurstLimit: 30 });
  expect(settings['GET /api/docs']).toEqual({ ThrottlingRateLimit: 10, ThrottlingBurstLimit: 20 });
  expect(settings['GET /api/studio/knap-tools']).toEqual({ ThrottlingRateLimit: 50, ThrottlingBurstLimit: 100 });
  expect(settings['POST /api/studio/knap-tools']).toEqual({ ThrottlingRateLimit: 15, ThrottlingBurstLimit: 30 });
  // Admin routes: adminThrottle as given, a route of its own (routeThrottles) first.
  for (const route of routes.filter((candidate) => candidate.path.startsWith('/api/admin/'))) {
    expect(settings[`${route.method} ${route.path}`]).toEqual(
      route.id === 'admin-audit-events'
        ? { ThrottlingRateLimit: 2, ThrottlingBurstLimit: 4 }
        : { ThrottlingRateLimit: 5, ThrottlingBurstLimit: 10 },
    );
  }
});

test('reserved concurrency: the token function its own, every other function the `*` one', () => {
  const functions = resourcesOf(template, 'AWS::Lambda::Function');
  for (const id of functionIds) {
    expect(functions[functionLogicalId(id)]?.Properties?.ReservedConcurrentExecutions).toBe(id === 'token' ? 5 : 2);
  }
});
