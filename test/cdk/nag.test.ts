import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { jobs } from '../../functions/jobs.js';
import { FUNCTIONS, routes } from '../../functions/routes.js';
import { pascalCase } from '../../lib/functions.js';
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
    expect(report.stackCount).toBe(2);
    const validation = JSON.parse(readFileSync(join(outdir, 'validation-report.json'), 'utf8')) as { pluginReports: unknown[] };
    expect(validation.pluginReports).toEqual([]);
  });

  test('only deliberate acknowledgments, each where it applies, each with a real reason', () => {
    const found = nag.acknowledgments;
    // Every API Gateway route, the routes of the table and the greedy ones of the areas: authorization in the function.
    const routeKeys = [
      ...routes.map((route) => `${route.method}${route.path.replaceAll('/', '--')}`),
      ...FUNCTIONS.flatMap((fn) => (fn.greedy ?? []).map((prefix) => `ANY${prefix.replaceAll('/', '--')}--{proxy+}`)),
    ];
    const functionPaths = [
      ...FUNCTIONS.map((fn) => `KnapApi/Functions/${pascalCase(fn.id)}`),
      ...jobs.map((job) => `KnapApi/Runs/${pascalCase(job.id)}`),
    ];
    expect(found.map(({ path, id }) => `${id} ${path}`).sort()).toEqual(
      [
        ...routeKeys.map((key) => `AwsSolutions-APIG4 KnapApi/Api/HttpApi/${key}`),
        // The admins' user pool, in the data stack: MFA is a setting, threat protection a paid plan (lib/admin-identity.ts).
        'AwsSolutions-COG2 KnapData/AdminUserPool',
        'AwsSolutions-COG3 KnapData/AdminUserPool',
        'AwsSolutions-COG8 KnapData/AdminUserPool',
        'AwsSolutions-IAM4[Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AWSCodeDeployRoleForLambdaLimited] KnapApi/Deployments/Role',
        // X-Ray's trace writes have no resource type: `Resource: *` on each role (lib/knap-function.ts).
        ...functionPaths.map((path) => `AwsSolutions-IAM5[Resource::*] ${path}Role`),
        ...functionPaths.map((path) => `AwsSolutions-L1 ${path}`),
        'AwsSolutions-SMG4 KnapData/TokenKeySecret',
        // The dispatch queue's messages hold no work of their own: no dead-letter queue (lib/data.ts).
        'AwsSolutions-SQS3 KnapData/DispatchShareQueue',
      ].sort(),
    );
    expect(found.filter(({ id }) => id === 'AwsSolutions-APIG4')).toHaveLength(routeKeys.length);
    for (const { reason } of found) expect(reason.length).toBeGreaterThan(100);
  });
});
