import type { Node } from 'constructs';
import { DEFAULT_RATE_LIMIT, MAX_RATE_LIMIT } from '../shared/domain/clients.js';

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
}

export const DEFAULT_SETTINGS: KnapSettings = {
  stageName: '$default',
  logLevel: 'INFO',
  defaultRateLimit: DEFAULT_RATE_LIMIT,
  throttleRateLimit: 100,
  throttleBurstLimit: 200,
  corsAllowedOrigins: [],
  alarmEmail: null,
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
  /** `-c nag=false` skips the cdk-nag AwsSolutions checks at synth. */
  nag: 'nag',
} as const;

export const DEFAULT_STACK_NAME = 'KnapApi';

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

/** Settings from context, each falling back to its default; bad values fail the synth with a clear message. */
export const settingsFromContext = (node: Node): KnapSettings => {
  const read = (key: string): unknown => node.tryGetContext(key);
  const pick = <T>(key: string, parse: (value: unknown) => T, fallback: T): T => {
    const value = read(key);
    return value === undefined || value === null ? fallback : parse(value);
  };
  return {
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
  };
};

/** Context flags such as `-c nag=false`: only an explicit false (or "false") turns them off. */
export const contextFlag = (node: Node, key: string): boolean => {
  const value = node.tryGetContext(key);
  return !(value === false || value === 'false');
};
