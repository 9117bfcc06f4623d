import { CfnOutput, Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import {
  AccountRecovery,
  Mfa,
  OAuthScope,
  UserPool,
  UserPoolClient,
  UserPoolClientIdentityProvider,
  type UserPoolDomain,
} from 'aws-cdk-lib/aws-cognito';
import { Construct } from 'constructs';
import type { KnapSettings } from './config.js';

/** How the admin functions verify an admin's access token (shared/auth/admin-tokens.ts reads these as ADMIN_*). */
export interface AdminIssuerEnvironment {
  ADMIN_ISSUER: string;
  ADMIN_AUDIENCE: string;
  ADMIN_ORG_CLAIM: string;
  /** With adminIssuer and adminAccessTokenMark only: what marks that issuer's access tokens. */
  ADMIN_ACCESS_TOKEN_MARK?: string;
  /** With adminRateLimit only: requests per minute per admin (120 without). */
  ADMIN_RATE_LIMIT?: string;
}

const adminRateLimitEnvironment = (settings: KnapSettings): { ADMIN_RATE_LIMIT?: string } =>
  settings.adminRateLimit === null ? {} : { ADMIN_RATE_LIMIT: String(settings.adminRateLimit) };

/** Short-lived admin access tokens, renewed without a password while the session lasts (docs/admins.md). */
export const ADMIN_ACCESS_TOKEN_MINUTES = 15;
export const ADMIN_SESSION_HOURS = 8;

export interface KnapAdminIdentityProps {
  readonly settings: KnapSettings;
  /** The console's address (`<api url>/console`): where sign-in and sign-out return. */
  readonly consoleUrl: string;
  /** The admins' user pool and its domain (the data stack's); undefined with an outside issuer. */
  readonly pool?: AdminUserPool;
}

/** The stateful part of the admins' identity: the user pool and its sign-in domain (KnapData). */
export interface AdminUserPool {
  readonly userPool: UserPool;
  readonly domain: UserPoolDomain;
}

/**
 * The admins' Cognito user pool (e-mail sign-in, MFA as the `adminMfa` setting says, one group
 * per organization, so the organization is a claim the admin cannot change: `cognito:groups` in
 * the access token) and its sign-in domain. Made in the stateful stack: a replacement would
 * lose every admin, and fail on its own domain prefix.
 */
export const adminUserPool = (scope: Construct, settings: KnapSettings): AdminUserPool => {
  const stack = Stack.of(scope);
  const userPool = new UserPool(scope, 'AdminUserPool', {
    userPoolName: `${stack.stackName}-admins`,
    // Operators make admins (create-admin, or AdminCreateUser); nobody signs themselves up.
    selfSignUpEnabled: false,
    signInAliases: { email: true },
    signInCaseSensitive: false,
    autoVerify: { email: true },
    mfa: { off: Mfa.OFF, optional: Mfa.OPTIONAL, required: Mfa.REQUIRED }[settings.adminMfa],
    mfaSecondFactor: { otp: true, sms: false },
    passwordPolicy: {
      minLength: 12,
      requireLowercase: true,
      requireUppercase: true,
      requireDigits: true,
      requireSymbols: true,
      tempPasswordValidity: Duration.days(3),
    },
    accountRecovery: AccountRecovery.EMAIL_ONLY,
    deletionProtection: !settings.dev,
    // Admins' accounts outlive a stack replacement, like the table.
    removalPolicy: RemovalPolicy.RETAIN,
  });
  const domain = userPool.addDomain('SignIn', {
    cognitoDomain: { domainPrefix: `${stack.stackName.toLowerCase()}-admins-${stack.account}` },
  });
  new CfnOutput(scope, 'AdminUserPoolId', {
    value: userPool.userPoolId,
    description: 'Cognito user pool of organization admins',
  });
  new CfnOutput(scope, 'AdminSignInDomain', { value: domain.baseUrl(), description: "Cognito's sign-in pages for admins" });
  if (settings.adminMfa !== 'required') {
    Validations.of(userPool).acknowledge({
      id: 'AwsSolutions-COG2',
      reason:
        'MFA is the adminMfa setting: "optional" by default (each admin may turn on an authenticator app), "required" ' +
        'for teams that want it for everyone. Making it required by default would lock out the first admin of a stack ' +
        'until they enrol, with no console yet to explain how.',
    });
  }
  const threatProtection =
    "Cognito's threat protection (advanced security) needs the paid Plus feature plan; admins are few, made by " +
    'operators, with no self sign-up, strong passwords and MFA available. Move the pool to Plus when the organization needs it.';
  Validations.of(userPool).acknowledge({ id: 'AwsSolutions-COG3', reason: threatProtection });
  Validations.of(userPool).acknowledge({ id: 'AwsSolutions-COG8', reason: threatProtection });
  return { userPool, domain };
};

/**
 * Who organization admins are, deployed: the data stack's Cognito user pool (adminUserPool),
 * with a public app client for the console made here (authorization code + PKCE, no secret;
 * its callback is the API's URL, so it lives in the stateless stack). Or, with `adminIssuer`,
 * a team's own OpenID Connect issuer (Okta, Entra ID, Google...), and no user pool at all.
 */
export class KnapAdminIdentity extends Construct {
  readonly consoleClient?: UserPoolClient;
  /** What every admin function is given. */
  readonly environment: AdminIssuerEnvironment;
  /** What the console page is given to sign in (shared/console-files.ts reads it). */
  readonly consoleEnvironment: Record<string, string>;

  constructor(scope: Construct, id: string, props: KnapAdminIdentityProps) {
    super(scope, id);
    const { settings, pool } = props;
    if (settings.adminIssuer && settings.adminAudience) {
      this.environment = {
        ADMIN_ISSUER: settings.adminIssuer,
        ADMIN_AUDIENCE: settings.adminAudience,
        ADMIN_ORG_CLAIM: settings.adminOrgClaim ?? 'org',
        ...(settings.adminAccessTokenMark ? { ADMIN_ACCESS_TOKEN_MARK: settings.adminAccessTokenMark } : {}),
        ...adminRateLimitEnvironment(settings),
      };
      this.consoleEnvironment = {
        ADMIN_ISSUER: settings.adminIssuer,
        ADMIN_CONSOLE_CLIENT_ID: settings.adminConsoleClientId ?? settings.adminAudience,
        ADMIN_CONSOLE_SCOPE: 'openid email',
        ADMIN_ORG_CLAIM: this.environment.ADMIN_ORG_CLAIM,
      };
      new CfnOutput(Stack.of(this), 'AdminIssuer', {
        value: settings.adminIssuer,
        description: 'OpenID Connect issuer of organization admins (adminIssuer)',
      });
      return;
    }
    if (!pool) throw new Error("Without adminIssuer, the admins need the data stack's user pool");

    const stack = Stack.of(this);
    const consoleClient = new UserPoolClient(this, 'ConsoleClient', {
      userPool: pool.userPool,
      userPoolClientName: 'knap-console',
      generateSecret: false,
      authFlows: {},
      supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
      oAuth: {
        flows: { authorizationCodeGrant: true },
        scopes: [OAuthScope.OPENID, OAuthScope.EMAIL],
        callbackUrls: [props.consoleUrl],
        logoutUrls: [props.consoleUrl],
      },
      accessTokenValidity: Duration.minutes(ADMIN_ACCESS_TOKEN_MINUTES),
      idTokenValidity: Duration.minutes(ADMIN_ACCESS_TOKEN_MINUTES),
      refreshTokenValidity: Duration.hours(ADMIN_SESSION_HOURS),
      preventUserExistenceErrors: true,
      enableTokenRevocation: true,
    });
    this.consoleClient = consoleClient;
    // Cognito's access tokens carry the groups and the username, and name the app client in
    // `client_id` (they have no `aud`); the verifier checks that.
    this.environment = {
      ADMIN_ISSUER: `https://cognito-idp.${stack.region}.amazonaws.com/${pool.userPool.userPoolId}`,
      ADMIN_AUDIENCE: consoleClient.userPoolClientId,
      ADMIN_ORG_CLAIM: settings.adminOrgClaim ?? 'cognito:groups',
      ...adminRateLimitEnvironment(settings),
    };
    // Cognito's discovery document names no end-session endpoint: its own /logout ends the session.
    this.consoleEnvironment = {
      ADMIN_ISSUER: this.environment.ADMIN_ISSUER,
      ADMIN_CONSOLE_CLIENT_ID: consoleClient.userPoolClientId,
      ADMIN_CONSOLE_SCOPE: 'openid email',
      ADMIN_ORG_CLAIM: this.environment.ADMIN_ORG_CLAIM,
      ADMIN_SIGN_OUT_URL: `${pool.domain.baseUrl()}/logout?client_id=${consoleClient.userPoolClientId}&logout_uri=${props.consoleUrl}`,
    };

    // Made on the stack, not this construct, so the outputs are named as docs/deploy.md lists them.
    new CfnOutput(stack, 'AdminConsoleClientId', {
      value: consoleClient.userPoolClientId,
      description: "The console's app client (public, PKCE)",
    });
    new CfnOutput(stack, 'AdminIssuer', {
      value: this.environment.ADMIN_ISSUER,
      description: 'OpenID Connect issuer of organization admins',
    });
  }
}
