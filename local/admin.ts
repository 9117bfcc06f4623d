/** `npm run -s admin -- <command>`: manage API clients in the table DYNAMODB_ENDPOINT/TABLE_NAME point at. */
import './quiet-sdk-warning.js';
import { basename } from 'node:path';
import { defaultDeps } from '../shared/runtime.js';
import { AdminError } from '../shared/services/admin-service.js';
import { ALL_STORES } from '../shared/store/dynamo-repository.js';
import { deployedRegion, runAdmin } from './admin-cli.js';
import { badEndpoint } from './connection-errors.js';

process.exitCode = await runAdmin(
  process.argv.slice(2),
  async () => {
    const endpoint = process.env.DYNAMODB_ENDPOINT;
    const endpointProblem = endpoint && badEndpoint(endpoint);
    if (endpointProblem) throw new AdminError(endpointProblem);
    // A local DynamoDB takes any region; the deployed table's must come from the admin's AWS settings.
    if (!endpoint) process.env.AWS_REGION = await deployedRegion();
    return defaultDeps({ stores: ALL_STORES });
  },
  {
    out: (line) => console.log(line),
    err: (line) => console.error(line),
  },
  {
    // Installed from the package (`knap-admin`), its usage says so; in a clone, the npm script.
    program: basename(process.argv[1] ?? '').startsWith('knap-admin') ? 'knap-admin' : undefined,
  },
);
