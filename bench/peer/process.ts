import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../local/ports.js';
import { stopProcess, waitForLine } from '../processes.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface RunningPeer {
  url: string;
  /** The token endpoint's URL. */
  tokenUrl: string;
  pid: number;
  clientId: string;
  clientSecret: string;
  tableName: string;
  stop(): Promise<void>;
}

/** Lines of the peer's stderr that say nothing about this run (oidc-provider wants Node 22 LTS; it runs on 20). */
const NOISE = /Unsupported runtime/;

/** bench/peer/server.ts (oidc-provider + the DynamoDB limiter and adapter) in its own process. */
export const startPeerProcess = async (options: {
  dynamodbEndpoint: string;
  tableName?: string;
  rateLimit?: number;
  /** Extra arguments for node (e.g. --cpu-prof). */
  nodeArgs?: string[];
}): Promise<RunningPeer> => {
  const tableName = options.tableName ?? 'oidc-provider-peer';
  const child = spawn(process.execPath, [...(options.nodeArgs ?? []), '--import', 'tsx', 'bench/peer/server.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      NODE_OPTIONS: '',
      PORT: String(await freePort()),
      DYNAMODB_ENDPOINT: options.dynamodbEndpoint,
      PEER_TABLE: tableName,
      PEER_RATE_LIMIT: String(options.rateLimit ?? 1_000_000),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    const text = chunk
      .toString()
      .split('\n')
      .filter((line) => line && !NOISE.test(line))
      .join('\n');
    if (text) process.stderr.write(`${text}\n`);
  });
  const [, json] = await waitForLine(child, /peer listening (\{.*\})\n/, 'the oidc-provider peer');
  const ready = JSON.parse(json as string) as { url: string; tokenPath: string; clientId: string; clientSecret: string };
  return {
    url: ready.url,
    tokenUrl: ready.url + ready.tokenPath,
    pid: child.pid as number,
    clientId: ready.clientId,
    clientSecret: ready.clientSecret,
    tableName,
    stop: () => stopProcess(child),
  };
};
