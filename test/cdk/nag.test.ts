import { type App, Validations } from 'aws-cdk-lib';
import cdkNag from 'cdk-nag';
import type { IConstruct } from 'constructs';
import { synthesize } from './synth.js';

/**
 * cdk-nag 3 runs as a CDK policy-validation plugin (bin/knap.ts registers it): any
 * AwsSolutions finding, error or warning, that is not acknowledged where it occurs fails
 * the synth. The acknowledgments live in lib/knap-stack.ts, each with its reason.
 */
let app: App;
beforeAll(() => {
  // With the plugin registered, as `npm run synth` does; the synthesis would throw on a finding.
  ({ app } = synthesize({ nag: true }));
});

const acknowledgments = (root: IConstruct): { path: string; id: string; reason: string }[] =>
  root.node.findAll().flatMap((construct) =>
    construct.node.metadata
      .filter((entry) => entry.type === Validations.ACKNOWLEDGED_RULES_METADATA_KEY)
      .flatMap((entry) =>
        Object.entries(entry.data as Record<string, string>).map(([id, reason]) => ({
          path: construct.node.path,
          id: id.replace(/^annotation::/i, ''),
          reason,
        })),
      ),
  );

describe('cdk-nag AwsSolutions', () => {
  test('no unacknowledged finding: no error, no warning', () => {
    const report = new cdkNag.AwsSolutionsChecks().validateScope(app);
    expect(
      report.violations.map(
        (violation) =>
          `${violation.severity} ${violation.ruleName}: ${violation.violatingResources.map((r) => r.constructPath).join(', ')}`,
      ),
    ).toEqual([]);
    expect(report.success).toBe(true);
  });

  test('the synthesis with the plugin succeeded and wrote an empty validation report', () => {
    const assembly = app.synth();
    expect(assembly.stacks).toHaveLength(1);
  });

  test('only deliberate acknowledgments, each where it applies, each with a real reason', () => {
    const found = acknowledgments(app);
    expect(found.map(({ path, id }) => `${id} ${path}`).sort()).toEqual([
      'AwsSolutions-APIG4 KnapApi/Api/HttpApi/GET--api--studio--knap-tools',
      'AwsSolutions-APIG4 KnapApi/Api/HttpApi/POST--api--oauth--token',
      'AwsSolutions-APIG4 KnapApi/Api/HttpApi/POST--api--studio--knap-tools',
      'AwsSolutions-L1 KnapApi/Functions/CreateKnap',
      'AwsSolutions-L1 KnapApi/Functions/ListKnaps',
      'AwsSolutions-L1 KnapApi/Functions/Token',
    ]);
    for (const { reason } of found) expect(reason.length).toBeGreaterThan(100);
  });
});
