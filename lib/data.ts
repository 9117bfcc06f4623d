import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, ProjectionType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { INDEXES, TABLE_KEYS, TTL_ATTRIBUTE } from '../shared/store/table.js';

/**
 * The one DynamoDB table, built from the same constants as the local `ensureTable`
 * (shared/store/table.ts): keys, the overloaded GSIs and the TTL attribute.
 */
export class KnapData extends Construct {
  readonly table: Table;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    this.table = new Table(this, 'Table', {
      partitionKey: { name: TABLE_KEYS.partition, type: AttributeType.STRING },
      sortKey: { name: TABLE_KEYS.sort, type: AttributeType.STRING },
      // On demand: no capacity to plan, nothing paid while idle.
      billingMode: BillingMode.PAY_PER_REQUEST,
      // TTL only tidies expired tokens; expiry is always checked in code.
      timeToLiveAttribute: TTL_ATTRIBUTE,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      // Clients, tokens and Knaps outlive the stack: `cdk destroy` leaves the table behind.
      removalPolicy: RemovalPolicy.RETAIN,
    });
    for (const index of INDEXES) {
      this.table.addGlobalSecondaryIndex({
        indexName: index.name,
        partitionKey: { name: index.partition, type: AttributeType.STRING },
        sortKey: { name: index.sort, type: AttributeType.STRING },
        projectionType: ProjectionType[index.projection],
      });
    }
  }
}
