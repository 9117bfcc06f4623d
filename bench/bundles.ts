import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { measureBundles as measureSynthesized, median } from '../scripts/measure-bundles.js';

export interface BundleMeasure {
  function: string;
  bundle_kb: number;
  asset_kb: number;
  cold_import_ms: number;
}

/** Synthesizes the stack into a scratch folder (the bundles exactly as deployed) and measures them. */
export const measureBundles = async (): Promise<BundleMeasure[]> => {
  const outdir = mkdtempSync(join(tmpdir(), 'knap-synth-'));
  try {
    try {
      execFileSync('npx', ['cdk', 'synth', '--quiet', '--output', outdir], { stdio: 'pipe' });
    } catch (error) {
      // Bundling chatter stays quiet unless the synth fails.
      process.stderr.write(String((error as { stderr?: Buffer }).stderr ?? error));
      throw error;
    }
    return measureSynthesized(outdir, 5).bundles.map((measure) => ({
      function: measure.logicalId,
      bundle_kb: Math.round(measure.bundleBytes / 1024),
      asset_kb: Math.round(measure.assetBytes / 1024),
      cold_import_ms: Math.round(median(measure.initMs)),
    }));
  } finally {
    rmSync(outdir, { recursive: true, force: true });
  }
};
