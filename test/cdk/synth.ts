import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Template } from 'aws-cdk-lib/assertions';
import { testTmpDir } from '../support/tmp.js';
import type { SynthOptions } from './app.js';
import type { SynthReport } from './synth-assembly.js';

const PROJECT_ROOT = fileURLToPath(new URL('../..', import.meta.url));
const SCRIPT = fileURLToPath(new URL('./synth-assembly.ts', import.meta.url));
const run = promisify(execFile);

/**
 * For the beforeAll that synthesizes. Bundling is one esbuild run (through npx) per function,
 * 15 of them now: about a minute on two busy cores, so this leaves room to grow.
 */
export const SYNTH_TIMEOUT_MS = 300_000;

/** What `npm run synth` does: bundles built by esbuild, cdk-nag registered. */
export const AS_NPM_RUN_SYNTH: SynthOptions = { bundle: true, nag: true };

export interface Synthesized {
  /** The stateless stack's template (KnapApi). */
  template: Template;
  /** The stateful stack's template (KnapData). */
  dataTemplate: Template;
  /** The cloud assembly folder: templates, manifest, asset folders. */
  outdir: string;
  report: SynthReport;
}

const sortedKeys = (record: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));

/**
 * The app built with these options (test/cdk/app.ts), synthesized once per test run however
 * many suites ask: the first one runs test/cdk/synth-assembly.ts in plain Node (not under
 * jest's slower module loader), into the run's temp folder, which jest's globalTeardown
 * removes; later ones read the files.
 */
export const synthesized = async (options: SynthOptions = AS_NPM_RUN_SYNTH): Promise<Synthesized> => {
  const canonical = { bundle: Boolean(options.bundle), nag: Boolean(options.nag), context: sortedKeys(options.context ?? {}) };
  const key = createHash('sha256').update(JSON.stringify(canonical)).digest('hex').slice(0, 16);
  const root = join(testTmpDir(), 'synth');
  const dir = join(root, key);
  if (!existsSync(join(dir, 'report.json'))) {
    mkdirSync(root, { recursive: true });
    // Written aside and renamed into place, so a suite in another worker never reads half an assembly.
    const staging = mkdtempSync(`${dir}-`);
    try {
      await run(process.execPath, ['--import', 'tsx', SCRIPT, staging, JSON.stringify(canonical)], {
        cwd: PROJECT_ROOT,
        // jest's VM-modules flag only adds a warning there; tsx's cache and any other temp file stay in our folder.
        env: {
          ...process.env,
          NODE_OPTIONS: (process.env.NODE_OPTIONS ?? '').replace('--experimental-vm-modules', '').trim(),
          TMPDIR: staging,
        },
        maxBuffer: 64 * 1024 * 1024,
        // Fails with the synthesis's own output before jest's hook timeout says less.
        timeout: SYNTH_TIMEOUT_MS - 10_000,
      });
      renameSync(staging, dir);
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      // Another worker may have renamed its copy into place first; otherwise this is a real failure.
      if (!existsSync(join(dir, 'report.json'))) throw error;
    }
  }
  const report = JSON.parse(readFileSync(join(dir, 'report.json'), 'utf8')) as SynthReport;
  const outdir = join(dir, 'assembly');
  const templatePath = join(outdir, report.templateFile);
  if (!existsSync(templatePath)) throw new Error(`synthesis wrote no template: ${report.synthError ?? 'no error given'}`);
  const read = (file: string) => Template.fromJSON(JSON.parse(readFileSync(join(outdir, file), 'utf8')));
  return { template: read(report.templateFile), dataTemplate: read(report.dataTemplateFile), outdir, report };
};

// CloudFormation properties are free-form JSON whose shape each test asserts on.
// biome-ignore lint/suspicious/noExplicitAny: template JSON has no static type
type Resources = Record<string, { Type: string; Properties?: Record<string, any>; [key: string]: unknown }>;

export const resourcesOf = (template: Template, type: string): Resources => template.findResources(type) as Resources;
