/**
 * Organization admins' identity, deployed (lib/admin-identity.ts): the stack's Cognito user pool
 * and the console's app client, or, with adminIssuer, a team's own issuer and no user pool.
 */
import type { Template } from 'aws-cdk-lib/assertions';
import { resourcesOf, SYNTH_TIMEOUT_MS, synthesized } from './synth.js';

describe('by default: a Cognito user pool made by the stack', () => {
  let template: Template;
  beforeAll(async () => {
    ({ template } = await synthesized());
  }, SYNTH_TIMEOUT_MS);

  test('e-mail sign-in, no self sign-up, optional app MFA, strong passwords, kept when the stack goes', () => {
    const pools = resourcesOf(template, 'AWS::Cognito::UserPool');
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

  test("the console's app client: public (no secret), authorization code only, back to <api>/console/, 15-minute tokens", () => {
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
    expect(callbacks).toContain('/console/');
    expect(JSON.stringify(client?.Properties?.LogoutURLs)).toBe(callbacks);
    expect(client?.Properties?.ExplicitAuthFlows).toBeUndefined();
  });

  test('its sign-in domain, and the outputs an operator needs', () => {
    template.resourceCountIs('AWS::Cognito::UserPoolDomain', 1);
    const outputs = Object.keys(template.findOutputs('*'));
    for (const name of ['AdminUserPoolId', 'AdminConsoleClientId', 'AdminSignInDomain', 'AdminIssuer']) {
      expect(outputs.some((output) => output.includes(name))).toBe(true);
    }
  });
});

describe('with adminIssuer: the team brings its own issuer', () => {
  let template: Template;
  beforeAll(async () => {
    ({ template } = await synthesized({
      nag: true,
      context: { adminIssuer: 'https://example.okta.com/oauth2/default', adminAudience: 'api://knap-admin' },
    }));
  }, SYNTH_TIMEOUT_MS);

  test('no user pool, no app client; the issuer is an output', () => {
    template.resourceCountIs('AWS::Cognito::UserPool', 0);
    template.resourceCountIs('AWS::Cognito::UserPoolClient', 0);
    const issuer = Object.entries(template.findOutputs('*')).find(([name]) => name.includes('AdminIssuer'));
    expect(issuer?.[1].Value).toBe('https://example.okta.com/oauth2/default');
  });
});
