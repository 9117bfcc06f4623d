/**
 * Organization admins' identity, deployed (lib/admin-identity.ts): the stack's Cognito user pool
 * and the console's app client, or, with adminIssuer, a team's own issuer and no user pool.
 */
import type { Template } from 'aws-cdk-lib/assertions';
import { routes } from '../../functions/routes.js';
import { routeThrottleOf } from '../../lib/api.js';
import { DEFAULT_SETTINGS } from '../../lib/config.js';
import { functionLogicalId, isAdminRoute } from '../../lib/functions.js';
import { resourcesOf, SYNTH_TIMEOUT_MS, type Synthesized, synthesized } from './synth.js';

const ADMIN_ROUTES = routes.filter(isAdminRoute);
const OTHER_ROUTES = routes.filter((route) => !isAdminRoute(route));
const ADMIN_VARIABLES = ['ADMIN_ISSUER', 'ADMIN_AUDIENCE', 'ADMIN_ORG_CLAIM', 'ADMIN_ACCESS_TOKEN_MARK', 'ADMIN_RATE_LIMIT'];

const variablesOf = (template: Template, routeId: string): Record<string, unknown> =>
  resourcesOf(template, 'AWS::Lambda::Function')[functionLogicalId(routeId)]?.Properties?.Environment.Variables ?? {};

const onlyOfType = (template: Template, type: string): string => {
  const ids = Object.keys(resourcesOf(template, type));
  expect(ids).toHaveLength(1);
  return ids[0]!;
};

/** The admin routes exist, each to its own function, with their own throttle; only admin functions get ADMIN_*. */
const adminRoutesOf = (template: Template) => {
  const byKey = new Map(
    Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Route')).map((route) => [route.Properties?.RouteKey, route]),
  );
  const [stage] = Object.values(resourcesOf(template, 'AWS::ApiGatewayV2::Stage'));
  const settings = stage?.Properties?.RouteSettings as Record<string, unknown>;
  for (const route of ADMIN_ROUTES) {
    const routeKey = `${route.method} ${route.path}`;
    expect(byKey.get(routeKey)?.Properties?.AuthorizationType).toBe('NONE');
    expect(settings[routeKey]).toEqual({ ThrottlingRateLimit: 20, ThrottlingBurstLimit: 40 });
    expect(variablesOf(template, route.fn)).not.toHaveProperty('TOKEN_KEYS_SECRET_ARN');
  }
  for (const route of OTHER_ROUTES) {
    // Only admin functions can verify an admin token (it takes the audience too); the console is
    // told where to sign in, and the OpenAPI document names the issuer's discovery.
    const told = routes
      .filter((other) => other.fn === route.fn)
      .flatMap((other) => ({ console: ['ADMIN_ISSUER', 'ADMIN_ORG_CLAIM'], openapi: ['ADMIN_ISSUER'] })[other.id] ?? []);
    for (const name of ADMIN_VARIABLES.filter((name) => !told.includes(name))) {
      expect(variablesOf(template, route.fn)).not.toHaveProperty(name);
    }
  }
};

test('the twenty-six admin routes: GET/POST/PUT/PATCH/DELETE under /api/admin/', () => {
  expect(ADMIN_ROUTES.map((route) => route.id).sort()).toEqual([
    'admin-add-secret',
    'admin-add-webhook',
    'admin-audit-events',
    'admin-create-client',
    'admin-delete-knap',
    'admin-get-client',
    'admin-get-knap',
    'admin-get-run',
    'admin-list-clients',
    'admin-list-knaps',
    'admin-list-run-events',
    'admin-list-runs',
    'admin-list-webhook-attempts',
    'admin-list-webhooks',
    'admin-recover-webhook',
    'admin-redeliver-run',
    'admin-regenerate-secret',
    'admin-remove-secret',
    'admin-remove-webhook',
    'admin-revoke-client',
    'admin-rotate-webhook-secret',
    'admin-set-jwks',
    'admin-test-webhook',
    'admin-update-client',
    'admin-update-knap',
    'admin-update-webhook',
  ]);
});

test('admin throttle: its own setting, capped at a lower stage by default, as given when set, a route of its own first', () => {
  const route = ADMIN_ROUTES[0]!;
  expect(routeThrottleOf(DEFAULT_SETTINGS, route)).toEqual({ rateLimit: 20, burstLimit: 40 });
  const lowStage = { ...DEFAULT_SETTINGS, throttleRateLimit: 15, throttleBurstLimit: 30 };
  expect(routeThrottleOf(lowStage, route)).toEqual({ rateLimit: 15, burstLimit: 30 });
  expect(routeThrottleOf({ ...lowStage, adminThrottle: { rateLimit: 50, burstLimit: 60 } }, route)).toEqual({
    rateLimit: 50,
    burstLimit: 60,
  });
  const own = { ...DEFAULT_SETTINGS.routeThrottles, [route.id]: { rateLimit: 2, burstLimit: 4 } };
  expect(routeThrottleOf({ ...DEFAULT_SETTINGS, routeThrottles: own }, route)).toEqual({ rateLimit: 2, burstLimit: 4 });
  // Not an admin route: the stage's, as before.
  expect(routeThrottleOf(DEFAULT_SETTINGS, OTHER_ROUTES.find((other) => other.id === 'list-knaps')!)).toEqual({
    rateLimit: 100,
    burstLimit: 200,
  });
});

describe('by default: a Cognito user pool made by the data stack, its app client by the API stack', () => {
  let template: Template;
  let dataTemplate: Template;
  beforeAll(async () => {
    ({ template, dataTemplate } = await synthesized());
  }, SYNTH_TIMEOUT_MS);

  test("every admin function verifies tokens of the stack's user pool, for the console's app client", () => {
    const poolId = onlyOfType(dataTemplate, 'AWS::Cognito::UserPool');
    const clientId = onlyOfType(template, 'AWS::Cognito::UserPoolClient');
    expect(template.toJSON().Resources[clientId].Properties.UserPoolId).toEqual({
      'Fn::GetStackOutput': expect.objectContaining({ StackName: 'KnapData', OutputName: expect.stringContaining(poolId) }),
    });
    for (const route of ADMIN_ROUTES) {
      const variables = variablesOf(template, route.fn);
      expect(variables.ADMIN_ISSUER).toEqual({
        'Fn::Join': [
          '',
          [
            'https://cognito-idp.',
            { Ref: 'AWS::Region' },
            '.amazonaws.com/',
            { 'Fn::GetStackOutput': expect.objectContaining({ OutputName: expect.stringContaining(poolId) }) },
          ],
        ],
      });
      expect(variables.ADMIN_AUDIENCE).toEqual({ Ref: clientId });
      expect(variables.ADMIN_ORG_CLAIM).toBe('cognito:groups');
    }
  });

  test('the admin routes, their throttle, and no admin variable on any other function', () => {
    adminRoutesOf(template);
  });

  test("the console's callback and sign-out URL: the API's own URL + /console", () => {
    const apiId = onlyOfType(template, 'AWS::ApiGatewayV2::Api');
    const [client] = Object.values(resourcesOf(template, 'AWS::Cognito::UserPoolClient'));
    const consoleUrl = { 'Fn::Join': ['', [{ 'Fn::GetAtt': [apiId, 'ApiEndpoint'] }, '/console']] };
    expect(client?.Properties?.CallbackURLs).toEqual([consoleUrl]);
    expect(client?.Properties?.LogoutURLs).toEqual([consoleUrl]);
  });

  test('e-mail sign-in, no self sign-up, optional app MFA, strong passwords, kept when the stack goes', () => {
    template.resourceCountIs('AWS::Cognito::UserPool', 0);
    const pools = resourcesOf(dataTemplate, 'AWS::Cognito::UserPool');
    expect(Object.keys(pools)).toHaveLength(1);
    const [pool] = Object.values(pools);
    expect(pool?.DeletionPolicy).toBe('Retain');
    expect(pool?.Properties).toMatchObject({
      UsernameAttributes: ['email'],
      AdminCreateUserConfig: { AllowAdminCreateUserOnly: true },
      MfaConfiguration: 'OPTIONAL',
      EnabledMfas: ['SOFTWARE_TOKEN_MFA'],
      Policies: { PasswordPolicy: expect.objectContaining({ MinimumLength: 12, RequireSymbols: true }) },
      AccountRecoverySetting: { RecoveryMechanisms: [{ Name: 'verified_email', Priority: 1 }] },
    });
  });

  test("the console's app client: public (no secret), authorization code only (PKCE: a public client has nothing else), back to <api>/console, 15-minute tokens", () => {
    const clients = resourcesOf(template, 'AWS::Cognito::UserPoolClient');
    expect(Object.keys(clients)).toHaveLength(1);
    const [client] = Object.values(clients);
    expect(client?.Properties).toMatchObject({
      ClientName: 'knap-console',
      GenerateSecret: false,
      AllowedOAuthFlows: ['code'],
      AllowedOAuthFlowsUserPoolClient: true,
      AllowedOAuthScopes: ['openid', 'email'],
      SupportedIdentityProviders: ['COGNITO'],
      AccessTokenValidity: 15,
      IdTokenValidity: 15,
      TokenValidityUnits: expect.objectContaining({ AccessToken: 'minutes', IdToken: 'minutes' }),
      PreventUserExistenceErrors: 'ENABLED',
    });
    const callbacks = JSON.stringify(client?.Properties?.CallbackURLs);
    expect(callbacks).toContain('/console');
    expect(JSON.stringify(client?.Properties?.LogoutURLs)).toBe(callbacks);
    expect(client?.Properties?.ExplicitAuthFlows).toBeUndefined();
  });

  test('its sign-in domain, and the outputs an operator needs', () => {
    dataTemplate.resourceCountIs('AWS::Cognito::UserPoolDomain', 1);
    const outputs = [...Object.keys(template.findOutputs('*')), ...Object.keys(dataTemplate.findOutputs('*'))];
    for (const name of ['AdminUserPoolId', 'AdminConsoleClientId', 'AdminSignInDomain', 'AdminIssuer']) {
      expect(outputs.some((output) => output.includes(name))).toBe(true);
    }
  });
});

describe('with adminIssuer: the team brings its own issuer', () => {
  let template: Template;
  let dataTemplate: Template;
  let report: Synthesized['report'];
  beforeAll(async () => {
    ({ template, dataTemplate, report } = await synthesized({
      nag: true,
      context: {
        adminIssuer: 'https://example.okta.com/oauth2/default',
        adminAudience: 'api://knap-admin',
        adminAccessTokenMark: 'claim:scp',
        adminRateLimit: '60',
      },
    }));
  }, SYNTH_TIMEOUT_MS);

  test('no user pool, no app client, no sign-in domain; the issuer is an output; cdk-nag clean', () => {
    for (const stack of [template, dataTemplate]) {
      stack.resourceCountIs('AWS::Cognito::UserPool', 0);
      stack.resourceCountIs('AWS::Cognito::UserPoolClient', 0);
      stack.resourceCountIs('AWS::Cognito::UserPoolDomain', 0);
    }
    expect(report.synthError).toBeUndefined();
    expect(report.nag?.violations).toEqual([]);
    const issuer = Object.entries(template.findOutputs('*')).find(([name]) => name.includes('AdminIssuer'));
    expect(issuer?.[1].Value).toBe('https://example.okta.com/oauth2/default');
  });

  test('every admin function verifies tokens of that issuer, for that audience, organization in `org`', () => {
    for (const route of ADMIN_ROUTES) {
      expect(variablesOf(template, route.fn)).toMatchObject({
        ADMIN_ISSUER: 'https://example.okta.com/oauth2/default',
        ADMIN_AUDIENCE: 'api://knap-admin',
        ADMIN_ORG_CLAIM: 'org',
        ADMIN_ACCESS_TOKEN_MARK: 'claim:scp',
        ADMIN_RATE_LIMIT: '60',
      });
    }
    adminRoutesOf(template);
  });
});
