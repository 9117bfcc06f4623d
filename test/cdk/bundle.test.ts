import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { jobs } from '../../functions/jobs.js';
import { routes } from '../../functions/routes.js';
import { functionLogicalId } from '../../lib/functions.js';
import { ESM_REQUIRE_BANNER } from '../../lib/knap-function.js';
import { type BundleMeasurement, measureBundles } from '../../scripts/measure-bundles.js';
import { SYNTH_TIMEOUT_MS, synthesized } from './synth.js';

/** The real bundles, built once by the local esbuild exactly as `npm run synth` builds them. */
const ONE_MB = 1024 * 1024;
let bundles: Map<string, BundleMeasurement>;

beforeAll(async () => {
  const { outdir } = await synthesized();
  bundles = new Map(measureBundles(outdir, 1).map((measurement) => [measurement.logicalId, measurement]));
}, SYNTH_TIMEOUT_MS);

/** Every function, with the files its route copies beside the bundle (the docs page's script and style). */
const functionsWithAssets = [
  ...routes.map(
    (route) => [route.id, functionLogicalId(route.id), (route.assets ?? []).map((asset) => basename(asset))] as const,
  ),
  ...jobs.map((job) => [job.id, functionLogicalId(job.id), [] as string[]] as const),
];

/** Functions that read no table and handle no token: no SDK at all. */
const PUBLIC = ['oauth-metadata', 'openapi', 'docs', 'docs-asset'];
/** Functions that queue runs for delivery, the only ones with the SQS client. */
const QUEUES_RUNS = ['start-run', 'report-meeting', 'dispatch-runs', 'deliver-runs'];
/** The jobs handle no token: no Secrets Manager client. */
const JOBS = jobs.map((job) => job.id);

describe.each(functionsWithAssets)('%s bundle', (id, logicalId, assets) => {
  const bundle = () => bundles.get(logicalId)!;
  const code = () => readFileSync(join(bundle().assetPath, 'index.mjs'), 'utf8');

  test('the asset is index.mjs and its map, under 1 MB together, and the files the route declares', () => {
    expect(readdirSync(bundle().assetPath).sort()).toEqual(['index.mjs', 'index.mjs.map', ...assets].sort());
    const codeBytes = ['index.mjs', 'index.mjs.map'].reduce(
      (sum, file) => sum + statSync(join(bundle().assetPath, file)).size,
      0,
    );
    expect(codeBytes).toBeLessThan(ONE_MB);
  });

  test('ESM with the createRequire banner; the AWS SDK inside where the function uses it, only the parts it uses', () => {
    const text = code();
    expect(text.slice(0, ESM_REQUIRE_BANNER.length)).toBe(ESM_REQUIRE_BANNER);
    // No import of the SDK is left for the runtime to resolve (it may still be named in error messages).
    expect(text.match(/\bfrom\s*["']@aws-sdk\/[^"']*|\bimport\s*\(\s*["']@aws-sdk\/[^"']*/g)).toBeNull();
    const uses = (service: string) => (PUBLIC.includes(id) ? false : service !== 'sqs' || QUEUES_RUNS.includes(id));
    expect(text.includes('DynamoDB_20120810')).toBe(uses('dynamodb'));
    expect(text.includes('AmazonSQS')).toBe(uses('sqs'));
    expect(text.includes('secretsmanager')).toBe(uses('dynamodb') && !JOBS.includes(id));
    // Credentials come from the environment: none of the default chain's other providers.
    expect(text).not.toMatch(/child_process|AWS_SSO_|credential_process/);
    expect(text.slice(-40)).toMatch(/\/\/# sourceMappingURL=index\.mjs\.map\s*$/);
  });

  test('the source map covers our code only', () => {
    const map = JSON.parse(readFileSync(join(bundle().assetPath, 'index.mjs.map'), 'utf8')) as {
      sources: string[];
      sourcesContent?: unknown;
    };
    expect(map.sources.length).toBeGreaterThan(0);
    expect(map.sources.filter((source) => source.includes('node_modules'))).toEqual([]);
    expect(map.sourcesContent).toBeUndefined();
  });

  test('loads in a fresh node process and exports the handler', () => {
    const type = execFileSync(
      process.execPath,
      [
        '--input-type=module',
        '-e',
        'const m = await import(process.argv[1]); process.stdout.write(typeof m.handler);',
        join(bundle().assetPath, 'index.mjs'),
      ],
      {
        env: { PATH: process.env.PATH, TABLE_NAME: 'knap', AWS_REGION: 'eu-west-1', NODE_OPTIONS: '--enable-source-maps' },
        encoding: 'utf8',
      },
    );
    expect(type).toBe('function');
  });
});
