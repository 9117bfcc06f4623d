import { execFileSync } from 'node:child_process';
import { copyFileSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { AssetHashType, DockerImage, Duration, type ILocalBundling, RemovalPolicy, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import {
  Alias,
  Architecture,
  Code,
  type FunctionProps,
  Function as LambdaFunction,
  Runtime,
  Tracing,
} from 'aws-cdk-lib/aws-lambda';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { ESM_REQUIRE_BANNER } from '../scripts/lambda-bundle.mjs';
import { trimMapFile } from '../scripts/trim-sourcemap.mjs';
import type { LogLevel } from './config.js';
import { LAMBDA_SETTINGS } from './lambda-settings.js';
import {
  actionsOf,
  type ItemAction,
  KEY_PARTITION,
  type KeyScope,
  leadingKeysPattern,
  queryTargetsOf,
  type TableAccess,
} from './table-access.js';

/** Package root: bundling runs from here and resolves `package-lock.json` here. */
export const PROJECT_ROOT = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '');

/** The alias name: `<function>:live` is what runs; unqualified `$LATEST` is never called by a trigger. */
export const LIVE_ALIAS = 'live';

export const LAMBDA_DEFAULTS = {
  runtime: Runtime.NODEJS_22_X,
  architecture: Architecture.ARM_64,
  memorySize: LAMBDA_SETTINGS.memoryMb,
  timeout: Duration.seconds(LAMBDA_SETTINGS.timeoutSeconds),
  dynamodbTimeoutMs: LAMBDA_SETTINGS.dynamodbTimeoutMs,
  logRetention: RetentionDays.ONE_MONTH,
  serviceName: LAMBDA_SETTINGS.serviceName,
} as const;

export { ESM_REQUIRE_BANNER };

export interface KnapFunctionProps
  extends Omit<FunctionProps, 'code' | 'handler' | 'runtime' | 'role' | 'logGroup' | 'environment'> {
  /** Handler file, absolute or relative to the project root. */
  readonly entry: string;
  readonly logLevel: LogLevel;
  readonly environment?: Record<string, string>;
  /** The function's DEFAULT_RATE_LIMIT (requests per minute). */
  readonly defaultRateLimit: number;
  /** Files (relative to the project root) copied beside the bundle, for the handler to read. */
  readonly assets?: readonly string[];
  /**
   * Declare DYNAMODB_ENDPOINT, TOKEN_SIGNING_KEYS and STORED_TOKENS_UNTIL (empty) so that
   * `sam local invoke --env-vars` can point the function at a local DynamoDB, key and the
   * fixtures' stored-format tokens (SAM only overrides
   * variables the template has). Never on a deployed function: there the SDK's own endpoint
   * and the Secrets Manager secret are the only ones.
   */
  readonly declareLocalEndpoint?: boolean;
}

/**
 * Builds a function's asset with the local esbuild: an ESM bundle, minified, with the AWS SDK
 * inside (the version of our lockfile, tree-shaken into the bundle, which loads faster than
 * the runtime's copy spread over hundreds of files) and a source map of our code only.
 * Split: what a dynamic `import()` names (an area's route modules, the SQS client of the
 * routes that queue runs) is a file beside `index.mjs`, loaded by the first invocation that
 * needs it, and code both need is loaded once. Then the files of CHUNKS
 * (scripts/bundle-chunks.mjs) and the files the routes read at run time.
 */
class LambdaBundling implements ILocalBundling {
  constructor(
    private readonly entry: string,
    private readonly assets: readonly string[],
  ) {}

  tryBundle(outputDir: string): boolean {
    execFileSync(process.execPath, [resolve(PROJECT_ROOT, 'scripts/bundle-function.mjs'), PROJECT_ROOT, this.entry, outputDir], {
      stdio: 'inherit',
    });
    // The maps keep our own code only (scripts/trim-sourcemap.mjs): ~60 KB instead of ~900 KB;
    // a file split from the SDK alone has none left, and no map (its frames stay as V8 writes them).
    for (const file of readdirSync(outputDir).filter((name) => name.endsWith('.map'))) {
      const map = join(outputDir, file);
      trimMapFile(map, PROJECT_ROOT);
      if ((JSON.parse(readFileSync(map, 'utf8')) as { sources: unknown[] }).sources.length === 0) rmSync(map);
    }
    execFileSync(process.execPath, [resolve(PROJECT_ROOT, 'scripts/bundle-chunks.mjs'), PROJECT_ROOT, outputDir], {
      stdio: 'inherit',
    });
    for (const asset of this.assets) copyFileSync(resolve(PROJECT_ROOT, asset), join(outputDir, basename(asset)));
    return true;
  }
}

/**
 * A Lambda with the project's defaults (after the Powertools `examples/app` pattern):
 * Node.js 22 on arm64, an ESM bundle built by the local esbuild (no Docker), minified with
 * source maps and the AWS SDK inside; its own log group with a retention, and its own role
 * that may write to that log group and nothing else until `bindTable` grants more.
 */
export class KnapFunction extends LambdaFunction {
  /** The alias every trigger calls (API Gateway, EventBridge, SQS); CodeDeploy moves it from version to version. */
  readonly live: Alias;

  constructor(scope: Construct, id: string, props: KnapFunctionProps) {
    const { logLevel, defaultRateLimit, environment, assets = [], declareLocalEndpoint = false, entry: _entry, ...rest } = props;
    const logGroup = new LogGroup(scope, `${id}LogGroup`, {
      retention: LAMBDA_DEFAULTS.logRetention,
      // Logs are operational data with a one-month life; they go with the stack.
      removalPolicy: RemovalPolicy.DESTROY,
    });
    // An own role instead of the AWSLambdaBasicExecutionRole managed policy: write to this
    // function's log group only (no logs:CreateLogGroup, no other groups).
    const role = new Role(scope, `${id}Role`, {
      assumedBy: new ServicePrincipal('lambda.amazonaws.com'),
      description: `Execution role of the ${id} function`,
    });
    logGroup.grantWrite(role);

    super(scope, id, {
      runtime: LAMBDA_DEFAULTS.runtime,
      architecture: LAMBDA_DEFAULTS.architecture,
      memorySize: LAMBDA_DEFAULTS.memorySize,
      timeout: LAMBDA_DEFAULTS.timeout,
      // X-Ray: Lambda samples invocations, and in sampled ones the DynamoDB calls are subsegments (shared/lambda/sampled-tracing.ts).
      tracing: Tracing.ACTIVE,
      ...rest,
      code: Code.fromAsset(PROJECT_ROOT, {
        // The hash of what is built, not of the whole project folder.
        assetHashType: AssetHashType.OUTPUT,
        bundling: {
          // Never used: the local esbuild always bundles (CDK asks for an image all the same).
          image: DockerImage.fromRegistry('public.ecr.aws/sam/build-nodejs22.x'),
          local: new LambdaBundling(resolve(PROJECT_ROOT, props.entry), assets),
        },
      }),
      handler: 'index.handler',
      role,
      logGroup,
      environment: {
        POWERTOOLS_SERVICE_NAME: LAMBDA_DEFAULTS.serviceName,
        POWERTOOLS_LOG_LEVEL: logLevel,
        DYNAMODB_TIMEOUT_MS: String(LAMBDA_DEFAULTS.dynamodbTimeoutMs),
        DEFAULT_RATE_LIMIT: String(defaultRateLimit),
        // Under SAM: a local DynamoDB, and a local key instead of the Secrets Manager secret.
        ...(declareLocalEndpoint ? { DYNAMODB_ENDPOINT: '', TOKEN_SIGNING_KEYS: '', STORED_TOKENS_UNTIL: '' } : {}),
        ...environment,
      },
      // Each deploy publishes a version (kept: an earlier one is a rollback target) behind the `live` alias.
      currentVersionOptions: { removalPolicy: RemovalPolicy.RETAIN },
    });
    this.live = new Alias(this, 'Live', { aliasName: LIVE_ALIAS, version: this.currentVersion });
    Validations.of(role).acknowledge({
      // cdk-nag names the wildcard in the finding: this acknowledges `Resource: *` only, for X-Ray's two actions.
      id: 'AwsSolutions-IAM5[Resource::*]',
      reason:
        'Active tracing needs xray:PutTraceSegments and xray:PutTelemetryRecords, which CDK grants with Resource "*" ' +
        'because X-Ray has no resource-level permissions for them (the service authorization reference lists no ' +
        'resource type). They only write trace data of this account; every other statement of this role names its resources.',
    });
  }

  /**
   * Grants exactly the access given: each item action on the table ARN, only for items whose
   * partition key is in one of its scopes (`dynamodb:LeadingKeys`: a prefix, or a pattern such
   * as the audit partitions'); Query on the indexes named, and on the table itself only in
   * the partitions of a pattern (a Query on any `pk` would read any item kind). An item action
   * granted without the audit partitions is denied on them outright: a Knap's `ORG#<org>` prefix
   * would otherwise match `ORG#<org>#AUDIT` too.
   */
  bindTable(table: ITable, access: TableAccess): void {
    // Every key of the request (a batch has several) must be in an allowed scope.
    const onKeys = (scopes: readonly KeyScope[]) => ({
      'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': [...scopes].sort().map(leadingKeysPattern) },
    });
    const byScopes = new Map<string, ItemAction[]>();
    for (const action of actionsOf(access)) {
      if (action === 'dynamodb:Query') continue;
      const scopes = [...(access[action] ?? [])].sort().join(' ');
      if (scopes === '') throw new Error(`${this.node.path}: ${action} names no key prefix`);
      byScopes.set(scopes, [...(byScopes.get(scopes) ?? []), action]);
    }
    for (const [scopes, actions] of byScopes) {
      this.addToRolePolicy(
        new PolicyStatement({
          actions,
          resources: [table.tableArn],
          conditions: onKeys(scopes.split(' ') as KeyScope[]),
        }),
      );
    }
    const notOnAudit = actionsOf(access).filter(
      (action): action is ItemAction => action !== 'dynamodb:Query' && !(access[action] ?? []).includes(KEY_PARTITION.audit),
    );
    if (notOnAudit.length > 0) {
      this.addToRolePolicy(
        new PolicyStatement({
          effect: Effect.DENY,
          actions: notOnAudit,
          resources: [table.tableArn],
          conditions: { 'ForAnyValue:StringLike': { 'dynamodb:LeadingKeys': [KEY_PARTITION.audit] } },
        }),
      );
    }
    const targets = access['dynamodb:Query'] ?? [];
    if (access['dynamodb:Query'] && targets.length === 0) throw new Error(`${this.node.path}: Query names no index or partition`);
    const { indexes, partitions } = queryTargetsOf(targets);
    if (indexes.length > 0) {
      this.addToRolePolicy(
        new PolicyStatement({
          actions: ['dynamodb:Query'],
          resources: indexes.map((name) => `${table.tableArn}/index/${name}`),
        }),
      );
    }
    if (partitions.length > 0) {
      this.addToRolePolicy(
        new PolicyStatement({ actions: ['dynamodb:Query'], resources: [table.tableArn], conditions: onKeys(partitions) }),
      );
    }
    this.addEnvironment('TABLE_NAME', table.tableName);
  }
}
