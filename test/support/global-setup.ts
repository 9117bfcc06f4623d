import { execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * One temp folder for the run, inherited by jest's workers through the environment
 * (KNAP_TEST_TMPDIR, read by tmp.ts; spelled out because jest loads this file as CommonJS,
 * where the project's './x.js' imports of TypeScript files do not resolve).
 */
export default function globalSetup(): void {
  process.env.KNAP_TEST_TMPDIR = mkdtempSync(join(tmpdir(), 'knap-test-'));
  // The console's bundle (console/dist), which its function serves and the synth copies: built
  // from the sources under test, once per run.
  execFileSync(process.execPath, ['--import', 'tsx', join(__dirname, '..', '..', 'scripts', 'build-console.ts')], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}
