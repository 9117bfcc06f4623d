import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../local/ports.js';
import { DEFAULT_RATE_LIMIT } from '../shared/domain/clients.js';
import { systemClock } from '../shared/domain/clock.js';
import type { Deps } from '../shared/runtime.js';
import { createDocumentClient } from '../shared/store/dynamo-client.js';
import { DynamoRepository } from '../shared/store/dynamo-repository.js';
import { DEFAULT_TABLE_NAME } from '../shared/store/table.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface RunningStack {
  url: string;
  /** Direct access to the stack's table, for creating clients and checking what was stored. */
  deps: Deps;
  stop(): Promise<void>;
}

/** The form of a client_credentials grant. */
export const tokenForm = (client: { clientId: string; clientSecret: string }): string =>
  new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: client.clientId,
    client_secret: client.clientSecret,
  }).toString();

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
  const documents = createDocumentClient({ endpoint: `http://127.0.0.1:${dynamodbPort}` });
  return {
    url: `http://127.0.0.1:${port}`,
    deps: {
      repo: new DynamoRepository(documents, DEFAULT_TABLE_NAME),
      clock: systemClock,
      log: console,
      defaultRateLimit: DEFAULT_RATE_LIMIT,
      // The benchmark creates no runs.
      deliveries: { enqueue: async () => undefined },
    },
    stop: async () => {
      documents.destroy();
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
};
