// Jest runs our TypeScript as native ES modules (middy 6 ships ESM only), transformed by swc.
/** @type {import('jest').Config} */
export default {
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
  testMatch: ['<rootDir>/test/**/*.test.ts'],
  testTimeout: 30000,
};
