import { CfnOutput, Duration, RemovalPolicy, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import type { CfnUserPool, CfnUserPoolDomain, UserPoolDomain } from 'aws-cdk-lib/aws-cognito';
import { AttributeType, BillingMode, type CfnTable, type ITable, ProjectionType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { type CfnSecret, type ISecret, Secret } from 'aws-cdk-lib/aws-secretsmanager';
import { type CfnQueue, Queue, QueueEncryption } from 'aws-cdk-lib/aws-sqs';
import type { Construct } from 'constructs';
import { INDEXES, TABLE_KEYS, TTL_ATTRIBUTE } from '../shared/store/table.js';
import { type AdminUserPool, adminUserPool } from './admin-identity.js';
import type { KnapSettings } from './config.js';
import { LAMBDA_SETTINGS } from './lambda-settings.js';
import { DISPATCH_VISIBILITY_TIMEOUT } from './runs.js';

/**
 * The logical ids of the stateful resources, fixed by hand rather than derived from construct
 * paths: a refactor that moves a construct cannot change one, and test/cdk/data.test.ts fails
 * when one of these changes, since CloudFormation would replace the resource (a new, empty
 * table; a new secret, which ends every token; a new user pool, without its admins).
 */
export const STATEFUL_LOGICAL_IDS = {
  table: 'KnapTable',
  tokenKeys: 'TokenKeys',
  userPool: 'AdminUserPool',
  userPoolDomain: 'AdminSignIn',
  deliveries: 'Deliveries',
  deliveryDeadLetters: 'DeliveryDeadLetters',
  dispatchShares: 'DispatchShares',
} as const;

/** Why synth refuses to make a table no one asked for (see KnapDataStack). */
export const NEW_TABLE_REFUSED =
  'KnapData would create a new, empty DynamoDB table. For a new deployment say so: -c freshDeployment=true ' +
  '(or "freshDeployment": true in cdk.json). Moving from a single-stack deployment (a KnapApi stack that holds ' +
  'the table)? Adopt its table instead: -c tableName=<its TableName output>, and follow docs/deploy.md ' +
  '"From one stack to two".';

export interface KnapDataStackProps extends StackProps {
  readonly settings: KnapSettings;
}

/**
 * The stateful stack: the table, the token signing keys, the admins' user pool and its sign-in
 * domain, the delivery queue and its dead-letter queue. Termination protection always; every
 * resource retained if the stack goes; logical ids pinned (STATEFUL_LOGICAL_IDS). Nothing here
 * changes when functions, routes or alarms do: those live in the stateless KnapApi stack.
 */
export class KnapDataStack extends Stack {
  readonly table: ITable;
  /** The stack's own table; undefined when an existing one is adopted by name (tableName). */
  readonly ownTable?: Table;
  /** The keys tokens are sealed with: `current` signs, `previous` (while being retired) still verifies. */
  readonly tokenKeys: ISecret;
  /** The admins' user pool and its sign-in domain; undefined with an outside issuer (adminIssuer). */
  readonly admins?: AdminUserPool;
  readonly deliveries: Queue;
  readonly deliveryDeadLetters: Queue;
  /** The dispatcher's shares of a busy minute, `{"shards": [..], "by"}`, one worker invocation each. */
  readonly dispatchShares: Queue;

  constructor(scope: Construct, id: string, props: KnapDataStackProps) {
    const { settings, ...stackProps } = props;
    super(scope, id, {
      description: 'Knap API data: the DynamoDB table, token signing keys, admin user pool, delivery and dispatch queues',
      env: settings.account && settings.region ? { account: settings.account, region: settings.region } : undefined,
      // Dev stacks too: deleting this stack is never part of an ordinary change.
      terminationProtection: true,
      ...stackProps,
    });

    if (settings.tableName) {
      this.table = Table.fromTableAttributes(this, 'AdoptedTable', {
        tableName: settings.tableName,
        // The functions name each index they query (`<table>/index/<name>`), never `index/*`.
        grantIndexPermissions: false,
      });
    } else {
      if (!settings.freshDeployment) throw new Error(NEW_TABLE_REFUSED);
      this.ownTable = knapTable(this);
      this.table = this.ownTable;
    }

    this.tokenKeys = settings.tokenKeysSecretArn
      ? Secret.fromSecretCompleteArn(this, 'AdoptedTokenKeys', settings.tokenKeysSecretArn)
      : tokenKeysSecret(this);

    if (!settings.adminIssuer) {
      this.admins = adminUserPool(this, settings);
      pin(this.admins.userPool.node.defaultChild as CfnUserPool, STATEFUL_LOGICAL_IDS.userPool);
      pin((this.admins.domain as UserPoolDomain).node.defaultChild as CfnUserPoolDomain, STATEFUL_LOGICAL_IDS.userPoolDomain);
    }

    this.deliveryDeadLetters = new Queue(this, 'DeliveryDeadLetterQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      retentionPeriod: Duration.days(14),
      removalPolicy: RemovalPolicy.RETAIN,
    });
    this.deliveries = new Queue(this, 'DeliveryQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      // AWS's advice for a Lambda event source: six times the function's timeout.
      visibilityTimeout: Duration.seconds(LAMBDA_SETTINGS.delivererTimeoutSeconds * 6),
      // Each attempt is its own message (retries are re-sent with a delay); a message that
      // fails five times is a deliverer fault, kept for a person to look at.
      deadLetterQueue: { queue: this.deliveryDeadLetters, maxReceiveCount: 5 },
      removalPolicy: RemovalPolicy.RETAIN,
    });
    pin(this.deliveryDeadLetters.node.defaultChild as CfnQueue, STATEFUL_LOGICAL_IDS.deliveryDeadLetters);
    pin(this.deliveries.node.defaultChild as CfnQueue, STATEFUL_LOGICAL_IDS.deliveries);
    this.dispatchShares = new Queue(this, 'DispatchShareQueue', {
      encryption: QueueEncryption.SQS_MANAGED,
      enforceSSL: true,
      visibilityTimeout: DISPATCH_VISIBILITY_TIMEOUT,
      // A message is worth nothing after its minute: SQS's shortest retention, and nothing to keep.
      retentionPeriod: Duration.minutes(1),
    });
    pin(this.dispatchShares.node.defaultChild as CfnQueue, STATEFUL_LOGICAL_IDS.dispatchShares);
    Validations.of(this.dispatchShares).acknowledge({
      id: 'AwsSolutions-SQS3',
      reason:
        'A dispatch message carries no work of its own, only which due-index shards to drain until its minute ends: ' +
        "what a failed worker leaves stays due in the table and the next minute's coordinator plans it again. A " +
        "dead-letter queue would only collect stale shard numbers; failures show in the dispatcher's errors and lag alarms.",
    });

    new CfnOutput(this, 'TableName', {
      value: this.table.tableName,
      description: settings.tableName
        ? 'DynamoDB table adopted by name (context tableName); the stack does not own it'
        : 'DynamoDB table (TABLE_NAME for the admin CLI); retained when the stack is deleted',
    });
    new CfnOutput(this, 'TokenKeysSecretArn', {
      value: this.tokenKeys.secretArn,
      description: 'Secrets Manager secret with the token signing keys; rotate as docs/deploy.md says',
    });
    new CfnOutput(this, 'DeliveryDeadLetterQueueUrl', {
      value: this.deliveryDeadLetters.queueUrl,
      description:
        'Run deliveries that failed in the deliverer itself five times (not endpoint failures, which are recorded on the run)',
    });
  }
}

/** Fixes a resource's logical id (STATEFUL_LOGICAL_IDS). */
const pin = (resource: CfnTable | CfnSecret | CfnQueue | CfnUserPool | CfnUserPoolDomain, logicalId: string): void =>
  resource.overrideLogicalId(logicalId);

/**
 * The one DynamoDB table, built from the same constants as the local `ensureTable`
 * (shared/store/table.ts): keys, the overloaded GSIs and the TTL attribute.
 */
const knapTable = (scope: Construct): Table => {
  const table = new Table(scope, 'Table', {
    partitionKey: { name: TABLE_KEYS.partition, type: AttributeType.STRING },
    sortKey: { name: TABLE_KEYS.sort, type: AttributeType.STRING },
    // On demand: no capacity to plan, nothing paid while idle.
    billingMode: BillingMode.PAY_PER_REQUEST,
    // TTL only tidies expired tokens; expiry is always checked in code.
    timeToLiveAttribute: TTL_ATTRIBUTE,
    pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
    // DeleteTable is refused until someone turns this off on purpose (console or update-table).
    deletionProtection: true,
    // Clients, tokens and Knaps outlive the stack: `cdk destroy` leaves the table behind.
    removalPolicy: RemovalPolicy.RETAIN,
  });
  for (const index of INDEXES) {
    table.addGlobalSecondaryIndex({
      indexName: index.name,
      partitionKey: { name: index.partition, type: AttributeType.STRING },
      sortKey: { name: index.sort, type: AttributeType.STRING },
      projectionType: ProjectionType[index.projection],
    });
  }
  pin(table.node.defaultChild as CfnTable, STATEFUL_LOGICAL_IDS.table);
  return table;
};

/** The token signing keys: `{"current": ..., "previous": ""}`, made once, rotated by hand (docs/deploy.md). */
const tokenKeysSecret = (scope: Construct): Secret => {
  const stack = Stack.of(scope);
  const secret = new Secret(scope, 'TokenKeySecret', {
    description: `${stack.stackName}: token signing keys (HMAC-SHA256), {"current": ..., "previous": ...}`,
    generateSecretString: {
      secretStringTemplate: JSON.stringify({ previous: '' }),
      generateStringKey: 'current',
      passwordLength: 64,
      excludePunctuation: true,
    },
    // A deleted key would make every live token unreadable; a restore needs it too.
    removalPolicy: RemovalPolicy.RETAIN,
  });
  pin(secret.node.defaultChild as CfnSecret, STATEFUL_LOGICAL_IDS.tokenKeys);
  Validations.of(secret).acknowledge({
    id: 'AwsSolutions-SMG4',
    reason:
      'The token signing keys rotate by hand, in two steps a rotation Lambda could not order safely: a new key goes ' +
      'in as "current" with the old one kept as "previous" (new tokens signed with the new key, live ones still ' +
      'verified), and "previous" is cleared only after the longest token life (30 days for refresh tokens). ' +
      'docs/deploy.md gives the commands; the functions re-read the secret every five minutes, so no deploy is needed.',
  });
  return secret;
};
