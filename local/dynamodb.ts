import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import dynalite from 'dynalite';

export interface EmbeddedDynamo {
  endpoint: string;
  close(): Promise<void>;
}

/**
 * dynalite: an existing DynamoDB implementation on LevelDB. With `dataDir` the data
 * outlives restarts; without it everything is in memory (tests). Port 0 picks a free port.
 */
export const startEmbeddedDynamo = async (options: { port?: number; host?: string; dataDir?: string } = {}): Promise<EmbeddedDynamo> => {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const server = dynalite({ path: options.dataDir, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  const host = options.host ?? '127.0.0.1';
  server.listen(options.port ?? 0, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://${host}:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections?.();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
};
