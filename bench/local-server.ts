import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../local/ports.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface RunningStack {
  url: string;
  dynamodbEndpoint: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/**
 * `npm start` in a child process, on free ports and a throwaway data folder, so the load
 * generator and the server do not share an event loop.
 */
export const startStackProcess = async (env: Record<string, string> = {}): Promise<RunningStack> => {
  const [port, dynamodbPort] = [await freePort(), await freePort()];
  const dataDir = mkdtempSync(join(tmpdir(), 'knap-bench-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'local/start.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      PORT: String(port),
      DYNAMODB_PORT: String(dynamodbPort),
      DATA_DIR: dataDir,
      ACCESS_LOG: 'false',
      POWERTOOLS_LOG_LEVEL: 'ERROR',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the local stack did not start within 60 s')), 60_000);
    child.once('exit', (code) => reject(new Error(`the local stack exited with ${code}`)));
    child.stdout?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('Knap API listening')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return {
    url: `http://127.0.0.1:${port}`,
    dynamodbEndpoint: `http://127.0.0.1:${dynamodbPort}`,
    process: child,
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};
