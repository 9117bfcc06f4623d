/**
 * The run's own temp folder, made by global-setup.ts and removed by global-teardown.ts:
 * whatever a suite writes there is gone when the run ends.
 */
export const testTmpDir = (): string => {
  const dir = process.env.KNAP_TEST_TMPDIR;
  if (!dir) throw new Error('KNAP_TEST_TMPDIR is not set: run the suites through jest.config.js (its globalSetup sets it)');
  return dir;
};
