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
