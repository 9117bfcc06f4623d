/**
 * Sizes and module init times of the Lambda bundles in cdk.out (run `npm run synth` first):
 *
 *   npx tsx scripts/measure-bundles.ts [cdk.out] [runs]
 *
 * For each function of the template: its asset folder, the bundle (index.mjs), its source
 * map, the whole asset unzipped and deflated (about what Lambda stores as the code size),
 * and the time to `import()` the bundle in a fresh `node` process (median of `runs`), with
 * the function's own NODE_OPTIONS (source maps on) and TABLE_NAME set, as at a cold start.
 */
import '../local/quiet-sdk-warning.js';
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { deflateRawSync } from 'node:zlib';

interface LambdaResource {
  Type: string;
  Properties: { Environment?: { Variables?: Record<string, unknown> } };
  Metadata?: Record<string, string>;
}

export interface BundleMeasurement {
  logicalId: string;
  assetPath: string;
  bundleBytes: number;
  mapBytes: number;
  assetBytes: number;
  deflatedBytes: number;
  initMs: number[];
}

const IMPORT_TIMER = `
const started = performance.now();
await import(process.argv[1]);
process.stdout.write(String(performance.now() - started));
`;

/** Milliseconds to import the bundle in a fresh node process, `runs` times. */
export const initTimes = (bundle: string, nodeOptions: string, runs: number): number[] =>
  Array.from({ length: runs }, () =>
    Number(
      execFileSync(process.execPath, ['--input-type=module', '-e', IMPORT_TIMER, bundle], {
        env: {
          PATH: process.env.PATH,
          TABLE_NAME: 'knap',
          // As in Lambda: modules loaded only there (the X-Ray capture of shared/store/dynamo-client.ts) count too.
          AWS_LAMBDA_FUNCTION_NAME: 'measure-bundles',
          AWS_REGION: 'eu-west-1',
          NODE_OPTIONS: nodeOptions,
          AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
        },
        encoding: 'utf8',
      }),
    ),
  );

export const measureBundles = (outdir: string, runs = 5): BundleMeasurement[] => {
  const templates = readdirSync(outdir).filter((name) => name.endsWith('.template.json'));
  return templates.flatMap((name) => {
    const template = JSON.parse(readFileSync(join(outdir, name), 'utf8')) as { Resources: Record<string, LambdaResource> };
    return Object.entries(template.Resources)
      .filter(([, resource]) => resource.Type === 'AWS::Lambda::Function' && resource.Metadata?.['aws:asset:path'])
      .map(([logicalId, resource]) => {
        const assetPath = join(outdir, resource.Metadata!['aws:asset:path']!);
        const files = readdirSync(assetPath).map((file) => join(assetPath, file));
        const size = (file: string) => (files.includes(file) ? statSync(file).size : 0);
        const bundle = join(assetPath, 'index.mjs');
        const nodeOptions = String(resource.Properties.Environment?.Variables?.NODE_OPTIONS ?? '');
        return {
          logicalId,
          assetPath,
          bundleBytes: size(bundle),
          mapBytes: size(`${bundle}.map`),
          assetBytes: files.reduce((total, file) => total + statSync(file).size, 0),
          deflatedBytes: files.reduce((total, file) => total + deflateRawSync(readFileSync(file), { level: 9 }).length, 0),
          initMs: initTimes(bundle, nodeOptions, runs),
        };
      });
  });
};

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(0)} KB`;
export const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

if (import.meta.url === `file://${process.argv[1]}`) {
  const outdir = resolve(process.argv[2] ?? 'cdk.out');
  const runs = Number(process.argv[3] ?? 7);
  console.log(`node ${process.version}, ${runs} cold imports each\n`);
  console.log('function            bundle   map     asset   deflated  init median (min-max)');
  for (const m of measureBundles(outdir, runs)) {
    console.log(
      `${m.logicalId.padEnd(19)} ${kb(m.bundleBytes).padEnd(8)} ${kb(m.mapBytes).padEnd(7)} ${kb(m.assetBytes).padEnd(7)} ${kb(m.deflatedBytes).padEnd(9)} ` +
        `${median(m.initMs).toFixed(0)} ms (${Math.min(...m.initMs).toFixed(0)}-${Math.max(...m.initMs).toFixed(0)})`,
    );
  }
}
