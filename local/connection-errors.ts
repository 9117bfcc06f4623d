/**
 * Telling "DynamoDB is not there" apart from other failures, so `npm start` and the admin
 * CLI can say so in one line instead of printing an SDK stack.
 */

/** Socket and DNS failures: nothing answered at the address. */
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EPIPE',
]);

interface ErrorLike {
  name?: unknown;
  message?: unknown;
  code?: unknown;
  errors?: unknown;
}

// Duck-typed rather than `instanceof Error`: Node's socket errors come from another realm under Jest.
const asErrorLike = (error: unknown): ErrorLike | undefined =>
  typeof error === 'object' && error !== null ? (error as ErrorLike) : undefined;

const text = (value: unknown): string => (typeof value === 'string' ? value : '');

/**
 * Why nothing answered, when that is what the error says; undefined for any other error.
 * Node reports a refused `localhost` (tried on ::1 and 127.0.0.1) as an AggregateError with
 * an empty message, so the reason is taken from its first inner error.
 */
export const unreachableReason = (error: unknown): string | undefined => {
  const failure = asErrorLike(error);
  if (!failure) return undefined;
  const code = text(failure.code);
  // The SDK's connection or request timeout (the deadline error carries the same name).
  const timedOut = failure.name === 'TimeoutError';
  if (!timedOut && !UNREACHABLE_CODES.has(code)) return undefined;
  const inner = Array.isArray(failure.errors) ? asErrorLike(failure.errors[0]) : undefined;
  return (text(inner?.message) || text(failure.message) || code || 'no answer').split('\n')[0];
};

/** `DYNAMODB_ENDPOINT=http://127.0.0.1:1 does not answer: connect ECONNREFUSED 127.0.0.1:1` */
export const endpointDoesNotAnswer = (endpoint: string, reason: string): string =>
  `DYNAMODB_ENDPOINT=${endpoint} does not answer: ${reason}`;

/**
 * Why DYNAMODB_ENDPOINT cannot be used, if it cannot: `localhost:8000` parses as a URL with
 * the scheme `localhost:`, and the SDK then fails with a bare "UnknownError".
 */
export const badEndpoint = (endpoint: string): string | undefined => {
  const url = URL.canParse(endpoint) ? new URL(endpoint) : undefined;
  if (url && (url.protocol === 'http:' || url.protocol === 'https:') && url.hostname !== '') return undefined;
  return `DYNAMODB_ENDPOINT=${endpoint} is not an http(s) URL; write it as http://host:port, e.g. http://127.0.0.1:8000.`;
};
