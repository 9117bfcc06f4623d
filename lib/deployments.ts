import type { IAlarm } from 'aws-cdk-lib/aws-cloudwatch';
import { LambdaApplication, LambdaDeploymentConfig, LambdaDeploymentGroup } from 'aws-cdk-lib/aws-codedeploy';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { Construct } from 'constructs';
import type { DeploymentPreference } from './config.js';
import { pascalCase } from './functions.js';
import type { KnapFunction } from './knap-function.js';

export interface KnapDeploymentsProps {
  /** Every function, by its route or job id. */
  readonly functions: ReadonlyMap<string, KnapFunction>;
  /** The alarms that roll back a function's deploy, by function id (its errors alarm). */
  readonly rollbackAlarms: ReadonlyMap<string, IAlarm>;
  readonly preference: DeploymentPreference;
}

/**
 * Safe deploys: each function's `live` alias is moved to its new version by CodeDeploy, as
 * `preference` says (a canary: 10% of calls for 5 minutes, then all), and moved back at once
 * when the function's errors alarm fires meanwhile, or when the deployment fails or is stopped.
 * One application and one service role for all; one deployment group per function.
 */
export class KnapDeployments extends Construct {
  readonly application: LambdaApplication;
  readonly role: Role;
  readonly groups = new Map<string, LambdaDeploymentGroup>();

  constructor(scope: Construct, id: string, props: KnapDeploymentsProps) {
    super(scope, id);
    this.application = new LambdaApplication(this, 'Application');
    // The deployment groups attach AWSCodeDeployRoleForLambdaLimited to it (see the cdk-nag acknowledgment).
    this.role = new Role(this, 'Role', {
      assumedBy: new ServicePrincipal('codedeploy.amazonaws.com'),
      description: 'CodeDeploy: shifts the live aliases of the Knap API functions and reads their alarms',
    });
    const config = LambdaDeploymentConfig[props.preference];
    for (const [functionId, fn] of props.functions) {
      const alarm = props.rollbackAlarms.get(functionId);
      if (!alarm) throw new Error(`Function "${functionId}" has no alarm to roll its deploys back on`);
      this.groups.set(
        functionId,
        new LambdaDeploymentGroup(this, pascalCase(functionId), {
          application: this.application,
          alias: fn.live,
          deploymentConfig: config,
          role: this.role,
          alarms: [alarm],
          autoRollback: { failedDeployment: true, stoppedDeployment: true, deploymentInAlarm: true },
        }),
      );
    }
  }
}
