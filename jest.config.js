// Jest runs our TypeScript as native ES modules (middy 6 ships ESM only), transformed by swc.
const common = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
        module: { type: 'es6' },
        sourceMaps: 'inline',
      },
    ],
  },
  // Sources import siblings as './x.js' (NodeNext); map them back to the .ts files.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  setupFiles: ['<rootDir>/test/support/setup-env.ts'],
};

// Suites that synthesize the CDK app, bundle, or start child processes (npm start, the admin
// CLI, Chromium); a new suite that does belongs here too. Everything else is the fast tier.
const slow = [
  '/test/cdk/.*\\.test\\.ts$',
  '/test/e2e/admin-cli\\.test\\.ts$',
  '/test/e2e/docs-page\\.test\\.ts$',
  '/test/local/start\\.test\\.ts$',
];

/** @type {import('jest').Config} */
export default {
  testTimeout: 30000,
  projects: [
    // `npm run test:fast`: in process, on in-memory dynalite.
    { ...common, displayName: 'fast', testMatch: ['<rootDir>/test/**/*.test.ts'], testPathIgnorePatterns: slow },
    {
      ...common,
      displayName: 'slow',
      testRegex: slow,
      // One temp folder per run (the synthesized cloud assemblies), removed at the end.
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
  ],
};
