import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { testTmpDir } from '../support/tmp.js';

/** The `knap-admin` command an operator gets from `npm pack`: one file, runnable by node alone. */
test('the packed admin CLI is one executable file that runs without tsx or the clone', () => {
  const outfile = join(testTmpDir(), 'admin-bin', 'knap-admin.mjs');
  execFileSync(process.execPath, ['--import', 'tsx', 'scripts/build-admin.ts', outfile], { stdio: 'pipe' });
  expect(readFileSync(outfile, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
  expect(statSync(outfile).mode & 0o111).not.toBe(0);
  const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
    bin: Record<string, string>;
    scripts: Record<string, string>;
  };
  expect(pkg.bin['knap-admin']).toBe('dist/knap-admin.mjs');
  expect(pkg.scripts.prepack).toContain('scripts/build-admin.ts');
  // Run from elsewhere, with nothing of the project around it.
  const help = spawnSync(outfile, ['--help'], { cwd: testTmpDir(), encoding: 'utf8', env: { PATH: process.env.PATH } });
  expect(help.status).toBe(0);
  expect(help.stdout).toContain('create-client --org ORG --name NAME');
  // Named as the operator ran it, with the package's version.
  expect(help.stdout.split('\n')[0]).toBe('Usage: knap-admin <command> [options]');
  const version = spawnSync(outfile, ['--version'], { cwd: testTmpDir(), encoding: 'utf8', env: { PATH: process.env.PATH } });
  expect(version.stdout.trim()).toBe((JSON.parse(readFileSync('package.json', 'utf8')) as { version: string }).version);
  const wrong = spawnSync(outfile, ['no-such-command'], { cwd: testTmpDir(), encoding: 'utf8', env: { PATH: process.env.PATH } });
  expect(wrong.status).toBe(2);
  expect(wrong.stderr).toContain('Unknown command "no-such-command"');
}, 60_000);
