import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TokenKeyring } from '../../shared/domain/sealed-tokens.js';
import { readToken } from '../../shared/domain/tokens.js';
import { DEFAULT_TABLE_NAME } from '../../shared/store/table.js';
import { stopProcess, waitForLine } from '../processes.js';
import type { FloorRoute } from './routes.js';
import type { FloorConfig } from './server.js';

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface RunningFloor {
  /** Each route's server. */
  urls: Record<FloorRoute, string>;
  pid: number;
  stop(): Promise<void>;
}

/** bench/floor/server.ts (a bare node:http server per route) in its own process. */
export const startFloorProcess = async (config: FloorConfig, nodeArgs: string[] = []): Promise<RunningFloor> => {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', 'bench/floor/server.ts'], {
    cwd: repoRoot,
    env: { ...process.env, NODE_OPTIONS: '', FLOOR_CONFIG: JSON.stringify(config) },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const [, json] = await waitForLine(child, /floor listening (\{.*\})\n/, 'the route floor');
  return {
    urls: JSON.parse(json as string) as Record<FloorRoute, string>,
    pid: child.pid as number,
    stop: () => stopProcess(child),
  };
};

/** The floor's configuration for the client an access token of the project was issued to (org `bench`). */
export const floorConfigFor = async (
  token: string,
  tokenKeys: TokenKeyring,
  endpoint: string,
  limit: number,
): Promise<FloorConfig> => {
  const presented = await readToken(token, 'access', tokenKeys);
  if (presented.format !== 'sealed') throw new Error('the project issued a token it cannot read');
  const { claims } = presented;
  return {
    endpoint,
    tableName: DEFAULT_TABLE_NAME,
    clientId: claims.clientId,
    orgName: 'bench',
    generation: claims.generation,
    revocationIds: [claims.tokenId, ...(claims.grantId ? [claims.grantId] : [])],
    limit,
  };
};
