/**
 * The peer of the cold-start measurement (scripts/measure-bundles.ts --bare): a Lambda that does
 * nothing but make one DynamoDB DocumentClient and send one GetItem, bundled as the project's
 * functions are (esbuild, ESM, minified, Node 22, the SDK inside, the same aliases and banner).
 * What a function costs above it is the project's own code.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';
import { BUNDLE_ALIASES, BUNDLE_TARGET, ESM_REQUIRE_BANNER } from './lambda-bundle.mjs';

const PROJECT_ROOT = resolve(import.meta.dirname, '..');

const ENTRY = `
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient, GetCommand } from '@aws-sdk/lib-dynamodb';
const documents = DynamoDBDocumentClient.from(new DynamoDBClient({}));
export const handler = async (event) =>
  documents.send(new GetCommand({ TableName: process.env.TABLE_NAME, Key: { pk: String(event?.pk), sk: 'META' } }));
`;

/** Writes the bare bundle into `dir` (`index.mjs`); returns its path. */
export const buildBareSdkBundle = async (dir: string): Promise<string> => {
  mkdirSync(dir, { recursive: true });
  const entry = join(dir, 'entry.mjs');
  writeFileSync(entry, ENTRY);
  const outfile = join(dir, 'index.mjs');
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: BUNDLE_TARGET,
    minify: true,
    mainFields: ['module', 'main'],
    banner: { js: ESM_REQUIRE_BANNER },
    alias: Object.fromEntries(Object.entries(BUNDLE_ALIASES).map(([from, to]) => [from, resolve(PROJECT_ROOT, to)])),
    nodePaths: [join(PROJECT_ROOT, 'node_modules')],
    logLevel: 'warning',
  });
  return outfile;
};
