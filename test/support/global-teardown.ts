import { rmSync } from 'node:fs';

/** Nothing the suites wrote in the run's temp folder (global-setup.ts) outlives the run. */
export default function globalTeardown(): void {
  const dir = process.env.KNAP_TEST_TMPDIR;
  if (dir) rmSync(dir, { recursive: true, force: true });
  delete process.env.KNAP_TEST_TMPDIR;
}
