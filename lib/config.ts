import type { Node } from 'constructs';
import { jobs } from '../functions/jobs.js';
import { FUNCTIONS, routes } from '../functions/routes.js';
import { DEFAULT_RATE_LIMIT, MAX_RATE_LIMIT } from '../shared/domain/clients.js';
import { MAX_ENDPOINTS, QUOTA_ENV, QUOTA_KINDS, type QuotaKind, type QuotaLimits } from '../shared/domain/quotas.js';
import { MAX_ADMIN_RATE_LIMIT } from '../shared/domain/rate-limit.js';

/** Powertools for AWS Lambda log levels (POWERTOOLS_LOG_LEVEL). */
export const LOG_LEVELS = ['TRACE', 'DEBUG', 'INFO', 'WARN', 'ERROR', 'CRITICAL', 'SILENT'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** What may differ between deployments; everything else is fixed in the constructs. */
export interface KnapSettings {
  /** API Gateway stage; `$default` serves the API at the root of its URL. */
  readonly stageName: string;
  /** POWERTOOLS_LOG_LEVEL of every function. */
  readonly logLevel: LogLevel;
  /** DEFAULT_RATE_LIMIT: requests per minute of every client without a limit of its own. */
  readonly defaultRateLimit: number;
  /** Stage-wide steady rate, requests per second, over all clients. */
  readonly throttleRateLimit: number;
  /** Stage-wide burst, requests, over all clients. */
  readonly throttleBurstLimit: number;
  /** Origins allowed by CORS; empty means no CORS (the API is server-to-server). */
  readonly corsAllowedOrigins: readonly string[];
  /** Where alarms are e-mailed (an SNS subscription, confirmed from the e-mail); none when null. */
  readonly alarmEmail: string | null;
  /**
   * A development stage: no termination protection, all-at-once deploys by default, no
   * account or region required. Any other stage must be pinned to `account` and `region`.
   */
  readonly dev: boolean;
  /** The AWS account the stack may be deployed to; required unless `dev`. */
  readonly account: string | null;
  /** The AWS region the stack may be deployed to; required unless `dev`. */
  readonly region: string | null;
  /** How CodeDeploy moves the `live` aliases to new versions; null: ALL_AT_ONCE when `dev`, else CANARY_10PERCENT_5MINUTES. */
  readonly deploymentPreference: DeploymentPreference | null;
  /** A custom domain for the API (`api.example.com`); the execute-api endpoint is disabled when set. */
  readonly domainName: string | null;
  /** An ACM certificate for `domainName`, in the stack's region. */
  readonly certificateArn: string | null;
  /** A Route 53 hosted zone (id and name) to validate a new certificate in and to hold the alias records. */
  readonly hostedZoneId: string | null;
  readonly hostedZoneName: string | null;
  /** Per-route throttles by route id, over all clients; a route without one has the stage's (admin routes: adminThrottle). */
  readonly routeThrottles: Readonly<Record<string, Throttle>>;
  /**
   * The throttle of each /api/admin route (over all admins together) unless routeThrottles
   * names the route: admins are not metered by API clients' rate limits.
   */
  readonly adminThrottle: Throttle;
  /** Reserved concurrency by function id (`*`: every function); empty: none reserved (the default). */
  readonly reservedConcurrency: Readonly<Record<string, number>>;
  /**
   * Dispatcher workers at once when a minute has more due than the coordinator drains alone:
   * the dispatch queue event source's maxConcurrency (2, Lambda's minimum, to 1,000). The
   * dispatcher then uses at most this plus one invocation (lib/runs.ts, docs/runs.md).
   */
  readonly dispatchMaxConcurrency: number;
  /** Adopt an existing table by name (a restore from point-in-time recovery, or a move from one stack to two) instead of making one. */
  readonly tableName: string | null;
  /**
   * A new deployment: KnapData may make its table. Without this or `tableName`, synth refuses to
   * make a table, so that upgrading a single-stack deployment never swaps in an empty one.
   */
  readonly freshDeployment: boolean;
  /** Adopt an existing token-keys secret by its full ARN (a move from one stack to two) instead of making one. */
  readonly tokenKeysSecretArn: string | null;
  /** Declare empty DYNAMODB_ENDPOINT and TOKEN_SIGNING_KEYS for `sam local ... --env-vars`; dev stages only, never deployed. */
  readonly samLocal: boolean;
  /**
   * Until when (ISO 8601) the token functions still look up tokens of the stored format,
   * issued before sealing (STORED_TOKENS_UNTIL). Null (the default, and right for every stack
   * made since): such tokens are refused with no read; a stack that upgraded from a version
   * before sealing sets the upgrade time plus 30 days, the longest those tokens live.
   */
  readonly storedTokensUntil: string | null;
  /**
   * An existing OpenID Connect issuer for organization admins (Okta, Entra ID, Google...), with
   * the audience its access tokens name: no Cognito user pool is made then. Both or neither.
   */
  readonly adminIssuer: string | null;
  readonly adminAudience: string | null;
  /** The claim that names an admin's organization; default `cognito:groups` (Cognito), else `org`. */
  readonly adminOrgClaim: string | null;
  /** MFA in the stack's own user pool: `off`, `optional` (each admin may enrol an app) or `required`. */
  readonly adminMfa: 'off' | 'optional' | 'required';
  /** With adminIssuer: the console's client id at that issuer (a public client, PKCE); by default adminAudience. */
  readonly adminConsoleClientId: string | null;
  /**
   * With adminIssuer: what marks that issuer's access tokens, so an ID token is never taken for
   * one: `typ:<type>`, `claim:<name>` or `claim:<name>=<value>`; by default `typ:at+jwt` (RFC 9068).
   */
  readonly adminAccessTokenMark: string | null;
  /** ADMIN_RATE_LIMIT: requests per minute each organization admin may make of the admin API; null: 120. */
  readonly adminRateLimit: number | null;
  /**
   * QUOTA_*: the deployment's per-organization quotas, each in place of its default
   * (DEFAULT_QUOTAS); an organization's own, set with `set-quota`, still wins.
   */
  readonly quotas: Partial<QuotaLimits>;
}

/** Requests per second (steady) and requests (burst), as API Gateway throttles them. */
export interface Throttle {
  readonly rateLimit: number;
  readonly burstLimit: number;
}

/** CodeDeploy's predefined Lambda deployment configurations, by their CDK names. */
export const DEPLOYMENT_PREFERENCES = [
  'ALL_AT_ONCE',
  'CANARY_10PERCENT_5MINUTES',
  'CANARY_10PERCENT_10MINUTES',
  'CANARY_10PERCENT_15MINUTES',
  'CANARY_10PERCENT_30MINUTES',
  'LINEAR_10PERCENT_EVERY_1MINUTE',
  'LINEAR_10PERCENT_EVERY_2MINUTES',
  'LINEAR_10PERCENT_EVERY_3MINUTES',
  'LINEAR_10PERCENT_EVERY_10MINUTES',
] as const;
export type DeploymentPreference = (typeof DEPLOYMENT_PREFERENCES)[number];

/** The deployment configuration in effect: the setting, else by the kind of stage. */
export const deploymentPreferenceOf = (settings: KnapSettings): DeploymentPreference =>
  settings.deploymentPreference ?? (settings.dev ? 'ALL_AT_ONCE' : 'CANARY_10PERCENT_5MINUTES');

/**
 * Route throttles unless context says otherwise (each capped at the stage's own): the
 * unauthenticated token endpoint lowest among the API routes (each call costs a client
 * update and two token writes, and clients keep a token for its hour), revocation and
 * introspection the same, the public documents lower still (static, cached by clients).
 */
export const DEFAULT_ROUTE_THROTTLES: Readonly<Record<string, Throttle>> = {
  token: { rateLimit: 20, burstLimit: 40 },
  'revoke-token': { rateLimit: 20, burstLimit: 40 },
  'introspect-token': { rateLimit: 20, burstLimit: 40 },
  'oauth-metadata': { rateLimit: 10, burstLimit: 20 },
  openapi: { rateLimit: 10, burstLimit: 20 },
  docs: { rateLimit: 10, burstLimit: 20 },
  'docs-asset': { rateLimit: 10, burstLimit: 20 },
  console: { rateLimit: 10, burstLimit: 20 },
};

/**
 * Each admin route's own bucket unless context says otherwise (capped at the stage's): a few
 * people at a console, each page a handful of calls; a script looping on an admin token is
 * held to this instead of competing with the API clients' traffic.
 */
export const DEFAULT_ADMIN_THROTTLE: Throttle = { rateLimit: 20, burstLimit: 40 };

export const DEFAULT_SETTINGS: KnapSettings = {
  stageName: '$default',
  logLevel: 'INFO',
  defaultRateLimit: DEFAULT_RATE_LIMIT,
  throttleRateLimit: 100,
  throttleBurstLimit: 200,
  corsAllowedOrigins: [],
  alarmEmail: null,
  dev: true,
  account: null,
  region: null,
  deploymentPreference: null,
  domainName: null,
  certificateArn: null,
  hostedZoneId: null,
  hostedZoneName: null,
  routeThrottles: DEFAULT_ROUTE_THROTTLES,
  adminThrottle: DEFAULT_ADMIN_THROTTLE,
  reservedConcurrency: {},
  dispatchMaxConcurrency: 2,
  tableName: null,
  freshDeployment: false,
  tokenKeysSecretArn: null,
  samLocal: false,
  storedTokensUntil: null,
  adminIssuer: null,
  adminAudience: null,
  adminOrgClaim: null,
  adminMfa: 'optional',
  adminConsoleClientId: null,
  adminAccessTokenMark: null,
  adminRateLimit: null,
  quotas: {},
};

/** Context keys, as in cdk.json or `cdk deploy -c key=value`. */
export const CONTEXT_KEYS = {
  stackName: 'stackName',
  stageName: 'stageName',
  logLevel: 'logLevel',
  defaultRateLimit: 'defaultRateLimit',
  throttleRateLimit: 'throttleRateLimit',
  throttleBurstLimit: 'throttleBurstLimit',
  corsAllowedOrigins: 'corsAllowedOrigins',
  alarmEmail: 'alarmEmail',
  dev: 'dev',
  account: 'account',
  region: 'region',
  deploymentPreference: 'deploymentPreference',
  domainName: 'domainName',
  certificateArn: 'certificateArn',
  hostedZoneId: 'hostedZoneId',
  hostedZoneName: 'hostedZoneName',
  routeThrottles: 'routeThrottles',
  adminThrottle: 'adminThrottle',
  reservedConcurrency: 'reservedConcurrency',
  dispatchMaxConcurrency: 'dispatchMaxConcurrency',
  tableName: 'tableName',
  freshDeployment: 'freshDeployment',
  tokenKeysSecretArn: 'tokenKeysSecretArn',
  samLocal: 'samLocal',
  storedTokensUntil: 'storedTokensUntil',
  adminIssuer: 'adminIssuer',
  adminAudience: 'adminAudience',
  adminOrgClaim: 'adminOrgClaim',
  adminMfa: 'adminMfa',
  adminConsoleClientId: 'adminConsoleClientId',
  adminAccessTokenMark: 'adminAccessTokenMark',
  adminRateLimit: 'adminRateLimit',
  quotaKnaps: 'quotaKnaps',
  quotaSubhourlySchedules: 'quotaSubhourlySchedules',
  quotaWebhookEndpoints: 'quotaWebhookEndpoints',
  quotaClients: 'quotaClients',
  /** The stateful stack's name; by default the stack name with `Api` turned into `Data` (`KnapData`). */
  dataStackName: 'dataStackName',
  /** `-c nag=false` skips the cdk-nag AwsSolutions checks at synth. */
  nag: 'nag',
} as const;

/** The context key of each quota (its environment variable: QUOTA_ENV). */
const QUOTA_CONTEXT_KEYS: Record<QuotaKind, string> = {
  knaps: CONTEXT_KEYS.quotaKnaps,
  subhourly: CONTEXT_KEYS.quotaSubhourlySchedules,
  endpoints: CONTEXT_KEYS.quotaWebhookEndpoints,
  clients: CONTEXT_KEYS.quotaClients,
};

/** The functions' QUOTA_* variables for the quotas a deployment sets. */
export const quotaEnvironment = (quotas: Partial<QuotaLimits>): Record<string, string> =>
  Object.fromEntries(Object.entries(quotas).map(([kind, limit]) => [QUOTA_ENV[kind as QuotaKind], String(limit)]));

export const DEFAULT_STACK_NAME = 'KnapApi';

/** The stateful stack's name beside a stateless one: `KnapApi` -> `KnapData`, `Staging` -> `StagingData`. */
export const dataStackNameFor = (stackName: string): string =>
  stackName.endsWith('Api') ? `${stackName.slice(0, -3)}Data` : `${stackName}Data`;

const problem = (key: string, value: unknown, expected: string): Error =>
  new Error(`Context "${key}" is ${JSON.stringify(value)}; expected ${expected}`);

/** A whole number in [min, max]; `-c` gives strings, cdk.json gives numbers. */
const integer = (key: string, value: unknown, min: number, max: number): number => {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isInteger(number) || number < min || number > max) {
    throw problem(key, value, `a whole number from ${min} to ${max}`);
  }
  return number;
};

const logLevel = (value: unknown): LogLevel => {
  const level = typeof value === 'string' ? value.toUpperCase() : value;
  if (!(LOG_LEVELS as readonly unknown[]).includes(level)) throw problem(CONTEXT_KEYS.logLevel, value, LOG_LEVELS.join(', '));
  return level as LogLevel;
};

/** API Gateway stage names: `$default`, or letters, digits, `-` and `_` (up to 128). */
const stageName = (value: unknown): string => {
  if (typeof value !== 'string' || !/^(\$default|[A-Za-z0-9_-]{1,128})$/.test(value)) {
    throw problem(CONTEXT_KEYS.stageName, value, '"$default" or letters, digits, "-" and "_"');
  }
  return value;
};

/** A comma-separated string (from `-c`) or an array (from cdk.json) of `https://host[:port]` origins, or `*`. */
const origins = (value: unknown): string[] => {
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : null;
  if (!list) throw problem(CONTEXT_KEYS.corsAllowedOrigins, value, 'a comma-separated list of origins');
  const trimmed = list.map((origin) => String(origin).trim()).filter((origin) => origin !== '');
  for (const origin of trimmed) {
    if (origin !== '*' && !/^https?:\/\/[^/\s]+$/.test(origin)) {
      throw problem(CONTEXT_KEYS.corsAllowedOrigins, origin, 'origins such as https://app.example.com (no path)');
    }
  }
  return trimmed;
};

const email = (value: unknown): string => {
  if (typeof value !== 'string' || !/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(value.trim())) {
    throw problem(CONTEXT_KEYS.alarmEmail, value, 'an e-mail address');
  }
  return value.trim();
};

const boolean = (key: string, value: unknown): boolean => {
  if (value === true || value === 'true') return true;
  if (value === false || value === 'false') return false;
  throw problem(key, value, 'true or false');
};

const matching =
  (key: string, pattern: RegExp, expected: string) =>
  (value: unknown): string => {
    const text = typeof value === 'number' ? String(value) : value;
    if (typeof text !== 'string' || !pattern.test(text.trim())) throw problem(key, value, expected);
    return text.trim();
  };

const accountId = matching(CONTEXT_KEYS.account, /^\d{12}$/, 'a 12-digit AWS account id');
const regionName = matching(CONTEXT_KEYS.region, /^[a-z]{2}(-[a-z]+)+-\d$/, 'an AWS region such as eu-west-1');
const hostName = (key: string) =>
  matching(key, /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}\.?$/i, 'a DNS name such as api.example.com');
const certificate = matching(
  CONTEXT_KEYS.certificateArn,
  /^arn:aws[a-z-]*:acm:[a-z0-9-]+:\d{12}:certificate\/[A-Za-z0-9-]+$/,
  'an ACM certificate ARN',
);
const zoneId = matching(
  CONTEXT_KEYS.hostedZoneId,
  /^Z[A-Z0-9]{4,31}$/,
  'a Route 53 hosted zone id such as Z0123456789ABCDEFGHIJ',
);
const dynamoTableName = matching(CONTEXT_KEYS.tableName, /^[A-Za-z0-9_.-]{3,255}$/, 'a DynamoDB table name');
const secretArn = matching(
  CONTEXT_KEYS.tokenKeysSecretArn,
  /^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:\d{12}:secret:[A-Za-z0-9/_+=.@-]+-[A-Za-z0-9]{6}$/,
  'the full ARN of a Secrets Manager secret (with its 6-character suffix)',
);

const isoTime = (value: unknown): string => {
  const text = typeof value === 'string' ? value.trim() : '';
  if (!/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?(\.\d+)?(Z|[+-]\d{2}:\d{2}))?$/.test(text) || Number.isNaN(Date.parse(text))) {
    throw problem(CONTEXT_KEYS.storedTokensUntil, value, 'an ISO 8601 time such as 2026-12-24T00:00:00Z');
  }
  return new Date(Date.parse(text)).toISOString();
};

const httpsUrl =
  (key: string) =>
  (value: unknown): string => {
    const text = typeof value === 'string' ? value.trim() : '';
    if (!/^https:\/\/[^\s/]+(\/\S*)?$/.test(text))
      throw problem(key, value, 'an https URL such as https://example.okta.com/oauth2/default');
    return text.replace(/\/$/, '');
  };

const claimValue = (key: string) => matching(key, /^[\x21-\x7e]{1,255}$/, 'a claim name or value of visible characters');

const mfaSetting = (value: unknown): KnapSettings['adminMfa'] => {
  if (value === 'off' || value === 'optional' || value === 'required') return value;
  throw problem(CONTEXT_KEYS.adminMfa, value, 'off, optional or required');
};

const deploymentPreference = (value: unknown): DeploymentPreference => {
  const name = typeof value === 'string' ? value.trim().toUpperCase() : value;
  if (!(DEPLOYMENT_PREFERENCES as readonly unknown[]).includes(name)) {
    throw problem(CONTEXT_KEYS.deploymentPreference, value, DEPLOYMENT_PREFERENCES.join(', '));
  }
  return name as DeploymentPreference;
};

/** A JSON object (cdk.json, or a JSON string from `-c`) or `id=value,id=value` pairs. */
const entries = (key: string, value: unknown): [string, unknown][] => {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) return Object.entries(value);
  if (typeof value !== 'string') throw problem(key, value, 'an object or id=value pairs');
  const text = value.trim();
  if (text.startsWith('{')) {
    try {
      return entries(key, JSON.parse(text) as unknown);
    } catch (error) {
      throw error instanceof SyntaxError ? problem(key, value, 'valid JSON') : error;
    }
  }
  return text
    .split(',')
    .map((pair) => pair.trim())
    .filter((pair) => pair !== '')
    .map((pair) => {
      const at = pair.indexOf('=');
      if (at <= 0) throw problem(key, pair, 'id=value');
      return [pair.slice(0, at).trim(), pair.slice(at + 1).trim()];
    });
};

const ROUTE_IDS = routes.map((route) => route.id);
const FUNCTION_IDS = [...FUNCTIONS.map((fn) => fn.id), ...jobs.map((job) => job.id)];

const knownId = (key: string, id: string, known: readonly string[]): string => {
  if (!known.includes(id)) throw problem(key, id, `one of ${known.join(', ')}`);
  return id;
};

/** `{"token": {"rateLimit": 20, "burstLimit": 40}}`, or `token=20/40,docs=5/10`; merged over the defaults. */
const routeThrottles = (value: unknown): Record<string, Throttle> => {
  const key = CONTEXT_KEYS.routeThrottles;
  const given = entries(key, value).map(([id, throttle]): [string, Throttle] => {
    knownId(key, id, ROUTE_IDS);
    const [rate, burst] =
      typeof throttle === 'string'
        ? throttle.split('/')
        : [(throttle as Partial<Throttle> | null)?.rateLimit, (throttle as Partial<Throttle> | null)?.burstLimit];
    return [
      id,
      {
        rateLimit: integer(`${key}.${id}.rateLimit`, rate, 1, 10_000),
        burstLimit: integer(`${key}.${id}.burstLimit`, burst, 1, 5_000),
      },
    ];
  });
  return { ...DEFAULT_ROUTE_THROTTLES, ...Object.fromEntries(given) };
};

/** One throttle: `20/40` (rate/burst), or `{"rateLimit": 20, "burstLimit": 40}` (cdk.json, or JSON from `-c`). */
const throttle = (key: string, value: unknown): Throttle => {
  let given = value;
  if (typeof value === 'string' && value.trim().startsWith('{')) {
    try {
      given = JSON.parse(value) as unknown;
    } catch {
      throw problem(key, value, 'valid JSON');
    }
  }
  if (typeof given === 'string') {
    const parts = given.split('/');
    if (parts.length !== 2) throw problem(key, value, 'rate/burst such as 20/40');
    return {
      rateLimit: integer(`${key}.rateLimit`, parts[0], 1, 10_000),
      burstLimit: integer(`${key}.burstLimit`, parts[1], 1, 5_000),
    };
  }
  if (typeof given !== 'object' || given === null || Array.isArray(given)) {
    throw problem(key, value, 'rate/burst such as 20/40, or {"rateLimit": 20, "burstLimit": 40}');
  }
  const { rateLimit, burstLimit } = given as Partial<Record<keyof Throttle, unknown>>;
  return {
    rateLimit: integer(`${key}.rateLimit`, rateLimit, 1, 10_000),
    burstLimit: integer(`${key}.burstLimit`, burstLimit, 1, 5_000),
  };
};

/** `5` (every function), `{"token": 5}` or `token=5,*=2`. */
const reservedConcurrency = (value: unknown): Record<string, number> => {
  const key = CONTEXT_KEYS.reservedConcurrency;
  const pairs =
    typeof value === 'number' || (typeof value === 'string' && /^\s*\d+\s*$/.test(value)) ? [['*', value]] : entries(key, value);
  return Object.fromEntries(
    pairs.map(([id, count]) => [knownId(key, String(id), ['*', ...FUNCTION_IDS]), integer(`${key}.${id}`, count, 0, 1_000)]),
  );
};

/** Settings from context, each falling back to its default; bad values fail the synth with a clear message. */
export const settingsFromContext = (node: Node): KnapSettings => {
  const read = (key: string): unknown => node.tryGetContext(key);
  const pick = <T>(key: string, parse: (value: unknown) => T, fallback: T): T => {
    const value = read(key);
    return value === undefined || value === null ? fallback : parse(value);
  };
  const settings: KnapSettings = {
    stageName: pick(CONTEXT_KEYS.stageName, stageName, DEFAULT_SETTINGS.stageName),
    logLevel: pick(CONTEXT_KEYS.logLevel, logLevel, DEFAULT_SETTINGS.logLevel),
    defaultRateLimit: pick(
      CONTEXT_KEYS.defaultRateLimit,
      (value) => integer(CONTEXT_KEYS.defaultRateLimit, value, 1, MAX_RATE_LIMIT),
      DEFAULT_SETTINGS.defaultRateLimit,
    ),
    throttleRateLimit: pick(
      CONTEXT_KEYS.throttleRateLimit,
      (value) => integer(CONTEXT_KEYS.throttleRateLimit, value, 1, 10_000),
      DEFAULT_SETTINGS.throttleRateLimit,
    ),
    throttleBurstLimit: pick(
      CONTEXT_KEYS.throttleBurstLimit,
      (value) => integer(CONTEXT_KEYS.throttleBurstLimit, value, 1, 5_000),
      DEFAULT_SETTINGS.throttleBurstLimit,
    ),
    corsAllowedOrigins: pick(CONTEXT_KEYS.corsAllowedOrigins, origins, DEFAULT_SETTINGS.corsAllowedOrigins),
    alarmEmail: pick(CONTEXT_KEYS.alarmEmail, email, DEFAULT_SETTINGS.alarmEmail),
    dev: pick(CONTEXT_KEYS.dev, (value) => boolean(CONTEXT_KEYS.dev, value), DEFAULT_SETTINGS.dev),
    account: pick(CONTEXT_KEYS.account, accountId, DEFAULT_SETTINGS.account),
    region: pick(CONTEXT_KEYS.region, regionName, DEFAULT_SETTINGS.region),
    deploymentPreference: pick(CONTEXT_KEYS.deploymentPreference, deploymentPreference, DEFAULT_SETTINGS.deploymentPreference),
    domainName: pick(CONTEXT_KEYS.domainName, hostName(CONTEXT_KEYS.domainName), DEFAULT_SETTINGS.domainName),
    certificateArn: pick(CONTEXT_KEYS.certificateArn, certificate, DEFAULT_SETTINGS.certificateArn),
    hostedZoneId: pick(CONTEXT_KEYS.hostedZoneId, zoneId, DEFAULT_SETTINGS.hostedZoneId),
    hostedZoneName: pick(CONTEXT_KEYS.hostedZoneName, hostName(CONTEXT_KEYS.hostedZoneName), DEFAULT_SETTINGS.hostedZoneName),
    routeThrottles: pick(CONTEXT_KEYS.routeThrottles, routeThrottles, DEFAULT_SETTINGS.routeThrottles),
    adminThrottle: pick(
      CONTEXT_KEYS.adminThrottle,
      (value) => throttle(CONTEXT_KEYS.adminThrottle, value),
      DEFAULT_SETTINGS.adminThrottle,
    ),
    reservedConcurrency: pick(CONTEXT_KEYS.reservedConcurrency, reservedConcurrency, DEFAULT_SETTINGS.reservedConcurrency),
    dispatchMaxConcurrency: pick(
      CONTEXT_KEYS.dispatchMaxConcurrency,
      (value) => integer(CONTEXT_KEYS.dispatchMaxConcurrency, value, 2, 1_000),
      DEFAULT_SETTINGS.dispatchMaxConcurrency,
    ),
    tableName: pick(CONTEXT_KEYS.tableName, dynamoTableName, DEFAULT_SETTINGS.tableName),
    freshDeployment: pick(
      CONTEXT_KEYS.freshDeployment,
      (value) => boolean(CONTEXT_KEYS.freshDeployment, value),
      DEFAULT_SETTINGS.freshDeployment,
    ),
    tokenKeysSecretArn: pick(CONTEXT_KEYS.tokenKeysSecretArn, secretArn, DEFAULT_SETTINGS.tokenKeysSecretArn),
    samLocal: pick(CONTEXT_KEYS.samLocal, (value) => boolean(CONTEXT_KEYS.samLocal, value), DEFAULT_SETTINGS.samLocal),
    storedTokensUntil: pick(CONTEXT_KEYS.storedTokensUntil, isoTime, DEFAULT_SETTINGS.storedTokensUntil),
    adminIssuer: pick(CONTEXT_KEYS.adminIssuer, httpsUrl(CONTEXT_KEYS.adminIssuer), DEFAULT_SETTINGS.adminIssuer),
    adminAudience: pick(CONTEXT_KEYS.adminAudience, claimValue(CONTEXT_KEYS.adminAudience), DEFAULT_SETTINGS.adminAudience),
    adminOrgClaim: pick(CONTEXT_KEYS.adminOrgClaim, claimValue(CONTEXT_KEYS.adminOrgClaim), DEFAULT_SETTINGS.adminOrgClaim),
    adminMfa: pick(CONTEXT_KEYS.adminMfa, mfaSetting, DEFAULT_SETTINGS.adminMfa),
    adminConsoleClientId: pick(
      CONTEXT_KEYS.adminConsoleClientId,
      claimValue(CONTEXT_KEYS.adminConsoleClientId),
      DEFAULT_SETTINGS.adminConsoleClientId,
    ),
    adminAccessTokenMark: pick(
      CONTEXT_KEYS.adminAccessTokenMark,
      matching(
        CONTEXT_KEYS.adminAccessTokenMark,
        /^(typ:[\x21-\x7e]{1,100}|claim:[\x21-\x3c\x3e-\x7e]{1,100}(=[\x21-\x7e]{1,100})?)$/,
        'typ:<type>, claim:<name> or claim:<name>=<value>',
      ),
      DEFAULT_SETTINGS.adminAccessTokenMark,
    ),
    adminRateLimit: pick(
      CONTEXT_KEYS.adminRateLimit,
      (value) => integer(CONTEXT_KEYS.adminRateLimit, value, 1, MAX_ADMIN_RATE_LIMIT),
      DEFAULT_SETTINGS.adminRateLimit,
    ),
    quotas: Object.fromEntries(
      QUOTA_KINDS.flatMap((kind) => {
        const key = QUOTA_CONTEXT_KEYS[kind];
        const limit = pick(key, (value) => integer(key, value, 0, kind === 'endpoints' ? MAX_ENDPOINTS : 1_000_000), null);
        return limit === null ? [] : [[kind, limit]];
      }),
    ),
  };
  checkConsistent(settings);
  return settings;
};

/** Settings that are each valid but wrong together; the stack checks these too. */
export const checkConsistent = (settings: KnapSettings): void => {
  if (!settings.dev && (!settings.account || !settings.region)) {
    throw new Error(
      'A stage that is not dev (-c dev=false) must be pinned to an account and a region: -c account=123456789012 -c region=eu-west-1',
    );
  }
  if (!settings.dev && settings.samLocal) {
    throw new Error('samLocal declares DYNAMODB_ENDPOINT for sam local; it is for dev stages only, never for a deployed one');
  }
  if ((settings.adminIssuer === null) !== (settings.adminAudience === null)) {
    throw new Error('adminIssuer and adminAudience go together: the issuer of admin tokens and the audience they name');
  }
  if (settings.freshDeployment && settings.tableName) {
    throw new Error('freshDeployment makes a new table and tableName adopts an existing one: give one of them');
  }
  const zone = [settings.hostedZoneId, settings.hostedZoneName].filter((part) => part !== null).length;
  if (zone === 1) throw new Error('hostedZoneId and hostedZoneName go together (no lookups: both are needed)');
  if ((settings.certificateArn || zone > 0) && !settings.domainName) {
    throw new Error('certificateArn and hostedZoneId/hostedZoneName need a domainName');
  }
  if (settings.domainName && !settings.certificateArn && zone === 0) {
    throw new Error(
      `domainName ${settings.domainName} needs a certificateArn, or hostedZoneId and hostedZoneName to create one in`,
    );
  }
  const zoneName = settings.hostedZoneName?.replace(/\.$/, '').toLowerCase();
  const domain = settings.domainName?.replace(/\.$/, '').toLowerCase();
  if (zoneName && domain && domain !== zoneName && !domain.endsWith(`.${zoneName}`)) {
    throw new Error(`domainName ${settings.domainName} is not in the hosted zone ${settings.hostedZoneName}`);
  }
};

/** Context flags such as `-c nag=false`: only an explicit false (or "false") turns them off. */
export const contextFlag = (node: Node, key: string): boolean => {
  const value = node.tryGetContext(key);
  return !(value === false || value === 'false');
};
