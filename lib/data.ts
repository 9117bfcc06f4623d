import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, BillingMode, type ITable, ProjectionType, Table } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { INDEXES, TABLE_KEYS, TTL_ATTRIBUTE } from '../shared/store/table.js';

export interface KnapDataProps {
  /**
   * Adopt this existing table instead of creating one: a table restored from point-in-time
   * recovery (docs/deploy.md). The stack then neither owns nor changes it.
   */
  readonly tableName?: string | null;
}

/**
 * The one DynamoDB table, built from the same constants as the local `ensureTable`
 * (shared/store/table.ts): keys, the overloaded GSIs and the TTL attribute.
 */
export class KnapData extends Construct {
  readonly table: ITable;
  /** The stack's own table; undefined when an existing one is adopted by name. */
  readonly ownTable?: Table;

  constructor(scope: Construct, id: string, props: KnapDataProps = {}) {
    super(scope, id);
    if (props.tableName) {
      this.table = Table.fromTableAttributes(this, 'Table', {
        tableName: props.tableName,
        // The functions name each index they query (`<table>/index/<name>`), never `index/*`.
        grantIndexPermissions: false,
      });
      return;
    }
    const table = new Table(this, 'Table', {
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
    this.table = table;
    this.ownTable = table;
  }
}
