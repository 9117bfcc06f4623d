import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { routes } from '../../functions/routes.js';
import { DEFAULT_SETTINGS, settingsFromContext } from '../../lib/config.js';
import { functionLogicalId } from '../../lib/functions.js';
import { testTmpDir } from '../support/tmp.js';
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
    });
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
  ])('refuses %j with a message naming the key', (context, message) => {
    expect(() => settings(context)).toThrow(message);
  });
});

describe('a stack built with context', () => {
  let template: Template;
  beforeAll(async () => {
    ({ template } = await synthesized({
      context: {
        stageName: 'prod',
        logLevel: 'debug',
        defaultRateLimit: '250',
        throttleRateLimit: '20',
        throttleBurstLimit: '40',
        corsAllowedOrigins: 'https://app.example.com',
      },
    }));
  }, SYNTH_TIMEOUT_MS);

  test('the stage name and its throttling', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Stage', {
      StageName: 'prod',
      DefaultRouteSettings: { ThrottlingRateLimit: 20, ThrottlingBurstLimit: 40 },
    });
  });

  test('the functions get the log level and the default rate limit', () => {
    for (const route of routes) {
      const fn = resourcesOf(template, 'AWS::Lambda::Function')[functionLogicalId(route.id)]!;
      expect(fn.Properties?.Environment.Variables).toEqual(
        expect.objectContaining({ POWERTOOLS_LOG_LEVEL: 'DEBUG', DEFAULT_RATE_LIMIT: '250' }),
      );
    }
  });

  test('CORS for the given origins only, exposing the rate-limit headers', () => {
    template.hasResourceProperties('AWS::ApiGatewayV2::Api', {
      CorsConfiguration: {
        AllowOrigins: ['https://app.example.com'],
        AllowMethods: ['GET', 'POST', 'PATCH', 'DELETE', 'OPTIONS'],
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

  test('the API URL output includes a named stage', () => {
    template.hasOutput('ApiUrl', { Value: { 'Fn::Join': ['', Match.arrayWith(['/prod'])] } });
  });
});
