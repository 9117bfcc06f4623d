/**
 * `npm run test:dynamodb-local`: the integration and end-to-end suites again, against
 * Amazon's DynamoDB Local instead of dynalite, so nothing leans on one emulator's quirks.
 * Needs `java` (17 or newer) on the PATH.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { freePort } from '../local/ports.js';
import { startDynamoDbLocal } from './dynamodb-local.js';

const local = await startDynamoDbLocal(await freePort());
console.log(`DynamoDB Local on ${local.endpoint}`);
let status = 1;
try {
  const jest = spawn(
    process.execPath,
    ['--experimental-vm-modules', 'node_modules/jest/bin/jest.js', 'test/integration', 'test/e2e', ...process.argv.slice(2)],
    { stdio: 'inherit', env: { ...process.env, TEST_DYNAMODB_ENDPOINT: local.endpoint } },
  );
  const [code] = (await once(jest, 'exit')) as [number | null];
  status = code ?? 1;
} finally {
  await local.stop();
}
process.exit(status);
