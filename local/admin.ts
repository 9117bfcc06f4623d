/** `npm run -s admin -- <command>`: manage API clients in the table DYNAMODB_ENDPOINT/TABLE_NAME point at. */
import './quiet-sdk-warning.js';
import { defaultDeps } from '../shared/runtime.js';
import { runAdmin } from './admin-cli.js';

process.exitCode = await runAdmin(process.argv.slice(2), defaultDeps, {
  out: (line) => console.log(line),
  err: (line) => console.error(line),
});
