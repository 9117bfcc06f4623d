import { randomUUID } from 'node:crypto';
import { setMaxListeners } from 'node:events';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { keyringFromEnv } from '../shared/keys/token-keyring.js';
import { boundedHttpHandler } from '../shared/lambda/bounded-http.js';
import { defaultDeps, useLocalDeliveryQueue } from '../shared/runtime.js';
import { scopedDeps } from '../shared/scoped-deps.js';
import { DELIVERY_TIMEOUT_MS, deliverySettingsFromEnv, handleDelivery, resumeRunDelivery } from '../shared/services/delivery.js';
import { continueMeetingFanOut } from '../shared/services/meeting-fan-out.js';
import { createDocumentClient, DEFAULT_ATTEMPT_TIMEOUT_MS, dynamoSettingsFromEnv } from '../shared/store/dynamo-client.js';
import { ALL_STORES, DynamoRepository } from '../shared/store/dynamo-repository.js';
import { LOCAL_RETRY_POLICY, LocalDeliveryQueue } from './delivery-queue.js';
import { type DispatchTimer, STOP_GRACE_MS, startDispatchTimer } from './dispatch-timer.js';
import { localFunctionArn } from './http-adapter.js';
import { openLocalTable } from './local-table.js';
import { localAdminEnvironment, startLocalIdentity } from './oidc/provider.js';
import { type ApiServer, startApiServer } from './server.js';
import { localTokenKeys } from './token-key.js';
import { createTtlSweeper, DEFAULT_TTL_SWEEP_INTERVAL_MS, type TtlSweeper } from './ttl-sweeper.js';

/**
 * How long one delivery attempt or page of meeting runs may take, as the deployed deliverer's
 * Lambda timeout bounds it: the webhook's own timeout and room for its DynamoDB calls. Past it
 * the attempt's calls fail, and the queue tries it again later (nothing is lost).
 */
export const LOCAL_JOB_DEADLINE_MS = DELIVERY_TIMEOUT_MS + 10_000;

export interface LocalStackOptions {
  port?: number;
  host?: string;
  tableName: string;
  /** Use this DynamoDB and start none. */
  dynamodbEndpoint?: string;
  dynamodbPort?: number;
  /** Where the embedded DynamoDB keeps its data; in memory when absent. */
  dataDir?: string;
  accessLog?: boolean;
  countRoundTrips?: boolean;
  /**
   * How often to delete items whose TTL has passed (dynalite has no TTL of its own);
   * `false` or 0 never. Default: every minute, and only for the embedded DynamoDB, since a
   * given endpoint is someone else's to clean.
   */
  ttlSweepIntervalMs?: number | false;
  /** How much faster than deployed the delivery queue's waits pass; default 1/30 (see delivery-queue.ts). */
  deliveryTimeScale?: number;
  /** How often the schedule dispatcher runs; `false` never. Default: every second. */
  dispatchIntervalMs?: number | false;
}

export interface LocalStack {
  api: ApiServer;
  dynamodbEndpoint: string;
  /** Created by this start (false when it was already there). */
  createdTable: boolean;
  /** Present when expired items are being swept. */
  ttlSweeper?: TtlSweeper;
  /** Where runs wait for delivery: timers in this process, registered for the handlers. */
  deliveries: LocalDeliveryQueue;
  /** Runs found pending at start (their timers died with an earlier process), tried again at once. */
  resumedRuns: number;
  close(): Promise<void>;
}

/**
 * The runs that waited for a retry when npm start last stopped: their timers died with it.
 * Read with a client of its own, as the handlers would (the environment set above): their
 * deps are made once per process, and a test may start more than one stack.
 */
const pendingRunIds = async (tableName: string): Promise<string[]> => {
  const documents = createDocumentClient(dynamoSettingsFromEnv());
  try {
    return await new DynamoRepository(documents, tableName).pendingRunIds();
  } finally {
    documents.destroy();
  }
};

/**
 * The whole API on localhost: an embedded DynamoDB (unless one is given), the table, and
 * the HTTP server. The handlers read DYNAMODB_ENDPOINT and TABLE_NAME from the environment,
 * as they do in Lambda, so those are set here before the handler modules load.
 */
export const startLocalStack = async (options: LocalStackOptions): Promise<LocalStack> => {
  process.env.AWS_REGION ??= 'us-east-1';
  const table = await openLocalTable({
    tableName: options.tableName,
    endpoint: options.dynamodbEndpoint,
    port: options.dynamodbPort,
    dataDir: options.dataDir,
    region: process.env.AWS_REGION,
  });
  const { endpoint } = table;
  process.env.DYNAMODB_ENDPOINT = endpoint;
  process.env.TABLE_NAME = options.tableName;
  process.env.TOKEN_SIGNING_KEYS = localTokenKeys(options.dataDir);
  // Receivers on this machine are allowed here (never deployed: no Lambda sets it).
  process.env.WEBHOOKS_ALLOW_LOCALHOST = 'true';
  // The contract's D under npm start: an endpoint is disabled as soon as 10 messages in a row failed.
  process.env.WEBHOOK_DISABLE_AFTER_SECONDS ??= '0';
  const sweepEvery =
    options.ttlSweepIntervalMs ?? (options.dynamodbEndpoint === undefined ? DEFAULT_TTL_SWEEP_INTERVAL_MS : false);
  // Its own client, not the handlers' (whose round-trip counters the benchmark reads);
  // the same credentials, since DynamoDB Local keeps one database per access key.
  // Bounded as the store's client is (each attempt's timeouts, three attempts).
  const sweeperClient = sweepEvery
    ? new DynamoDBClient({
        endpoint,
        region: process.env.AWS_REGION,
        credentials: process.env.AWS_ACCESS_KEY_ID ? undefined : { accessKeyId: 'local', secretAccessKey: 'local' },
        maxAttempts: 3,
        requestHandler: boundedHttpHandler(dynamoSettingsFromEnv().requestTimeoutMs ?? DEFAULT_ATTEMPT_TIMEOUT_MS),
      })
    : undefined;
  const ttlSweeper =
    sweeperClient &&
    createTtlSweeper({
      client: sweeperClient,
      tableName: options.tableName,
      intervalMs: sweepEvery || undefined,
      onError: (error) => console.error(`Deleting expired items failed: ${(error as Error).message}`),
    });
  // Every store and the token keys: the handlers add theirs as their routes are first asked
  // for, and the jobs below (the deliverer seals report tokens) and the identity use the rest.
  defaultDeps({ stores: ALL_STORES, tokenKeys: keyringFromEnv });
  // The handlers' own deps (defaultDeps reads the environment set above), as in Lambda;
  // their deliveries reach this queue through useLocalDeliveryQueue. Retries come on the
  // local schedule (about 1, 2, 4, 8 s ... apart), each with deps of its own, so they outlive
  // the request that made the run (its deadline is not theirs).
  // Deployed, the deliver-runs function does this work: its log lines say so here too. Each job
  // has a deadline, as that function has its timeout, and stops when the stack does.
  const stopping = new AbortController();
  // Every call under way listens to it: as many as the work runs side by side.
  setMaxListeners(0, stopping.signal);
  const asDeliverer = () => ({
    functionName: 'deliver-runs',
    functionArn: localFunctionArn('deliver-runs'),
    requestId: randomUUID(),
    deadline: Date.now() + LOCAL_JOB_DEADLINE_MS,
    stop: stopping.signal,
  });
  // Report URLs name this server (its port is known once it listens) unless the environment names another base.
  let apiUrl = '';
  const deliverySettings = () => {
    const settings = deliverySettingsFromEnv();
    if (!process.env.REPORT_BASE_URL && !process.env.PUBLIC_BASE_URL && apiUrl) settings.reportBaseUrl = apiUrl;
    return Object.assign(settings, { retry: LOCAL_RETRY_POLICY });
  };
  const deliveries = new LocalDeliveryQueue({
    deliver: (runId, target) =>
      handleDelivery(scopedDeps(defaultDeps(), asDeliverer()), runId, target?.endpointId, deliverySettings()),
    resume: (runId) => resumeRunDelivery(scopedDeps(defaultDeps(), asDeliverer()), runId, deliverySettings()),
    continueFanOut: (task) => continueMeetingFanOut(scopedDeps(defaultDeps(), asDeliverer()), task),
    timeScale: options.deliveryTimeScale,
  });
  useLocalDeliveryQueue(deliveries);
  let dispatcher: DispatchTimer | undefined;
  const stopBackground = async () => {
    // Jobs under way may finish (they take milliseconds); those a stalled DynamoDB holds are stopped.
    const grace = setTimeout(() => stopping.abort(), STOP_GRACE_MS);
    // The dispatcher first: it queues deliveries.
    await dispatcher?.close();
    await ttlSweeper?.close();
    sweeperClient?.destroy();
    await deliveries.close();
    clearTimeout(grace);
    useLocalDeliveryQueue(undefined);
  };
  try {
    const api = await startApiServer({
      port: options.port,
      host: options.host,
      accessLog: options.accessLog,
      countRoundTrips: options.countRoundTrips,
      mount: (url) => {
        // Organization admins sign in here; the admin functions verify its tokens by these settings.
        const identity = startLocalIdentity({
          issuer: `${url}/oidc`,
          deps: defaultDeps(),
          redirectUris: [`${url}/console`],
          dynamodbEndpoint: endpoint,
        });
        Object.assign(process.env, localAdminEnvironment(identity));
        return identity;
      },
    });
    apiUrl = api.url;
    ttlSweeper?.start();
    const pending = await pendingRunIds(options.tableName);
    for (const runId of pending) await deliveries.enqueueResume(runId);
    if (options.dispatchIntervalMs !== false) {
      dispatcher = startDispatchTimer({ deps: defaultDeps, intervalMs: options.dispatchIntervalMs });
    }
    return {
      api,
      dynamodbEndpoint: endpoint,
      createdTable: table.createdTable,
      ttlSweeper,
      deliveries,
      resumedRuns: pending.length,
      close: async () => {
        await api.close();
        // After the API (no new runs), before the table (attempts under way still record).
        await stopBackground();
        await table.close();
      },
    };
  } catch (error) {
    await stopBackground();
    await table.close();
    throw error;
  }
};
