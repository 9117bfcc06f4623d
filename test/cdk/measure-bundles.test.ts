import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureAgainst } from '../../scripts/measure-bundles.js';

/**
 * `--against` measures two builds in the same rounds: only the functions both have, each
 * side's bundle once per round, in alternating order. Each stand-in bundle appends its build
 * and name to one log when imported, so the order is read back, not timed.
 */
let scratch: string;
let log: string;

/** A cdk.out holding a template with these functions, each asset an index.mjs that logs its import. */
const cloudAssembly = (build: string, functions: string[]): string => {
  const outdir = join(scratch, build);
  const resources: Record<string, unknown> = {};
  for (const name of functions) {
    const asset = `asset.${name}`;
    mkdirSync(join(outdir, asset), { recursive: true });
    writeFileSync(
      join(outdir, asset, 'index.mjs'),
      `import { appendFileSync } from 'node:fs';\nappendFileSync(${JSON.stringify(log)}, '${build}:${name}\\n');\n`,
    );
    resources[name] = { Type: 'AWS::Lambda::Function', Properties: {}, Metadata: { 'aws:asset:path': asset } };
  }
  resources.Bucket = { Type: 'AWS::S3::Bucket', Properties: {} };
  writeFileSync(join(outdir, 'Stack.template.json'), JSON.stringify({ Resources: resources }));
  return outdir;
};

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'measure-against-'));
  log = join(scratch, 'imports.log');
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

test('each shared function is imported from both builds every round, first one then the other', () => {
  const ours = cloudAssembly('new', ['Token', 'Only-new']);
  const theirs = cloudAssembly('old', ['Token', 'Only-old']);
  writeFileSync(log, '');

  const measured = measureAgainst(ours, theirs, 3);

  expect(measured.map((pair) => pair.logicalId)).toEqual(['Token']);
  const [token] = measured;
  expect(token?.initMs).toHaveLength(3);
  expect(token?.againstMs).toHaveLength(3);
  for (const ms of [...(token?.initMs ?? []), ...(token?.againstMs ?? [])]) expect(ms).toBeGreaterThan(0);
  expect(readFileSync(log, 'utf8').trim().split('\n')).toEqual([
    'new:Token',
    'old:Token',
    'old:Token',
    'new:Token',
    'new:Token',
    'old:Token',
  ]);
});
