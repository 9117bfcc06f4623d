import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SYNTH_TIMEOUT_MS, synthesized } from './synth.js';
import type { SynthReport } from './synth-assembly.js';

/**
 * cdk-nag 3 runs as a CDK policy-validation plugin (bin/knap.ts registers it): any
 * AwsSolutions finding, error or warning, that is not acknowledged where it occurs fails
 * the synth. The acknowledgments live in lib/knap-stack.ts, each with its reason.
 * The checks run on the construct tree in test/cdk/synth-assembly.ts, in the one synthesis
 * all the CDK suites share; this suite asserts on what they found.
 */
let report: SynthReport;
let nag: NonNullable<SynthReport['nag']>;
let outdir: string;
beforeAll(async () => {
  // With the plugin registered, as `npm run synth` does; the synthesis would throw on a finding.
  ({ report, outdir } = await synthesized());
  nag = report.nag!;
}, SYNTH_TIMEOUT_MS);

describe('cdk-nag AwsSolutions', () => {
  test('no unacknowledged finding: no error, no warning', () => {
    expect(report.options.nag).toBe(true);
    expect(nag.violations).toEqual([]);
    expect(nag.success).toBe(true);
  });

  test('the synthesis with the plugin succeeded and wrote an empty validation report', () => {
    expect(report.synthError).toBeUndefined();
    expect(report.stackCount).toBe(1);
    const validation = JSON.parse(readFileSync(join(outdir, 'validation-report.json'), 'utf8')) as { pluginReports: unknown[] };
    expect(validation.pluginReports).toEqual([]);
  });

  test('only deliberate acknowledgments, each where it applies, each with a real reason', () => {
    const found = nag.acknowledgments;
    expect(found.map(({ path, id }) => `${id} ${path}`).sort()).toEqual([
      'AwsSolutions-APIG4 KnapApi/Api/HttpApi/DELETE--api--admin--clients--{client_id}',
      'AwsSolutions-APIG4 KnapApi/Api/HttpApi/DELETE--api--admin--webhooks--{endpoint_id}',
      'AwsSolutions-APIG4 KnapApi/Api/HttpApi/DELETE--api--studio--knap-tools--{uuid}',
      'AwsSolutions-APIG4 KnapApi/Api/HttpApi/GET--.well-known--oauth-authorization-server',
      'AwsSolutions-APIG4 KnapApi/Api/HttpApi/GET--api--admin--audit-events',
      'AwsSolutions-APIG4 KnapApi/Api/HttpApi/GET--api--admin--clients',
      'AwsSolutions-APIG4 KnapApi/Api/HttpApi/GET--api--admin--runs',
      'AwsSolutions-APIG4 KnapApi/Api/HttpApi/GET--api--admin--webhooks',
      'AwsSolutions-APIG4 KnapApi/Api/HttpApi/GET--api--docs',
      'AwsSolutions-APIG4 KnapApi/Api/HttpApi/GET--api--docs--assets--{file}',
      'AwsSolutions-APIG4 KnapApi/Api/HttpApi/GET--api--openapi.json',
      'AwsSolutions-APIG4 KnapApi/Api/HttpApi/GET--api--studio--knap-tools',
      'AwsSolutions-APIG4 KnapApi/Api/HttpApi/GET--api--studio--knap-tools--{uuid}',
      'AwsSolutions-APIG4 KnapApi/Api/HttpApi/GET--api--studio--knap-tools--{uuid}--runs',
      'AwsSolutions-APIG4 KnapApi/Api/HttpApi/GET--console',
      'AwsSolutions-APIG4 KnapApi/Api/HttpApi/PATCH--api--admin--clients--{client_id}',
      'AwsSolutions-APIG4 KnapApi/Api/HttpApi/PATCH--api--studio--knap-tools--{uuid}',
      'AwsSolutions-APIG4 KnapApi/Api/HttpApi/POST--api--admin--clients',
      'AwsSolutions-APIG4 KnapApi/Api/HttpApi/POST--api--admin--clients--{client_id}--secret',
      'AwsSolutions-APIG4 KnapApi/Api/HttpApi/POST--api--admin--runs--{run_id}--redeliver',
      'AwsSolutions-APIG4 KnapApi/Api/HttpApi/POST--api--admin--webhooks',
      'AwsSolutions-APIG4 KnapApi/Api/HttpApi/POST--api--oauth--introspect',
      'AwsSolutions-APIG4 KnapApi/Api/HttpApi/POST--api--oauth--revoke',
      'AwsSolutions-APIG4 KnapApi/Api/HttpApi/POST--api--oauth--token',
      'AwsSolutions-APIG4 KnapApi/Api/HttpApi/POST--api--studio--knap-tools',
      'AwsSolutions-APIG4 KnapApi/Api/HttpApi/POST--api--studio--knap-tools--{uuid}--runs',
      'AwsSolutions-APIG4 KnapApi/Api/HttpApi/POST--api--studio--meeting-transcriptions',
      'AwsSolutions-APIG4 KnapApi/Api/HttpApi/POST--api--studio--schedules--preview',
      // The admins' user pool: MFA is a setting, threat protection a paid plan (lib/admin-identity.ts).
      'AwsSolutions-COG2 KnapApi/Admins/AdminUserPool',
      'AwsSolutions-COG3 KnapApi/Admins/AdminUserPool',
      'AwsSolutions-COG8 KnapApi/Admins/AdminUserPool',
      'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited] KnapApi/Deployments/Role',
      // X-Ray's trace writes have no resource type: `Resource: *` on each role (lib/knap-function.ts).
      'AwsSolutions-IAM5[Resource::*] KnapApi/Functions/AdminAddWebhookRole',
      'AwsSolutions-IAM5[Resource::*] KnapApi/Functions/AdminAuditEventsRole',
      'AwsSolutions-IAM5[Resource::*] KnapApi/Functions/AdminCreateClientRole',
      'AwsSolutions-IAM5[Resource::*] KnapApi/Functions/AdminListClientsRole',
      'AwsSolutions-IAM5[Resource::*] KnapApi/Functions/AdminListRunsRole',
      'AwsSolutions-IAM5[Resource::*] KnapApi/Functions/AdminListWebhooksRole',
      'AwsSolutions-IAM5[Resource::*] KnapApi/Functions/AdminRedeliverRunRole',
      'AwsSolutions-IAM5[Resource::*] KnapApi/Functions/AdminRegenerateSecretRole',
      'AwsSolutions-IAM5[Resource::*] KnapApi/Functions/AdminRemoveWebhookRole',
      'AwsSolutions-IAM5[Resource::*] KnapApi/Functions/AdminRevokeClientRole',
      'AwsSolutions-IAM5[Resource::*] KnapApi/Functions/AdminUpdateClientRole',
      'AwsSolutions-IAM5[Resource::*] KnapApi/Functions/ConsoleRole',
      'AwsSolutions-IAM5[Resource::*] KnapApi/Functions/CreateKnapRole',
      'AwsSolutions-IAM5[Resource::*] KnapApi/Functions/DeleteKnapRole',
      'AwsSolutions-IAM5[Resource::*] KnapApi/Functions/DocsAssetRole',
      'AwsSolutions-IAM5[Resource::*] KnapApi/Functions/DocsRole',
      'AwsSolutions-IAM5[Resource::*] KnapApi/Functions/GetKnapRole',
      'AwsSolutions-IAM5[Resource::*] KnapApi/Functions/IntrospectTokenRole',
      'AwsSolutions-IAM5[Resource::*] KnapApi/Functions/ListKnapsRole',
      'AwsSolutions-IAM5[Resource::*] KnapApi/Functions/ListRunsRole',
      'AwsSolutions-IAM5[Resource::*] KnapApi/Functions/OauthMetadataRole',
      'AwsSolutions-IAM5[Resource::*] KnapApi/Functions/OpenapiRole',
      'AwsSolutions-IAM5[Resource::*] KnapApi/Functions/PreviewScheduleRole',
      'AwsSolutions-IAM5[Resource::*] KnapApi/Functions/ReportMeetingRole',
      'AwsSolutions-IAM5[Resource::*] KnapApi/Functions/RevokeTokenRole',
      'AwsSolutions-IAM5[Resource::*] KnapApi/Functions/StartRunRole',
      'AwsSolutions-IAM5[Resource::*] KnapApi/Functions/TokenRole',
      'AwsSolutions-IAM5[Resource::*] KnapApi/Functions/UpdateKnapRole',
      'AwsSolutions-IAM5[Resource::*] KnapApi/Runs/DeliverRunsRole',
      'AwsSolutions-IAM5[Resource::*] KnapApi/Runs/DispatchRunsRole',
      'AwsSolutions-L1 KnapApi/Functions/AdminAddWebhook',
      'AwsSolutions-L1 KnapApi/Functions/AdminAuditEvents',
      'AwsSolutions-L1 KnapApi/Functions/AdminCreateClient',
      'AwsSolutions-L1 KnapApi/Functions/AdminListClients',
      'AwsSolutions-L1 KnapApi/Functions/AdminListRuns',
      'AwsSolutions-L1 KnapApi/Functions/AdminListWebhooks',
      'AwsSolutions-L1 KnapApi/Functions/AdminRedeliverRun',
      'AwsSolutions-L1 KnapApi/Functions/AdminRegenerateSecret',
      'AwsSolutions-L1 KnapApi/Functions/AdminRemoveWebhook',
      'AwsSolutions-L1 KnapApi/Functions/AdminRevokeClient',
      'AwsSolutions-L1 KnapApi/Functions/AdminUpdateClient',
      'AwsSolutions-L1 KnapApi/Functions/Console',
      'AwsSolutions-L1 KnapApi/Functions/CreateKnap',
      'AwsSolutions-L1 KnapApi/Functions/DeleteKnap',
      'AwsSolutions-L1 KnapApi/Functions/Docs',
      'AwsSolutions-L1 KnapApi/Functions/DocsAsset',
      'AwsSolutions-L1 KnapApi/Functions/GetKnap',
      'AwsSolutions-L1 KnapApi/Functions/IntrospectToken',
      'AwsSolutions-L1 KnapApi/Functions/ListKnaps',
      'AwsSolutions-L1 KnapApi/Functions/ListRuns',
      'AwsSolutions-L1 KnapApi/Functions/OauthMetadata',
      'AwsSolutions-L1 KnapApi/Functions/Openapi',
      'AwsSolutions-L1 KnapApi/Functions/PreviewSchedule',
      'AwsSolutions-L1 KnapApi/Functions/ReportMeeting',
      'AwsSolutions-L1 KnapApi/Functions/RevokeToken',
      'AwsSolutions-L1 KnapApi/Functions/StartRun',
      'AwsSolutions-L1 KnapApi/Functions/Token',
      'AwsSolutions-L1 KnapApi/Functions/UpdateKnap',
      'AwsSolutions-L1 KnapApi/Runs/DeliverRuns',
      'AwsSolutions-L1 KnapApi/Runs/DispatchRuns',
      'AwsSolutions-SMG4 KnapApi/TokenKeys',
      // The dispatch queue's messages hold no work of their own: no dead-letter queue (lib/runs.ts).
      'AwsSolutions-SQS3 KnapApi/Runs/DispatchShares',
    ]);
    for (const { reason } of found) expect(reason.length).toBeGreaterThan(100);
  });
});
