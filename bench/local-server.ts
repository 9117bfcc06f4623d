import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../local/ports.js';
import { DEFAULT_RATE_LIMIT } from '../shared/domain/clients.js';
import { systemClock } from '../shared/domain/clock.js';
import { keyringFromEnv } from '../shared/keys/token-keyring.js';
import { noMetrics } from '../shared/metrics.js';
import type { Deps } from '../shared/runtime.js';
import { createDocumentClient } from '../shared/store/dynamo-client.js';
import { DynamoRepository } from '../shared/store/dynamo-repository.js';
import { DEFAULT_TABLE_NAME } from '../shared/store/table.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..');

export interface RunningStack {
  url: string;
  /** The server process (its CPU time is read from /proc by the benchmark). */
  pid: number;
  /** The DynamoDB it uses: its own embedded one, or the one it was given. */
  dynamodbEndpoint: string;
  /** Direct access to the stack's table, for creating clients and checking what was stored. */
  deps: Deps;
  /**
   * `kill -9` the server, then start it again on the same ports, data folder and keys, as a
   * crashed `npm start` is started again; resolves when it listens again.
   */
  crashAndRestart(): Promise<void>;
  stop(): Promise<void>;
}

/** The form of a client_credentials grant. */
export const tokenForm = (client: { clientId: string; clientSecret: string }): string =>
  new URLSearchParams({
    grant_type: 'client_credentials',
    client_id: client.clientId,
    client_secret: client.clientSecret,
  }).toString();

export interface StackProcessOptions {
  /** Use this DynamoDB (`DYNAMODB_ENDPOINT`) instead of an embedded one in the server's process. */
  dynamodbEndpoint?: string;
  /** Extra flags for `node`, e.g. `--cpu-prof`. */
  nodeArgs?: string[];
  /** Start this checkout of the project instead of this one (with its own node_modules): a before/after. */
  projectDir?: string;
}

/**
 * `npm start` in a child process, on free ports and a throwaway data folder, so the load
 * generator and the server do not share an event loop.
 */
export const startStackProcess = async (
  env: Record<string, string> = {},
  options: StackProcessOptions = {},
): Promise<RunningStack> => {
  const [port, dynamodbPort] = [await freePort(), await freePort()];
  const dataDir = mkdtempSync(join(tmpdir(), 'knap-bench-'));
  // One key for the server and this process's deps, so either can seal and open tokens.
  const tokenKeys = env.TOKEN_SIGNING_KEYS ?? randomBytes(48).toString('base64url');
  const launch = async () => {
    const started = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', 'local/start.ts'], {
      cwd: options.projectDir ?? repoRoot,
      env: {
        ...process.env,
        NODE_OPTIONS: '',
        PORT: String(port),
        DYNAMODB_PORT: String(dynamodbPort),
        DATA_DIR: dataDir,
        ACCESS_LOG: 'false',
        POWERTOOLS_LOG_LEVEL: 'ERROR',
        TOKEN_SIGNING_KEYS: tokenKeys,
        ...(options.dynamodbEndpoint ? { DYNAMODB_ENDPOINT: options.dynamodbEndpoint } : {}),
        ...env,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('the local stack did not start within 60 s')), 60_000);
      started.once('exit', (code) => reject(new Error(`the local stack exited with ${code}`)));
      started.stdout?.on('data', (chunk: Buffer) => {
        if (chunk.toString().includes('Knap API listening')) {
          clearTimeout(timer);
          resolve();
        }
      });
    });
    return started;
  };
  let child = await launch();
  const dynamodbEndpoint = options.dynamodbEndpoint ?? `http://127.0.0.1:${dynamodbPort}`;
  const documents = createDocumentClient({ endpoint: dynamodbEndpoint });
  return {
    url: `http://127.0.0.1:${port}`,
    get pid() {
      return child.pid as number;
    },
    dynamodbEndpoint,
    deps: {
      repo: new DynamoRepository(documents, DEFAULT_TABLE_NAME),
      clock: systemClock,
      log: console,
      metrics: noMetrics,
      defaultRateLimit: DEFAULT_RATE_LIMIT,
      // The benchmark creates no runs.
      deliveries: { enqueue: async () => undefined, enqueueMeetingFanOut: async () => undefined },
      tokenKeys: keyringFromEnv({ TOKEN_SIGNING_KEYS: tokenKeys }),
    },
    crashAndRestart: async () => {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGKILL');
      await exited;
      child = await launch();
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
