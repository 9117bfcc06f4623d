/**
 * Lambda bundles only: stands in for `fast-sha256` (esbuild alias in scripts/lambda-bundle.mjs),
 * which `standardwebhooks` signs with: its HMAC in pure JavaScript is 6 KB parsed at every cold
 * start of the deliverer and slower per message than Node's own. Only `hmac` is used;
 * test/cdk/bundle-aliases.test.ts pins that `standardwebhooks` is the only importer, and
 * test/unit/lambda-stand-ins.test.ts that the signatures are the package's, byte for byte.
 */
import { createHmac } from 'node:crypto';

export const hmac = (key: Uint8Array, data: Uint8Array): Uint8Array =>
  new Uint8Array(createHmac('sha256', key).update(data).digest());
