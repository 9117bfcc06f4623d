import { CfnOutput, Stack, type StackProps, Validations } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { KnapApi } from './api.js';
import { DEFAULT_SETTINGS, type KnapSettings } from './config.js';
import { KnapData } from './data.js';
import { KnapFunctions } from './functions.js';
import { KnapMonitoring } from './monitoring.js';
import { KnapRuns } from './runs.js';

export interface KnapStackProps extends StackProps {
  /** Deployment settings; each one missing takes its default (lib/config.ts). */
  readonly settings?: Partial<KnapSettings>;
}

/**
 * The Knap API: one table, one Lambda per route of functions/routes.ts, one HTTP API.
 * Environment-agnostic (no account, no region, no lookups), so it synthesizes offline.
 */
export class KnapStack extends Stack {
  readonly settings: KnapSettings;
  readonly data: KnapData;
  readonly functions: KnapFunctions;
  readonly api: KnapApi;
  readonly runs: KnapRuns;
  readonly monitoring: KnapMonitoring;

  constructor(scope: Construct, id: string, props: KnapStackProps = {}) {
    super(scope, id, {
      description: 'Knap API: HTTP API, one Lambda per route, one DynamoDB table, a run dispatcher and a delivery queue',
      ...props,
    });
    this.settings = { ...DEFAULT_SETTINGS, ...props.settings };

    this.data = new KnapData(this, 'Data');
    this.functions = new KnapFunctions(this, 'Functions', { data: this.data, settings: this.settings });
    this.api = new KnapApi(this, 'Api', { settings: this.settings, functions: this.functions.byRoute });
    this.runs = new KnapRuns(this, 'Runs', {
      data: this.data,
      settings: this.settings,
      routeFunctions: this.functions.byRoute,
    });
    this.monitoring = new KnapMonitoring(this, 'Monitoring', {
      settings: this.settings,
      functions: new Map([...[...this.functions.byRoute].map(([route, fn]) => [route.id, fn] as const), ...this.runs.byJob]),
      httpApi: this.api.httpApi,
      table: this.data.table,
      deliveryDeadLetters: this.runs.deadLetterQueue,
    });

    new CfnOutput(this, 'ApiUrl', { value: this.api.url, description: 'Base URL of the Knap API' });
    new CfnOutput(this, 'DeliveryDeadLetterQueueUrl', {
      value: this.runs.deadLetterQueue.queueUrl,
      description:
        'Run deliveries that failed in the deliverer itself five times (not endpoint failures, which are recorded on the run)',
    });
    new CfnOutput(this, 'AlarmTopicArn', {
      value: this.monitoring.topic.topicArn,
      description: 'Every alarm notifies this SNS topic (subscribe more than alarmEmail here)',
    });
    new CfnOutput(this, 'TableName', {
      value: this.data.table.tableName,
      description: 'DynamoDB table (TABLE_NAME for the admin CLI); retained when the stack is deleted',
    });

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
          'authorizer cannot do; a Lambda authorizer would add a second cold start and a second token read per request.',
      });
    }
    for (const fn of [...this.functions.byRoute.values(), ...this.runs.byJob.values()]) {
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
