import '../../local/quiet-sdk-warning.js';
import { propertySeed } from './property-seed.js';

// Handlers log through Powertools; tests read behaviour, not log lines on stdout.
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';

// This file and the test file share one module registry, so the property tests' own
// `import fc from 'fast-check'` sees this configuration. Imported only when there is a
// seed to set: most suites do not use fast-check.
const seed = propertySeed();
if (seed !== undefined) {
  const { default: fc } = await import('fast-check');
  fc.configureGlobal({ ...fc.readConfigureGlobal(), seed });
}
