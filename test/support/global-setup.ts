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
}
