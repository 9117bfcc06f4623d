import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export interface EmbeddedDynamo {
  endpoint: string;
  close(): Promise<void>;
}

/**
 * dynalite runs in a worker thread: it gets a core of its own instead of sharing the API's
 * event loop, and it ends with this process whatever happens. Plain CommonJS, so it runs
 * the same under tsx, Jest and node.
 */
const WORKER_SOURCE = `
const { createRequire } = require('node:module');
const { parentPort, workerData } = require('node:worker_threads');
const dynalite = require(workerData.dynalitePath);

// dynalite opens its LevelDB lazily and, when another process holds the folder's LOCK,
// fails every request later with "Database is closed" thrown from a callback. Opening the
// folder once first turns that into one clear error before anything listens.
const checkDataDir = async (path) => {
  if (!path) return;
  const { Level } = createRequire(workerData.dynalitePath)('level');
  const db = new Level(path);
  try {
    await db.open();
  } catch (error) {
    const locked = error.cause && error.cause.code === 'LEVEL_LOCKED';
    throw Object.assign(new Error(locked ? 'the data folder is locked by another process' : (error.cause || error).message), {
      code: locked ? 'DATA_DIR_LOCKED' : error.code,
    });
  }
  await db.close();
};

// Closing waits for every connection to end: an answer under way when the close begins, or
// a request that still comes, says "Connection: close" (Node would keep the connection for
// its 5 s keep-alive otherwise); a request still unfinished after CLOSE_GRACE_MS is dropped.
// Then dynalite closes LevelDB, after the operations under way.
const CLOSE_GRACE_MS = 1000;

checkDataDir(workerData.options.path).then(
  () => {
    const server = dynalite(workerData.options);
    const answering = new Set();
    let closing = false;
    server.prependListener('request', (request, response) => {
      if (closing) response.setHeader('Connection', 'close');
      answering.add(response);
      response.once('close', () => answering.delete(response));
    });
    // dynalite throws from a request's 'error' (its client gone mid-request, or a request the
    // close dropped), which would end this worker and the server with it: the request just ends.
    server.on('request', (request) => {
      request.removeAllListeners('error');
      request.on('error', () => {});
    });
    server.on('error', (error) => parentPort.postMessage({ error: error.message, code: error.code }));
    server.listen(workerData.port, workerData.host, () => parentPort.postMessage({ port: server.address().port }));
    parentPort.on('message', (message) => {
      if (message !== 'close' || closing) return;
      closing = true;
      for (const response of answering) if (!response.headersSent) response.setHeader('Connection', 'close');
      const grace = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
      server.close((error) => {
        clearTimeout(grace);
        parentPort.postMessage({ closed: true, error: error && error.message });
      });
    });
  },
  (error) => parentPort.postMessage({ error: error.message, code: error.code }),
);
`;

type WorkerMessage = { port: number } | { error: string; code?: string } | { closed: true; error?: string };

/** Another process (another `npm start`, most likely) has the embedded DynamoDB's data folder open. */
export class DataDirInUseError extends Error {
  readonly code = 'DATA_DIR_LOCKED';
  constructor(readonly dataDir: string) {
    super(`Another Knap API server is using ${dataDir}; stop it or set DATA_DIR to another folder.`);
    this.name = 'DataDirInUseError';
  }
}

/**
 * dynalite: an existing DynamoDB implementation on LevelDB. With `dataDir` the data
 * outlives restarts; without it everything is in memory (tests). Port 0 picks a free port.
 */
export const startEmbeddedDynamo = async (
  options: { port?: number; host?: string; dataDir?: string } = {},
): Promise<EmbeddedDynamo> => {
  if (options.dataDir) mkdirSync(options.dataDir, { recursive: true });
  const host = options.host ?? '127.0.0.1';
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: {
      dynalitePath: createRequire(import.meta.url).resolve('dynalite'),
      host,
      port: options.port ?? 0,
      options: { path: options.dataDir, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 },
    },
  });
  const [started] = (await once(worker, 'message')) as [WorkerMessage];
  if (!('port' in started)) {
    await worker.terminate();
    const reason = 'closed' in started ? { error: 'unexpected message', code: undefined } : started;
    if (reason.code === 'DATA_DIR_LOCKED' && options.dataDir) throw new DataDirInUseError(options.dataDir);
    throw Object.assign(new Error(`Embedded DynamoDB could not start: ${reason.error}`), { code: reason.code });
  }
  return {
    endpoint: `http://${host}:${started.port}`,
    close: async () => {
      worker.postMessage('close');
      // LevelDB closes cleanly so the data folder stays consistent (within about a second:
      // see CLOSE_GRACE_MS); terminate in any case, after 5 s as a last resort. AbortSignal.timeout
      // does not hold the process open once the worker has answered.
      const closed = once(worker, 'message', { signal: AbortSignal.timeout(5_000) }) as Promise<[WorkerMessage]>;
      const [answer] = await closed.catch((): [undefined] => [undefined]);
      await worker.terminate();
      if (!answer || !('closed' in answer)) console.error('Embedded DynamoDB did not close cleanly; stopped it');
      else if (answer.error) console.error(`Embedded DynamoDB closed with an error: ${answer.error}`);
    },
  };
};
