// Jest runs our TypeScript as native ES modules (middy 6 ships ESM only), transformed by swc.
const common = {
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        // Import attributes kept (`with { type: 'json' }`): Jest refuses JSON imports without them.
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022', experimental: { keepImportAttributes: true } },
        module: { type: 'es6' },
        sourceMaps: 'inline',
      },
    ],
  },
  // Sources import siblings as './x.js' (NodeNext); map them back to the .ts files.
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  setupFiles: ['<rootDir>/test/support/setup-env.ts'],
};

// The fast tier (`npm run test:fast`): unit and integration suites, in process, on in-memory
// dynalite. Everything else (end to end over HTTP, local invocation of every event, the local
// stack and its processes, the CDK synthesis, Chromium, the real clock) is the slow tier;
// `npm test` runs both.
const fast = ['<rootDir>/test/unit/**/*.test.ts', '<rootDir>/test/integration/**/*.test.ts'];

/** @type {import('jest').Config} */
export default {
  testTimeout: 30000,
  projects: [
    { ...common, displayName: 'fast', testMatch: fast },
    {
      ...common,
      displayName: 'slow',
      testMatch: ['<rootDir>/test/**/*.test.ts'],
      testPathIgnorePatterns: ['/test/unit/', '/test/integration/'],
      // One temp folder per run (the synthesized cloud assemblies), removed at the end.
      globalSetup: '<rootDir>/test/support/global-setup.ts',
      globalTeardown: '<rootDir>/test/support/global-teardown.ts',
    },
  ],
};
