import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Duration, RemovalPolicy, Validations } from 'aws-cdk-lib';
import type { ITable } from 'aws-cdk-lib/aws-dynamodb';
import { Effect, PolicyStatement, Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Alias, Architecture, Runtime, Tracing } from 'aws-cdk-lib/aws-lambda';
import {
  LogLevel as BundlingLogLevel,
  NodejsFunction,
  type NodejsFunctionProps,
  OutputFormat,
} from 'aws-cdk-lib/aws-lambda-nodejs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { BUNDLE_ALIASES, BUNDLE_TARGET, CHUNK_DEFINES, ESM_REQUIRE_BANNER } from '../scripts/lambda-bundle.mjs';
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

/** Installs the stack formatter that maps frames through the bundle's map (injected into every bundle). */
const MAPPED_STACKS = resolve(PROJECT_ROOT, 'shared/lambda/mapped-stacks.ts');

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

export interface KnapFunctionProps extends Omit<NodejsFunctionProps, 'entry' | 'role' | 'logGroup'> {
  /** Handler file, absolute or relative to the project root. */
  readonly entry: string;
  readonly logLevel: LogLevel;
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
 * A Lambda with the project's defaults (after the Powertools `examples/app` pattern):
 * Node.js 22 on arm64, an ESM bundle built by the local esbuild (no Docker), minified with
 * source maps and the AWS SDK inside; its own log group with a retention, and its own role
 * that may write to that log group and nothing else until `bindTable` grants more.
 */
export class KnapFunction extends NodejsFunction {
  /** The alias every trigger calls (API Gateway, EventBridge, SQS); CodeDeploy moves it from version to version. */
  readonly live: Alias;

  constructor(scope: Construct, id: string, props: KnapFunctionProps) {
    const { logLevel, defaultRateLimit, environment, bundling, assets = [], declareLocalEndpoint = false, ...rest } = props;
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
      projectRoot: PROJECT_ROOT,
      depsLockFilePath: resolve(PROJECT_ROOT, 'package-lock.json'),
      ...rest,
      entry: resolve(PROJECT_ROOT, props.entry),
      handler: 'handler',
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
      bundling: {
        format: OutputFormat.ESM,
        target: BUNDLE_TARGET,
        platform: 'node',
        // A synth says nothing unless something is wrong (esbuild's size table otherwise, per function).
        logLevel: BundlingLogLevel.WARNING,
        minify: true,
        sourceMap: true,
        // Maps give stack traces our files and lines; the sources themselves need not ship.
        sourcesContent: false,
        // ESM entry points first, so esbuild can tree-shake the AWS SDK and the rest.
        mainFields: ['module', 'main'],
        banner: ESM_REQUIRE_BANNER,
        // Stack traces mapped to our sources when an error is formatted, not at every cold start
        // as `--enable-source-maps` would (shared/lambda/mapped-stacks.ts); injected, so it runs first.
        inject: [MAPPED_STACKS],
        // What only some invocations need is a file beside the bundle (CHUNKS: X-Ray, the
        // schedule parser, chrono-node).
        define: { ...CHUNK_DEFINES },
        // Bundle the SDK: the version in our lockfile, tree-shaken into one minified file,
        // which loads faster than the runtime's copy spread over hundreds of files.
        bundleAwsSDK: true,
        // Smaller or lighter stand-ins for some modules (BUNDLE_ALIASES says why, for each).
        esbuildArgs: Object.fromEntries(Object.entries(BUNDLE_ALIASES).map(([from, to]) => [`--alias:${from}`, to])),
        externalModules: [],
        forceDockerBundling: false,
        // The map keeps our own code only (scripts/trim-sourcemap.mjs): ~60 KB instead of ~900 KB.
        commandHooks: {
          beforeBundling: () => [],
          beforeInstall: () => [],
          afterBundling: (inputDir: string, outputDir: string) => [
            `node "${inputDir}/scripts/trim-sourcemap.mjs" --quiet --root "${inputDir}" "${outputDir}/index.mjs.map"`,
            `node "${inputDir}/scripts/bundle-chunks.mjs" "${inputDir}" "${outputDir}"`,
            ...assets.map((asset) => `cp "${inputDir}/${asset}" "${outputDir}/"`),
          ],
        },
        ...bundling,
      },
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
