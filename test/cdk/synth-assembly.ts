/**
 * `tsx test/cdk/synth-assembly.ts OUTDIR '{"nag":true,...}'`: builds the app with those
 * options (test/cdk/app.ts), synthesizes it into OUTDIR/assembly and writes OUTDIR/report.json
 * with what only the construct tree can tell (cdk-nag's findings, the acknowledgments).
 * test/cdk/synth.ts runs this once per set of options per test run, in plain Node: the
 * suites then read the files instead of each synthesizing under jest.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ensureConsoleBuilt } from '../../scripts/build-console.js';
import { type Acknowledgment, acknowledgments, buildApp, nagFindings, type SynthOptions } from './app.js';

export interface SynthReport {
  options: SynthOptions;
  /** The template's file name in the assembly folder (the stateless stack, KnapApi). */
  templateFile: string;
  /** The stateful stack's (KnapData). */
  dataTemplateFile: string;
  /** Why app.synth() threw (with cdk-nag registered, an unacknowledged finding does), if it did. */
  synthError?: string;
  stackCount?: number;
  /** With `nag`: AwsSolutions findings of the whole tree, and every acknowledgment in it. */
  nag?: { violations: string[]; success: boolean; acknowledgments: Acknowledgment[] };
}

const [outdir, json = '{}'] = process.argv.slice(2);
if (!outdir) throw new Error('usage: tsx test/cdk/synth-assembly.ts OUTDIR [OPTIONS_JSON]');
const options = JSON.parse(json) as SynthOptions;

// The console function's files (console/dist) are copied beside its bundle.
if (options.bundle) await ensureConsoleBuilt();
const { app, stack, data } = buildApp(options, join(outdir, 'assembly'));
const report: SynthReport = { options, templateFile: stack.templateFile, dataTemplateFile: data.templateFile };
try {
  report.stackCount = app.synth().stacks.length;
} catch (error) {
  // The template is written before the validation plugins run; the suites report the error.
  report.synthError = error instanceof Error ? error.message : String(error);
}
if (options.nag) report.nag = { ...nagFindings(app), acknowledgments: acknowledgments(app) };
writeFileSync(join(outdir, 'report.json'), `${JSON.stringify(report, null, 2)}\n`);
