import { execFileSync } from 'node:child_process';

/** Runs `script` in a fresh node process with the module at `file` imported as `m`; what it prints. */
export const runWithModule = (file: string, script: string, env?: NodeJS.ProcessEnv): string =>
  execFileSync(process.execPath, ['--input-type=module', '-e', `const m = await import(process.argv[1]); ${script}`, file], {
    encoding: 'utf8',
    ...(env ? { env } : {}),
  });
