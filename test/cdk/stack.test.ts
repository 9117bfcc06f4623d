import { Match, type Template } from 'aws-cdk-lib/assertions';
import { jobs } from '../../functions/jobs.js';
import { FUNCTIONS, greedyRouteKey, routes, routesOf } from '../../functions/routes.js';
import { STATEFUL_LOGICAL_IDS } from '../../lib/data.js';
import { functionLogicalId } from '../../lib/functions.js';
import { TABLE_DEFINITION } from '../../local/ensure-table.js';
import { INDEXES, TTL_ATTRIBUTE } from '../../shared/store/table.js';
import { resourcesOf, SYNTH_TIMEOUT_MS, synthesized } from './synth.js';

// The template `npm run synth` writes, synthesized once for all the CDK suites.
let template: Template;
let dataTemplate: Template;
beforeAll(async () => {
  ({ template, dataTemplate } = await synthesized());
}, SYNTH_TIMEOUT_MS);

const ref = (logicalId: string) => ({ Ref: logicalId });
/** A function's `live` alias: `Ref` gives its ARN. */
const liveOf = (functionId: string) => ref(`${functionLogicalId(functionId)}Live`);
/** A value of the data stack, read by the stateless one (a weak reference: Fn::GetStackOutput). */
const fromData = (logicalId: string) => ({
  'Fn::GetStackOutput': expect.objectContaining({ StackName: 'KnapData', OutputName: expect.stringContaining(logicalId) }),
});
const greedyKeys = FUNCTIONS.flatMap((fn) => (fn.greedy ?? []).map(greedyRouteKey));

describe('HTTP API routes, from functions/routes.ts', () => {
  test('one route per route-table entry, and one greedy route per area prefix', () => {
    const routeKeys = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Route')).map((route) => route.Properties?.RouteKey);
    expect([...routeKeys].sort()).toEqual([...routes.map((route) => `${route.method} ${route.path}`), ...greedyKeys].sort());
    expect(greedyKeys.sort()).toEqual([
      'ANY /api/admin/{proxy+}',
      'ANY /api/docs/{proxy+}',
      'ANY /api/oauth/{proxy+}',
      'ANY /api/studio/{proxy+}',
    ]);
    expect(routes.map((route) => `${route.method} ${route.path}`).sort()).toEqual([
      'DELETE /api/admin/clients/{client_id}',
      'DELETE /api/admin/clients/{client_id}/secrets/{secret_id}',
      'DELETE /api/admin/knaps/{uuid}',
      'DELETE /api/admin/webhooks/{endpoint_id}',
      'DELETE /api/studio/knap-tools/{uuid}',
      'GET /.well-known/oauth-authorization-server',
      'GET /api/admin/audit-events',
      'GET /api/admin/clients',
      'GET /api/admin/clients/{client_id}',
      'GET /api/admin/knaps',
      'GET /api/admin/knaps/{uuid}',
      'GET /api/admin/runs',
      'GET /api/admin/runs/{run_id}',
      'GET /api/admin/runs/{run_id}/events',
      'GET /api/admin/webhooks',
      'GET /api/admin/webhooks/{endpoint_id}/attempts',
      'GET /api/docs',
      'GET /api/docs/assets/{file}',
      'GET /api/openapi.json',
      'GET /api/studio/knap-tools',
      'GET /api/studio/knap-tools/{uuid}',
      'GET /api/studio/knap-tools/{uuid}/runs',
      'GET /api/studio/runs/{run_id}',
      'GET /api/studio/runs/{run_id}/events',
      'GET /console',
      'PATCH /api/admin/clients/{client_id}',
      'PATCH /api/admin/knaps/{uuid}',
      'PATCH /api/admin/webhooks/{endpoint_id}',
      'PATCH /api/studio/knap-tools/{uuid}',
      'POST /api/admin/clients',
      'POST /api/admin/clients/{client_id}/secret',
      'POST /api/admin/clients/{client_id}/secrets',
      'POST /api/admin/runs/{run_id}/redeliver',
      'POST /api/admin/webhooks',
      'POST /api/admin/webhooks/{endpoint_id}/recover',
      'POST /api/admin/webhooks/{endpoint_id}/secret',
      'POST /api/admin/webhooks/{endpoint_id}/test',
      'POST /api/oauth/introspect',
      'POST /api/oauth/revoke',
      'POST /api/oauth/token',
      'POST /api/studio/knap-tools',
      'POST /api/studio/knap-tools/{uuid}/runs',
      'POST /api/studio/meeting-transcriptions',
      'POST /api/studio/runs/{run_id}/events',
      'POST /api/studio/schedules/preview',
      'PUT /api/admin/clients/{client_id}/jwks',
      'PUT /api/studio/knap-tools/{uuid}',
    ]);
  });

  test.each(routes.map((route) => [route.id, route] as const))(
    "%s: its route goes to its function's live alias, payload 2.0",
    (_id, route) => {
      const [, routeResource] = Object.entries(resourcesOf(template, 'AWS::ApiGatewayV2::Route')).find(
        ([, resource]) => resource.Properties?.RouteKey === `${route.method} ${route.path}`,
      )!;
      const integrationId = routeResource.Properties?.Target['Fn::Join'][1][1].Ref as string;
      const integration = resourcesOf(template, 'AWS::ApiGatewayV2::Integration')[integrationId];
      expect(integration?.Properties).toEqual(
        expect.objectContaining({
          IntegrationType: 'AWS_PROXY',
          IntegrationUri: liveOf(route.fn),
          PayloadFormatVersion: '2.0',
        }),
      );
    },
  );

  test('each greedy prefix goes to the function of its area', () => {
    const integrations = resourcesOf(template, 'AWS::ApiGatewayV2::Integration');
    for (const fn of FUNCTIONS) {
      for (const prefix of fn.greedy ?? []) {
        const [, route] = Object.entries(resourcesOf(template, 'AWS::ApiGatewayV2::Route')).find(
          ([, resource]) => resource.Properties?.RouteKey === greedyRouteKey(prefix),
        )!;
        const integrationId = route.Properties?.Target['Fn::Join'][1][1].Ref as string;
        expect(integrations[integrationId]?.Properties?.IntegrationUri).toEqual(liveOf(fn.id));
      }
    }
  });

  test('one integration and one API Gateway invoke permission per HTTP function, not per route', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Integration', FUNCTIONS.length);
    const permissions = Object.values(resourcesOf(template, 'AWS::Lambda::Permission')).filter(
      (permission) => permission.Properties?.Principal === 'apigateway.amazonaws.com',
    );
    expect(
      permissions.map((permission) => permission.Properties?.FunctionName).sort((a, b) => a.Ref.localeCompare(b.Ref)),
    ).toEqual(FUNCTIONS.map((fn) => liveOf(fn.id)).sort((a, b) => a.Ref.localeCompare(b.Ref)));
    for (const permission of permissions) {
      // This API only, any stage, method and path.
      expect(permission.Properties?.SourceArn['Fn::Join'][1]).toEqual(
        expect.arrayContaining([{ Ref: expect.stringMatching(/^ApiHttpApi/) }, '/*/*/*']),
      );
    }
  });

  test('the $default stage: auto-deployed, throttled, with JSON access logs kept a month', () => {
    template.resourceCountIs('AWS::ApiGatewayV2::Stage', 1);
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: '$default',
      AutoDeploy: true,
      DefaultRouteSettings: { ThrottlingRateLimit: 100, ThrottlingBurstLimit: 200 },
      AccessLogSettings: {
        DestinationArn: { 'Fn::GetAtt': [Match.stringLikeRegexp('AccessLogs'), 'Arn'] },
        Format: Match.stringLikeRegexp('"requestId":"\\$context.requestId"'),
      },
    });
    const format = JSON.parse(
      Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Stage'))[0]!.Properties?.AccessLogSettings.Format as string,
    ) as Record<string, string>;
    // Access logs never carry headers, so never a credential.
    expect(Object.values(format).join(' ')).not.toMatch(/header|authorization/i);
  });

  test('a throttle on every route: the token, revocation and introspection routes lower, the public documents lowest', () => {
    const [stage] = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Stage'));
    const settings = stage?.Properties?.RouteSettings as Record<
      string,
      { ThrottlingRateLimit: number; ThrottlingBurstLimit: number }
    >;
    expect(Object.keys(settings).sort()).toEqual(
      [...routes.map((route) => `${route.method} ${route.path}`), ...greedyKeys].sort(),
    );
    const limits = (routeKey: string) => [settings[routeKey]?.ThrottlingRateLimit, settings[routeKey]?.ThrottlingBurstLimit];
    expect(limits('POST /api/oauth/token')).toEqual([20, 40]);
    expect(limits('POST /api/oauth/revoke')).toEqual([20, 40]);
    expect(limits('POST /api/oauth/introspect')).toEqual([20, 40]);
    for (const publicRoute of [
      'GET /.well-known/oauth-authorization-server',
      'GET /api/openapi.json',
      'GET /api/docs',
      'GET /api/docs/assets/{file}',
      'GET /console',
    ]) {
      expect(limits(publicRoute)).toEqual([10, 20]);
    }
    expect(limits('GET /api/studio/knap-tools')).toEqual([100, 200]);
    // Admin routes are not metered per client: each has its own bucket (adminThrottle, 20/s, burst 40).
    const adminRoutes = routes.filter((route) => route.path.startsWith('/api/admin/'));
    expect(adminRoutes).toHaveLength(26);
    for (const route of adminRoutes) expect(limits(`${route.method} ${route.path}`)).toEqual([20, 40]);
    expect(limits('ANY /api/admin/{proxy+}')).toEqual([20, 40]);
    expect(limits('ANY /api/studio/{proxy+}')).toEqual([100, 200]);
    // Route settings name route keys: the stage waits for the routes.
    const stageId = Object.keys(resourcesOf(template, 'AWS::ApiGatewayV2::Stage'))[0]!;
    const dependsOn = resourcesOf(template, 'AWS::ApiGatewayV2::Stage')[stageId]?.DependsOn as string[];
    for (const routeId of Object.keys(resourcesOf(template, 'AWS::ApiGatewayV2::Route'))) expect(dependsOn).toContain(routeId);
  });

  test('the API is named after the stack; its execute-api endpoint stays on without a custom domain', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', { Name: 'KnapApi', DisableExecuteApiEndpoint: false });
    template.resourceCountIs('AWS::ApiGatewayV2::DomainName', 0);
  });

  test('no CORS unless origins are given', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', { ProtocolType: 'HTTP', CorsConfiguration: Match.absent() });
  });

  test("outputs: the API URL; the table name is the data stack's", () => {
    const apiId = Object.keys(resourcesOf(template, 'AWS::ApiGatewayV2::Api'))[0]!;
    // No trailing slash: clients append /api/oauth/token.
    template.hasOutput('ApiUrl', {
      Value: { 'Fn::GetAtt': [apiId, 'ApiEndpoint'] },
    });
    dataTemplate.hasOutput('TableName', { Value: ref(STATEFUL_LOGICAL_IDS.table) });
  });

  test("outputs: every function's name", () => {
    for (const id of [...FUNCTIONS.map((fn) => fn.id), ...jobs.map((job) => job.id)]) {
      template.hasOutput(`${functionLogicalId(id)}Name`, { Value: ref(functionLogicalId(id)) });
    }
  });
});

describe('functions', () => {
  test('one Lambda per HTTP function and per job, and no other', () => {
    expect(Object.keys(resourcesOf(template, 'AWS::Lambda::Function')).sort()).toEqual(
      [...FUNCTIONS.map((fn) => fn.id), ...jobs.map((job) => job.id)].map(functionLogicalId).sort(),
    );
    expect(FUNCTIONS.map((fn) => fn.id)).toEqual(['token', 'create-knap', 'oauth', 'knaps', 'admin', 'pages']);
  });

  test.each(FUNCTIONS.map((fn) => [fn.id, fn] as const))(
    '%s: Node.js 22 on arm64, 256 MB, 10 s, ESM handler',
    (_id, definition) => {
      const fn = resourcesOf(template, 'AWS::Lambda::Function')[functionLogicalId(definition.id)]!;
      expect(fn.Properties).toEqual(
        expect.objectContaining({
          Runtime: 'nodejs22.x',
          Architectures: ['arm64'],
          MemorySize: 256,
          Timeout: 10,
          Handler: 'index.handler',
          Description: expect.stringContaining(definition.description),
        }),
      );
    },
  );

  test.each(FUNCTIONS.map((fn) => [fn.id, fn] as const))('%s: exactly the environment its routes read', (_id, definition) => {
    const fn = resourcesOf(template, 'AWS::Lambda::Function')[functionLogicalId(definition.id)]!;
    const served = routesOf(definition.id).map((route) => route.id);
    const serves = (...ids: string[]) => served.some((id) => ids.includes(id));
    // The public documentation routes never touch the table; the run makers (and redelivery)
    // reach the queue; admin functions verify admins' JWTs and never see the token keys.
    const publicOnly = served.every((id) => ['openapi', 'docs', 'docs-asset', 'oauth-metadata', 'console'].includes(id));
    const admin = definition.id === 'admin';
    expect(fn.Properties?.Environment.Variables).toEqual({
      ...(publicOnly ? {} : { TABLE_NAME: fromData(STATEFUL_LOGICAL_IDS.table) }),
      ...(publicOnly || admin ? {} : { TOKEN_KEYS_SECRET_ARN: fromData(STATEFUL_LOGICAL_IDS.tokenKeys) }),
      ...(admin ? { ADMIN_ISSUER: expect.anything(), ADMIN_AUDIENCE: expect.anything(), ADMIN_ORG_CLAIM: 'cognito:groups' } : {}),
      // The console signs in with the admin issuer; the OpenAPI document names its discovery.
      ...(serves('console')
        ? {
            ADMIN_ISSUER: expect.anything(),
            ADMIN_CONSOLE_CLIENT_ID: expect.anything(),
            ADMIN_CONSOLE_SCOPE: 'openid email',
            ADMIN_ORG_CLAIM: 'cognito:groups',
            ADMIN_SIGN_OUT_URL: expect.anything(),
          }
        : {}),
      ...(serves('openapi') ? { ADMIN_ISSUER: expect.anything() } : {}),
      ...(serves('start-run', 'report-meeting', 'admin-redeliver-run', 'admin-recover-webhook')
        ? { DELIVERY_QUEUE_URL: fromData(STATEFUL_LOGICAL_IDS.deliveries) }
        : {}),
      POWERTOOLS_SERVICE_NAME: 'knap-api',
      POWERTOOLS_LOG_LEVEL: 'INFO',
      DYNAMODB_TIMEOUT_MS: '2000',
      DEFAULT_RATE_LIMIT: '100',
      // No NODE_OPTIONS: `--enable-source-maps` would parse the map at every cold start (shared/lambda/mapped-stacks.ts).
      // No DYNAMODB_ENDPOINT: deployed, the SDK's own endpoint is the only one (-c samLocal=true declares it for SAM).
    });
    // DynamoDB gets at most 3 attempts of DYNAMODB_TIMEOUT_MS: they must fit in the function's timeout.
    expect(3 * 2000).toBeLessThan(fn.Properties?.Timeout * 1000);
  });

  test.each(FUNCTIONS.map((fn) => [fn.id] as const))('%s: its own log group, kept one month', (id) => {
    const fn = resourcesOf(template, 'AWS::Lambda::Function')[functionLogicalId(id)]!;
    const logGroupId = fn.Properties?.LoggingConfig.LogGroup.Ref as string;
    expect(resourcesOf(template, 'AWS::Logs::LogGroup')[logGroupId]?.Properties).toEqual({ RetentionInDays: 30 });
  });

  test('active X-Ray tracing on every function, routes and jobs', () => {
    const functions = Object.values(resourcesOf(template, 'AWS::Lambda::Function'));
    expect(functions.length).toBe(FUNCTIONS.length + jobs.length);
    for (const fn of functions) expect(fn.Properties?.TracingConfig).toEqual({ Mode: 'Active' });
  });

  test('log groups: one per function and one for access logs, no other', () => {
    template.resourceCountIs('AWS::Logs::LogGroup', FUNCTIONS.length + jobs.length + 1);
  });
});

describe('the token signing keys', () => {
  test('one generated secret, `current` 64 characters, kept when the stack goes, its ARN an output', () => {
    dataTemplate.resourceCountIs('AWS::SecretsManager::Secret', 1);
    dataTemplate.hasResource('AWS::SecretsManager::Secret', {
      DeletionPolicy: 'Retain',
      Properties: {
        Description: Match.stringLikeRegexp('token signing keys'),
        GenerateSecretString: {
          SecretStringTemplate: '{"previous":""}',
          GenerateStringKey: 'current',
          PasswordLength: 64,
          ExcludePunctuation: true,
        },
      },
    });
    dataTemplate.hasOutput('TokenKeysSecretArn', { Value: ref(STATEFUL_LOGICAL_IDS.tokenKeys) });
    template.resourceCountIs('AWS::SecretsManager::Secret', 0);
  });
});

describe('the table, as shared/store/table.ts and local/ensure-table.ts define it', () => {
  test('keys, GSIs, TTL, point-in-time recovery, on-demand billing', () => {
    dataTemplate.resourceCountIs('AWS::DynamoDB::Table', 1);
    // The same keys and indexes as the table `npm start` creates (local/ensure-table.ts)...
    dataTemplate.hasResourceProperties('AWS::DynamoDB::Table', {
      ...TABLE_DEFINITION,
      TimeToLiveSpecification: { AttributeName: TTL_ATTRIBUTE, Enabled: true },
      PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
      ProvisionedThroughput: Match.absent(),
      TableName: Match.absent(),
    });
    // ...pinned literally too, so a change of the shared constants is a visible change here.
    expect(INDEXES.map((index) => [index.name, index.projection])).toEqual([
      ['gsi1', 'ALL'],
      ['gsi2', 'ALL'],
      ['gsi3', 'KEYS_ONLY'],
    ]);
    expect(TTL_ATTRIBUTE).toBe('expires_at');
  });

  test('survives the stack: retained on delete and on replacement, and protected from DeleteTable', () => {
    dataTemplate.hasResource('AWS::DynamoDB::Table', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({ DeletionProtectionEnabled: true }),
    });
  });
});
