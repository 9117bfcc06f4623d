import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { routes } from '../../functions/routes.js';
import { DEFAULT_SETTINGS, deploymentPreferenceOf, quotaEnvironment, settingsFromContext } from '../../lib/config.js';
import { functionLogicalId } from '../../lib/functions.js';
import { DEFAULT_QUOTAS, quotasFromEnv } from '../../shared/domain/quotas.js';
import { testTmpDir } from '../support/tmp.js';
import { PRODUCTION_CONTEXT } from './contexts.js';
import { resourcesOf, SYNTH_TIMEOUT_MS, synthesized } from './synth.js';

// An App makes its output folder at once (a fresh cdk.out* in the system temp folder unless told where).
const settings = (context: Record<string, unknown>) =>
  settingsFromContext(new App({ context, outdir: join(testTmpDir(), 'settings-app') }).node);

describe('settings from context (cdk.json or -c)', () => {
  test('defaults when nothing is given', () => {
    expect(settings({})).toEqual(DEFAULT_SETTINGS);
    expect(DEFAULT_SETTINGS).toEqual({
      stageName: '$default',
      logLevel: 'INFO',
      defaultRateLimit: 100,
      throttleRateLimit: 100,
      throttleBurstLimit: 200,
      corsAllowedOrigins: [],
      alarmEmail: null,
      dev: true,
      account: null,
      region: null,
      deploymentPreference: null,
      domainName: null,
      certificateArn: null,
      hostedZoneId: null,
      hostedZoneName: null,
      routeThrottles: {
        token: { rateLimit: 20, burstLimit: 40 },
        'revoke-token': { rateLimit: 20, burstLimit: 40 },
        'introspect-token': { rateLimit: 20, burstLimit: 40 },
        'oauth-metadata': { rateLimit: 10, burstLimit: 20 },
        openapi: { rateLimit: 10, burstLimit: 20 },
        docs: { rateLimit: 10, burstLimit: 20 },
        'docs-asset': { rateLimit: 10, burstLimit: 20 },
        console: { rateLimit: 10, burstLimit: 20 },
      },
      adminThrottle: { rateLimit: 20, burstLimit: 40 },
      reservedConcurrency: {},
      dispatchMaxConcurrency: 2,
      tableName: null,
      freshDeployment: false,
      tokenKeysSecretArn: null,
      samLocal: false,
      storedTokensUntil: null,
      adminIssuer: null,
      adminAudience: null,
      adminOrgClaim: null,
      adminMfa: 'optional',
      adminConsoleClientId: null,
      adminAccessTokenMark: null,
      adminRateLimit: null,
      quotas: {},
    });
    expect(deploymentPreferenceOf(DEFAULT_SETTINGS)).toBe('ALL_AT_ONCE');
  });

  test('quotas: each set one replaces its default, as the QUOTA_* variables the functions read', () => {
    const { quotas } = settings({ quotaKnaps: '9000', quotaWebhookEndpoints: '5' });
    expect(quotas).toEqual({ knaps: 9000, endpoints: 5 });
    expect(quotaEnvironment(quotas)).toEqual({ QUOTA_KNAPS: '9000', QUOTA_WEBHOOK_ENDPOINTS: '5' });
    expect(quotasFromEnv(quotaEnvironment(quotas))).toEqual({ ...DEFAULT_QUOTAS, knaps: 9000, endpoints: 5 });
  });

  test('storedTokensUntil: an ISO 8601 time, kept in UTC', () => {
    expect(settings({ storedTokensUntil: '2026-12-25T01:00:00+01:00' }).storedTokensUntil).toBe('2026-12-25T00:00:00.000Z');
    expect(settings({ storedTokensUntil: '2026-12-25' }).storedTokensUntil).toBe('2026-12-25T00:00:00.000Z');
  });

  test('a stage that is not dev: pinned, canary deploys unless told otherwise', () => {
    const production = settings({ dev: 'false', account: '123456789012', region: 'eu-west-1' });
    expect(production).toMatchObject({ dev: false, account: '123456789012', region: 'eu-west-1' });
    expect(deploymentPreferenceOf(production)).toBe('CANARY_10PERCENT_5MINUTES');
    const linear = settings({
      dev: false,
      account: '123456789012',
      region: 'eu-west-1',
      deploymentPreference: 'linear_10percent_every_1minute',
    });
    expect(deploymentPreferenceOf(linear)).toBe('LINEAR_10PERCENT_EVERY_1MINUTE');
  });

  test('route throttles and reserved concurrency: JSON, cdk.json objects or id=value pairs', () => {
    expect(settings({ routeThrottles: 'token=5/10' }).routeThrottles.token).toEqual({ rateLimit: 5, burstLimit: 10 });
    expect(settings({ routeThrottles: '{"docs": {"rateLimit": 1, "burstLimit": 2}}' }).routeThrottles.docs).toEqual({
      rateLimit: 1,
      burstLimit: 2,
    });
    // Given ones replace their defaults only.
    expect(settings({ routeThrottles: { token: { rateLimit: 5, burstLimit: 10 } } }).routeThrottles.openapi).toEqual({
      rateLimit: 10,
      burstLimit: 20,
    });
    expect(settings({ adminThrottle: '5/10' }).adminThrottle).toEqual({ rateLimit: 5, burstLimit: 10 });
    expect(settings({ adminThrottle: ' {"rateLimit": 50, "burstLimit": 100}' }).adminThrottle).toEqual({
      rateLimit: 50,
      burstLimit: 100,
    });
    expect(settings({ adminThrottle: { rateLimit: 1, burstLimit: 1 } }).adminThrottle).toEqual({ rateLimit: 1, burstLimit: 1 });
    expect(settings({ routeThrottles: 'admin-list-runs=3/6' }).routeThrottles['admin-list-runs']).toEqual({
      rateLimit: 3,
      burstLimit: 6,
    });
    expect(settings({ reservedConcurrency: '3' }).reservedConcurrency).toEqual({ '*': 3 });
    expect(settings({ reservedConcurrency: 'token=5, *=1' }).reservedConcurrency).toEqual({ token: 5, '*': 1 });
    expect(settings({ reservedConcurrency: { 'dispatch-runs': 1 } }).reservedConcurrency).toEqual({ 'dispatch-runs': 1 });
  });

  test('a domain with a certificate, or with a hosted zone to make one in', () => {
    expect(
      settings({
        domainName: 'api.example.com',
        certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/0b6f2f5e-1234-4f4e-9c7a-1a2b3c4d5e6f',
      }),
    ).toMatchObject({ domainName: 'api.example.com', hostedZoneId: null });
    expect(
      settings({ domainName: 'api.example.com', hostedZoneId: 'Z0123456789ABCDEFGHIJ', hostedZoneName: 'example.com' }),
    ).toMatchObject({ hostedZoneName: 'example.com' });
  });

  test('`-c` gives strings: numbers, lists and case are parsed', () => {
    expect(
      settings({
        stageName: 'prod',
        logLevel: 'debug',
        defaultRateLimit: '250',
        throttleRateLimit: '20',
        throttleBurstLimit: '40',
        corsAllowedOrigins: 'https://app.example.com, https://admin.example.com',
        alarmEmail: ' oncall@example.com ',
      }),
    ).toEqual({
      ...DEFAULT_SETTINGS,
      stageName: 'prod',
      logLevel: 'DEBUG',
      defaultRateLimit: 250,
      throttleRateLimit: 20,
      throttleBurstLimit: 40,
      corsAllowedOrigins: ['https://app.example.com', 'https://admin.example.com'],
      alarmEmail: 'oncall@example.com',
    });
  });

  test('an empty origin list means no CORS', () => {
    expect(settings({ corsAllowedOrigins: '' }).corsAllowedOrigins).toEqual([]);
    expect(settings({ corsAllowedOrigins: [] }).corsAllowedOrigins).toEqual([]);
  });

  test.each([
    [{ logLevel: 'VERBOSE' }, /logLevel/],
    [{ defaultRateLimit: '0' }, /defaultRateLimit/],
    [{ alarmEmail: 'oncall' }, /alarmEmail/],
    [{ defaultRateLimit: 'lots' }, /defaultRateLimit/],
    [{ throttleRateLimit: 2.5 }, /throttleRateLimit/],
    [{ throttleBurstLimit: '-1' }, /throttleBurstLimit/],
    [{ stageName: 'my stage' }, /stageName/],
    [{ corsAllowedOrigins: 'app.example.com' }, /corsAllowedOrigins/],
    [{ corsAllowedOrigins: 'https://app.example.com/path' }, /corsAllowedOrigins/],
    [{ dev: 'false' }, /pinned to an account and a region/],
    [{ dev: 'false', account: '123456789012' }, /pinned to an account and a region/],
    [{ dev: 'maybe' }, /dev/],
    [{ account: '1234' }, /account/],
    [{ region: 'Europe' }, /region/],
    [{ deploymentPreference: 'CANARY_50PERCENT' }, /deploymentPreference/],
    [{ domainName: 'api.example.com' }, /needs a certificateArn/],
    [{ domainName: 'not a host' }, /domainName/],
    [{ certificateArn: 'arn:aws:acm:eu-west-1:123456789012:certificate/abc' }, /need a domainName/],
    [{ domainName: 'api.example.com', hostedZoneId: 'Z0123456789ABCDEFGHIJ' }, /go together/],
    [
      { domainName: 'api.example.com', hostedZoneId: 'Z0123456789ABCDEFGHIJ', hostedZoneName: 'example.org' },
      /not in the hosted zone/,
    ],
    [{ routeThrottles: 'tokens=5/10' }, /routeThrottles/],
    [{ routeThrottles: 'token=5' }, /routeThrottles\.token\.burstLimit/],
    [{ adminThrottle: '20' }, /adminThrottle/],
    [{ adminThrottle: '0/40' }, /adminThrottle\.rateLimit/],
    [{ adminThrottle: '20/9999' }, /adminThrottle\.burstLimit/],
    [{ adminThrottle: '{"rateLimit": 20' }, /adminThrottle/],
    [{ adminThrottle: { rateLimit: 20 } }, /adminThrottle\.burstLimit/],
    [{ reservedConcurrency: 'token=-1' }, /reservedConcurrency\.token/],
    [{ reservedConcurrency: 'nobody=1' }, /reservedConcurrency/],
    [{ tableName: 'a' }, /tableName/],
    [{ samLocal: 'true', dev: 'false', account: '123456789012', region: 'eu-west-1' }, /samLocal/],
    [{ storedTokensUntil: 'next month' }, /storedTokensUntil/],
    [{ adminIssuer: 'http://example.okta.com' }, /adminIssuer/],
    [{ adminIssuer: 'https://example.okta.com' }, /go together/],
    [{ adminAudience: 'api://knap' }, /go together/],
    [{ adminMfa: 'sometimes' }, /adminMfa/],
    [{ adminAccessTokenMark: 'at+jwt' }, /adminAccessTokenMark/],
    [{ adminRateLimit: '0' }, /adminRateLimit/],
    [{ quotaWebhookEndpoints: '21' }, /quotaWebhookEndpoints/],
    [{ quotaClients: '-1' }, /quotaClients/],
    [{ freshDeployment: 'yes' }, /freshDeployment/],
    [{ tokenKeysSecretArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:keys' }, /tokenKeysSecretArn/],
    [{ reservedConcurrency: 'list-knaps=1' }, /reservedConcurrency/],
    [{ storedTokensUntil: '2026-13-40' }, /storedTokensUntil/],
  ])('refuses %j with a message naming the key', (context, message) => {
    expect(() => settings(context)).toThrow(message);
  });
});

describe('a stack built with context', () => {
  let template: Template;
  beforeAll(async () => {
    // The production context, shared with production.test.ts (one synthesis for both).
    ({ template } = await synthesized({ context: PRODUCTION_CONTEXT }));
  }, SYNTH_TIMEOUT_MS);

  test('the stage name and its throttling', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: 'prod',
      DefaultRouteSettings: { ThrottlingRateLimit: 15, ThrottlingBurstLimit: 30 },
    });
  });

  test('the functions get the log level and the default rate limit', () => {
    for (const route of routes) {
      const fn = resourcesOf(template, 'AWS::Lambda::Function')[functionLogicalId(route.fn)]!;
      expect(fn.Properties?.Environment.Variables).toEqual(
        expect.objectContaining({ POWERTOOLS_LOG_LEVEL: 'DEBUG', DEFAULT_RATE_LIMIT: '250' }),
      );
    }
  });

  test('storedTokensUntil reaches the functions that read tokens, and only those', () => {
    for (const route of routes) {
      const variables = resourcesOf(template, 'AWS::Lambda::Function')[functionLogicalId(route.fn)]!.Properties?.Environment
        .Variables as Record<string, unknown>;
      const readsTokens = 'TOKEN_KEYS_SECRET_ARN' in variables;
      expect(variables.STORED_TOKENS_UNTIL).toBe(readsTokens ? '2026-12-24T00:00:00.000Z' : undefined);
    }
  });

  test('CORS for the given origins only, exposing the rate-limit headers', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: {
        AllowOrigins: ['https://app.example.com'],
        AllowMethods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'],
        AllowHeaders: ['authorization', 'content-type', 'if-match', 'idempotency-key'],
        ExposeHeaders: Match.arrayWith([
          'ratelimit-limit',
          'ratelimit-remaining',
          'ratelimit-reset',
          'retry-after',
          'etag',
          'idempotent-replayed',
        ]),
        MaxAge: 3600,
      },
    });
  });

  test('with a domain, the API URL output is its root, whatever the stage is named (the mapping hides it)', () => {
    template.hasOutput('ApiUrl', { Value: 'https://api.example.com' });
    template.hasResourceProperties('AWS::ApiGatewayV2::ApiMapping', { Stage: 'prod' });
  });
});
