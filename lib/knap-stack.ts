import { CfnOutput, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import { ManagedPolicy, PolicyStatement } from 'aws-cdk-lib/aws-iam';
import type { Construct } from 'constructs';
import type { RouteDefinition } from '../functions/routes.js';
import { KnapAdminIdentity } from './admin-identity.js';
import { KnapApi } from './api.js';
import { checkConsistent, DEFAULT_SETTINGS, dataStackNameFor, deploymentPreferenceOf, type KnapSettings } from './config.js';
import { KnapDataStack } from './data.js';
import { KnapDeployments } from './deployments.js';
import { functionLogicalId, isAdminRoute, KnapFunctions } from './functions.js';
import type { KnapFunction } from './knap-function.js';
import { KnapMonitoring } from './monitoring.js';
import { KnapRuns } from './runs.js';

/**
 * What the admin CLI (local/admin-cli.ts) does with the table: create-client and add-webhook
 * (PutItem), regenerate-secret, revoke-client and set-rate-limit (GetItem, UpdateItem),
 * remove-webhook (DeleteItem), list-clients and list-webhooks (Query on gsi3, then
 * BatchGetItem), backfill-due-index and backfill-run-index (Scan, UpdateItem); each change is
 * audited (PutItem), and create-admin writes the local provider's admin (PutItem).
 */
export const OPERATOR_TABLE_ACTIONS = [
  'dynamodb:GetItem',
  'dynamodb:PutItem',
  'dynamodb:UpdateItem',
  'dynamodb:DeleteItem',
  'dynamodb:BatchGetItem',
  'dynamodb:Scan',
] as const;
export const OPERATOR_INDEX = 'gsi3';

export interface KnapStackProps extends StackProps {
  /** Deployment settings; each one missing takes its default (lib/config.ts). */
  readonly settings?: Partial<KnapSettings>;
  /** The stateful stack: table, token keys, user pool, queues. */
  readonly data: KnapDataStack;
  /** Defaults to the route table in functions/routes.ts (tests add routes to measure the stack's room). */
  readonly routes?: readonly RouteDefinition[];
}

/**
 * The Knap API's stateless stack: a Lambda per function of functions/routes.ts (the token
 * endpoint, Knap creation, and one per area), the HTTP API, the dispatcher and deliverer,
 * alarms, canaries. Nothing here holds data: the table, the keys, the admins and the queues
 * are the data stack's (lib/data.ts), so no change here can replace them.
 * Environment-agnostic (no account, no region, no lookups), so it synthesizes offline.
 */
export class KnapStack extends Stack {
  readonly settings: KnapSettings;
  readonly data: KnapDataStack;
  readonly functions: KnapFunctions;
  readonly api: KnapApi;
  readonly runs: KnapRuns;
  readonly monitoring: KnapMonitoring;
  readonly deployments: KnapDeployments;
  /** Organization admins' identity: the stack's Cognito user pool, or the adminIssuer setting. */
  readonly adminIdentity: KnapAdminIdentity;
  /** Admin CLI rights on the table, for the operators' users or roles to attach. */
  readonly operatorPolicy: ManagedPolicy;

  constructor(scope: Construct, id: string, props: KnapStackProps) {
    const { settings: given, data, routes, ...stackProps } = props;
    const settings: KnapSettings = { ...DEFAULT_SETTINGS, ...given };
    checkConsistent(settings);
    super(scope, id, {
      description: 'Knap API: HTTP API, a Lambda per area of routes, the run dispatcher and deliverer, alarms (data: KnapData)',
      // Pinned: `cdk deploy` refuses any other account or region (checkConsistent requires both unless dev).
      env: settings.account && settings.region ? { account: settings.account, region: settings.region } : undefined,
      // A dev stack may come and go; any other needs protection turned off on purpose before it can be deleted.
      terminationProtection: !settings.dev,
      ...stackProps,
    });
    this.settings = settings;
    this.data = data;
    this.addStackDependency(data, 'The functions use its table, keys, user pool and queues');

    this.functions = new KnapFunctions(this, 'Functions', {
      tokenKeys: data.tokenKeys,
      table: data.table,
      routes,
      settings: this.settings,
      publicBaseUrl: this.settings.domainName ? `https://${this.settings.domainName}` : undefined,
    });
    this.api = new KnapApi(this, 'Api', {
      settings: this.settings,
      functions: this.functions.byRoute,
      byFunction: this.functions.byFunction,
    });
    this.adminIdentity = new KnapAdminIdentity(this, 'Admins', {
      settings: this.settings,
      consoleUrl: `${this.api.url}/console`,
      pool: data.admins,
    });
    // Made after the API (the app client's callback URL is the API's), so given afterwards:
    // how each admin function verifies an admin's token. No admin function reads token keys.
    // The console page is told how to sign in; the OpenAPI document names the issuer's discovery.
    const identityEnvironment: Record<string, Record<string, string>> = {
      console: this.adminIdentity.consoleEnvironment,
      openapi: { ADMIN_ISSUER: this.adminIdentity.environment.ADMIN_ISSUER },
    };
    const environments = new Map<KnapFunction, Record<string, string>>();
    for (const [route, fn] of this.functions.byRoute) {
      const environment = isAdminRoute(route) ? this.adminIdentity.environment : (identityEnvironment[route.id] ?? {});
      const merged = { ...environments.get(fn) };
      for (const [name, value] of Object.entries(environment)) {
        if (merged[name] !== undefined && merged[name] !== value) {
          throw new Error(`Routes of one function need different values of ${name}`);
        }
        merged[name] = value;
      }
      environments.set(fn, merged);
    }
    for (const [fn, environment] of environments) {
      for (const [name, value] of Object.entries(environment)) fn.addEnvironment(name, value);
    }
    this.runs = new KnapRuns(this, 'Runs', {
      table: data.table,
      queue: data.deliveries,
      dispatchQueue: data.dispatchShares,
      settings: this.settings,
      routeFunctions: this.functions.byRoute,
      tokenKeys: data.tokenKeys,
      reportBaseUrl: this.settings.domainName ? `https://${this.settings.domainName}` : this.api.url,
    });
    const allFunctions: ReadonlyMap<string, KnapFunction> = new Map([...this.functions.byFunction, ...this.runs.byJob]);
    this.monitoring = new KnapMonitoring(this, 'Monitoring', {
      settings: this.settings,
      functions: allFunctions,
      httpApi: this.api.httpApi,
      table: data.table,
      deliveryDeadLetters: data.deliveryDeadLetters,
    });
    this.deployments = new KnapDeployments(this, 'Deployments', {
      functions: allFunctions,
      rollbackAlarms: this.monitoring.errorAlarms,
      preference: deploymentPreferenceOf(this.settings),
    });

    this.operatorPolicy = new ManagedPolicy(this, 'OperatorPolicy', {
      description: `Knap API admin CLI (npm run admin) on the ${this.stackName} table`,
      statements: [
        new PolicyStatement({ actions: [...OPERATOR_TABLE_ACTIONS], resources: [data.table.tableArn] }),
        new PolicyStatement({
          actions: ['dynamodb:Query'],
          resources: [`${data.table.tableArn}/index/${OPERATOR_INDEX}`],
        }),
      ],
    });

    new CfnOutput(this, 'ApiUrl', {
      value: this.api.url,
      description: this.settings.domainName
        ? 'Base URL of the Knap API (its custom domain; the execute-api endpoint is disabled)'
        : 'Base URL of the Knap API',
    });
    new CfnOutput(this, 'AlarmTopicArn', {
      value: this.monitoring.topic.topicArn,
      description: 'Every alarm notifies this SNS topic (subscribe more than alarmEmail here)',
    });
    new CfnOutput(this, 'OperatorPolicyArn', {
      value: this.operatorPolicy.managedPolicyArn,
      description: 'Managed policy with the admin CLI rights on the table: attach it to the operators',
    });
    new CfnOutput(this, 'DeploymentApplicationName', {
      value: this.deployments.application.applicationName,
      description: 'CodeDeploy application: one deployment group per function moves its live alias',
    });
    for (const [functionId, fn] of allFunctions) {
      new CfnOutput(this, `${functionLogicalId(functionId)}Name`, {
        value: fn.functionName,
        description: `Lambda function of ${functionId} (invoke <name>:live; logs, metrics and aliases by this name)`,
      });
    }

    this.acknowledgeDeliberateFindings();
  }

  /** cdk-nag (AwsSolutions) findings that are deliberate, each acknowledged where it occurs, with its reason. */
  private acknowledgeDeliberateFindings(): void {
    for (const route of this.api.routes) {
      Validations.of(route).acknowledge({
        id: 'AwsSolutions-APIG4',
        reason:
          'Authorization happens in the Lambda, by design. POST /api/oauth/token must take unauthenticated calls: ' +
          'clients authenticate with client_id/client_secret in the form or HTTP Basic (RFC 6749 2.3.1). The ' +
          '/api/studio routes take opaque Bearer access tokens, checked against DynamoDB on every request (expiry, ' +
          'client status and token generation, so a revoke or regenerate bites at once), which an IAM or JWT ' +
          'authorizer cannot do; a Lambda authorizer would add a second cold start and a second token read per request. ' +
          "The /api/admin routes take organization admins' JWTs, verified in the function (signature by the issuer's " +
          'JWKS, issuer, audience, expiry) because API Gateway\'s JWT authorizer answers 401 with {"message"}, not the ' +
          'API\'s {"detail"}. The metadata, the API reference and the console page are public documents: the console ' +
          'signs admins in in the browser and calls the admin routes with their token.',
      });
    }
    Validations.of(this.deployments.role).acknowledge({
      // cdk-nag names the managed policy in the finding: this acknowledges that one policy only.
      id: 'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited]',
      reason:
        'CodeDeploy needs AWSCodeDeployRoleForLambdaLimited, the AWS managed policy LambdaDeploymentGroup attaches to its ' +
        'service role: it lets CodeDeploy read alarms and get and update aliases, which it must do for every function ' +
        'on every deploy. AWS maintains it as CodeDeploy changes; it grants no data access, and only CodeDeploy can ' +
        'assume this one role.',
    });
    for (const fn of [...this.functions.byFunction.values(), ...this.runs.byJob.values()]) {
      Validations.of(fn).acknowledge({
        id: 'AwsSolutions-L1',
        reason:
          'Node.js 22 (nodejs22.x, supported by Lambda until 2027) is pinned on purpose: the code and its tests run ' +
          'on Node.js 20 and 22 (middy 6 is pinned for Node 20), and a runtime upgrade should be a tested change, ' +
          'not one made by a linter.',
      });
    }
  }
}

/** The two stacks of a deployment: the stateful one first, then the stateless one that uses it. */
export const knapStacks = (
  scope: Construct,
  options: { stackName: string; dataStackName?: string; settings: KnapSettings; routes?: readonly RouteDefinition[] },
): { data: KnapDataStack; api: KnapStack } => {
  const data = new KnapDataStack(scope, options.dataStackName ?? dataStackNameFor(options.stackName), {
    settings: options.settings,
  });
  const api = new KnapStack(scope, options.stackName, { settings: options.settings, data, routes: options.routes });
  return { data, api };
};
