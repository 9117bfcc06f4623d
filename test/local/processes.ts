import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Settings of the developer's shell that would point a spawned server or CLI somewhere else. */
const INHERITED_SETTINGS = [
  'PORT',
  'HOST',
  'DYNAMODB_PORT',
  'DYNAMODB_ENDPOINT',
  'DATA_DIR',
  'TABLE_NAME',
  'ACCESS_LOG',
  'TEST_DYNAMODB_ENDPOINT',
  'DEFAULT_RATE_LIMIT',
];

/** This process's environment without the Knap settings, plus the given ones; never Jest's NODE_OPTIONS. */
export const cleanEnv = (extra: Record<string, string>): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_OPTIONS: '' };
  for (const name of INHERITED_SETTINGS) delete env[name];
  return { ...env, ...extra };
};

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface Spawned {
  child: ChildProcess;
  pid: number;
  stdout(): string;
  stderr(): string;
  /** Resolves once stdout matches, rejects if the process exits first or the deadline passes. */
  waitForStdout(pattern: RegExp, timeoutMs?: number): Promise<void>;
  /** Resolves when the process has exited, rejects after the deadline. */
  exited(timeoutMs?: number): Promise<Exit>;
  /** SIGKILL to the whole process group, so a test that fails leaves nothing running. */
  kill(): void;
}

/** `npm <args>` in its own process group, with output collected. */
export const spawnNpm = (args: string[], env: NodeJS.ProcessEnv): Spawned => {
  const child = spawn('npm', args, { cwd: repoRoot, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    out += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    err += chunk.toString();
  });
  const exit = new Promise<Exit>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const pid = child.pid as number;

  const withDeadline = <T>(promise: Promise<T>, timeoutMs: number, what: string): Promise<T> => {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${what} within ${timeoutMs} ms\nstdout: ${out}\nstderr: ${err}`)), timeoutMs);
    });
    return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
  };

  return {
    child,
    pid,
    stdout: () => out,
    stderr: () => err,
    waitForStdout: (pattern, timeoutMs = 60_000) =>
      withDeadline(
        new Promise<void>((resolve, reject) => {
          const check = () => {
            if (pattern.test(out)) {
              child.stdout?.off('data', check);
              resolve();
            }
          };
          child.stdout?.on('data', check);
          check();
          exit.then(({ code, signal }) => reject(new Error(`exited (${code ?? signal}) before ${pattern}\nstderr: ${err}`)));
        }),
        timeoutMs,
        `no ${pattern} on stdout`,
      ),
    exited: (timeoutMs = 30_000) => withDeadline(exit, timeoutMs, 'did not exit'),
    kill: () => {
      try {
        process.kill(-pid, 'SIGKILL');
      } catch {
        // already gone
      }
    },
  };
};

/** `npm start` on the given settings, quiet so stdout and stderr hold only the server's lines. */
export const spawnStart = (env: Record<string, string>): Spawned => spawnNpm(['start', '--silent'], cleanEnv(env));

/** Whether something accepts TCP connections on 127.0.0.1:port. */
export const accepts = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

/** A temporary folder, removed by the returned function. */
export const tempDir = (prefix: string): { path: string; remove(): void } => {
  const path = mkdtempSync(join(tmpdir(), prefix));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
};
