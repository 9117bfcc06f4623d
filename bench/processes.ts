/**
 * Child processes for the benchmarks, and their CPU time read from outside (/proc), so a
 * server needs no hook to report it and the load generator's own CPU is never counted.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { cpus } from 'node:os';
import { freePort } from '../local/ports.js';

/** Kernel clock ticks per second (utime and stime in /proc/<pid>/stat are counted in these). */
const ticksPerSecond = ((): number => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/**
 * User + system CPU time of a process (all its threads) so far, in milliseconds; the
 * kernel counts it in clock ticks (10 ms), which over a round of seconds is < 1 % error.
 */
export const cpuMs = (pid: number): number => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // The command name (field 2) may hold spaces and parentheses: count fields after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 (utime) and 15 (stime) of proc(5); fields[0] here is field 3.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / ticksPerSecond;
};

/**
 * Keeps a process (every thread: V8's, libuv's) on one CPU, with `taskset`. The route bench
 * gives the server under test a core of its own and the load and the table the other, so a
 * server's CPU per request is not inflated by the scheduler putting the load generator beside
 * it. False when it could not (one core, no taskset).
 */
const pinTo = (pid: number, cpu: number): boolean => {
  try {
    execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

/**
 * The benches' layout on a machine of two cores or more: the servers under test on CPU 0 (one
 * is loaded at a time), the load generator (this process) and dynalite on CPU 1. True when
 * every process was pinned.
 */
export const pinBench = (serverPids: number[], dynalitePid: number): boolean =>
  cpus().length >= 2 && [...serverPids.map((pid) => pinTo(pid, 0)), pinTo(dynalitePid, 1), pinTo(process.pid, 1)].every(Boolean);

/** Resolves when a line of the child's stdout matches, with the match; rejects if it exits or times out first. */
export const waitForLine = (child: ChildProcess, pattern: RegExp, what: string, timeoutMs = 60_000): Promise<RegExpMatchArray> =>
  new Promise((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => reject(new Error(`${what} did not start within ${timeoutMs / 1000} s`)), timeoutMs);
    const onExit = (code: number | null) => {
      clearTimeout(timer);
      reject(new Error(`${what} exited with ${code} before it was ready`));
    };
    child.once('exit', onExit);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString();
      const match = seen.match(pattern);
      if (match) {
        clearTimeout(timer);
        child.off('exit', onExit);
        child.stdout?.off('data', onData);
        // Keep draining stdout so a chatty child never blocks on a full pipe.
        child.stdout?.resume();
        resolve(match);
      }
    };
    child.stdout?.on('data', onData);
  });

/** Sends SIGTERM and waits for the exit (SIGKILL after `graceMs`). */
export const stopProcess = async (child: ChildProcess, graceMs = 10_000): Promise<void> => {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
};

export interface DynaliteProcess {
  endpoint: string;
  pid: number;
  stop(): Promise<void>;
}

/**
 * dynalite in a process of its own, in memory, so its CPU can be told from the API
 * server's (`npm start` runs it in a worker thread of the server's process).
 */
export const startDynaliteProcess = async (): Promise<DynaliteProcess> => {
  const port = await freePort();
  const cli = createRequire(import.meta.url).resolve('dynalite/cli.js');
  const child = spawn(
    process.execPath,
    [cli, '--host', '127.0.0.1', '--port', String(port), '--createTableMs', '0', '--deleteTableMs', '0', '--updateTableMs', '0'],
    { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, NODE_OPTIONS: '' } },
  );
  await waitForLine(child, /Dynalite listening/, 'dynalite');
  return {
    endpoint: `http://127.0.0.1:${port}`,
    pid: child.pid as number,
    stop: () => stopProcess(child),
  };
};
