/**
 * One HTTP POST of a webhook, guarded against server-side request forgery: the host is
 * resolved here, at delivery time, every address it resolves to must be public, and the
 * connection goes to that very address (a pinned `lookup`), so a DNS answer that changes
 * between the check and the connect (DNS rebinding) cannot send us elsewhere. The URL's
 * host name stays the TLS server name and the Host header, so certificates verify as usual.
 * Redirects are not followed: a 3xx is a failed attempt like any other non-2xx.
 */
import { lookup as dnsLookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { addressRefusal } from './addresses.js';
import { checkWebhookUrl, describeUrl, literalAddress, type UrlPolicy } from './urls.js';

export interface ResolvedAddress {
  address: string;
  family: number;
}

/** Host name to addresses; tests give their own, so no test ever needs an outside DNS. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export interface SendOptions extends UrlPolicy {
  /** For the whole attempt: resolving, connecting, sending and the answer's status line. */
  timeoutMs: number;
  resolve?: Resolver;
}

export interface WebhookRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

/**
 * `error` names what failed and where, never the response body nor a header we sent. A 2xx
 * answer's body (at most MAX_OUTCOME_BYTES, else null) is given back: it may report the
 * run's outcome (`{"outcome": ...}`).
 */
export type SendResult = (
  | { ok: true; status: number; body?: string | null }
  | { ok: false; status: number | null; error: string }
) & {
  /** From the start of the attempt to its answer's end (or its failure). */
  durationMs?: number;
  /** The first RESPONSE_SNIPPET_BYTES of the answer, for admins only (never logged, never in the studio API). */
  snippet?: string | null;
};

/** How much of an answer an attempt record keeps: the contract's first 1 KB. */
export const RESPONSE_SNIPPET_BYTES = 1024;

/** We read at most this much of a failed answer (and keep none of it): its status is all that counts. */
export const MAX_RESPONSE_BYTES = 4096;
/** A 2xx answer is read up to this much: an outcome with an output of 64 KB, and room for its JSON. */
export const MAX_OUTCOME_BYTES = 80 * 1024;

/** Where to connect, or why not. */
type Target = { address: ResolvedAddress } | { refused: string };

const familyOf = (address: string): number => (address.includes(':') ? 6 : 4);

const chooseAddress = async (url: URL, local: boolean, resolve: Resolver): Promise<Target> => {
  const literal = literalAddress(url);
  if (literal) {
    const refusal = local ? null : addressRefusal(literal);
    return refusal ? { refused: `${url.hostname} is ${refusal}` } : { address: { address: literal, family: familyOf(literal) } };
  }
  const addresses = await resolve(url.hostname);
  if (local) {
    // "localhost" is allowed for what it means, this machine: only its loopback addresses.
    const loopback = addresses.find(({ address }) => addressRefusal(address) === 'a loopback address');
    return loopback ? { address: loopback } : { refused: `${url.hostname} does not resolve to a loopback address` };
  }
  // Every address must pass, not just the first: which one a client picks is not ours to say.
  for (const { address } of addresses) {
    const refusal = addressRefusal(address);
    if (refusal) return { refused: `${url.hostname} resolves to ${refusal}` };
  }
  const [first] = addresses;
  return first ? { address: first } : { refused: `${url.hostname} resolves to no address` };
};

/** Answers every lookup the socket makes with the address that was checked. */
const pinnedLookup =
  ({ address, family }: ResolvedAddress): LookupFunction =>
  (_hostname, options, callback) => {
    if (options.all) callback(null, [{ address, family }]);
    else callback(null, address, family);
  };

/**
 * Resolves with the status as soon as the answer's head arrives; the body is then read (up
 * to MAX_RESPONSE_BYTES, thrown away) until it ends or `signal` aborts, so `done` tells when
 * the socket is gone. A 2xx answer resolves once its body has ended (within the attempt's
 * timeout), with the body when it is at most MAX_OUTCOME_BYTES.
 */
const post = (url: URL, target: ResolvedAddress, request: WebhookRequest, signal: AbortSignal, done: () => void) =>
  new Promise<{ status: number; body: string | null; snippet: string }>((resolve, reject) => {
    /** A 2xx head arrived: whatever happens to its body, the attempt delivered. */
    let delivered: number | null = null;
    const transport = url.protocol === 'https:' ? https : http;
    const outgoing = transport.request(
      {
        protocol: url.protocol,
        hostname: url.hostname.replace(/^\[(.*)\]$/, '$1'),
        port: url.port || undefined,
        path: `${url.pathname}${url.search}`,
        method: 'POST',
        headers: Object.assign({}, request.headers, { 'content-length': String(Buffer.byteLength(request.body)) }),
        lookup: pinnedLookup(target),
        agent: false,
        signal,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const success = status >= 200 && status < 300;
        if (success) delivered = status;
        const limit = success ? MAX_OUTCOME_BYTES : MAX_RESPONSE_BYTES;
        const chunks: Buffer[] = [];
        const head: Buffer[] = [];
        let read = 0;
        const snippet = () =>
          Buffer.concat(head)
            .subarray(0, RESPONSE_SNIPPET_BYTES)
            .toString('utf8')
            .replace(/\uFFFD+$/, '');
        // A failed answer counts by its status: resolved at once unless its first 1 KB comes soon after.
        const failedBy = success ? null : setTimeout(() => resolve({ status, body: null, snippet: snippet() }), 200);
        failedBy?.unref();
        response.on('data', (chunk: Buffer) => {
          if (read < RESPONSE_SNIPPET_BYTES) head.push(chunk);
          read += chunk.length;
          if (!success && read >= RESPONSE_SNIPPET_BYTES) resolve({ status, body: null, snippet: snippet() });
          if (success && read <= limit) chunks.push(chunk);
          if (read > limit) {
            chunks.length = 0;
            response.destroy();
          }
        });
        response.on('end', () => {
          resolve({ status, body: success && read <= limit ? Buffer.concat(chunks).toString('utf8') : null, snippet: snippet() });
        });
        // The status is what counts; a body cut short is no failure (and reports nothing).
        response.on('error', () => {});
        response.on('close', () => {
          if (failedBy) clearTimeout(failedBy);
          resolve({ status, body: null, snippet: snippet() });
          done();
        });
      },
    );
    outgoing.on('error', (error) => {
      done();
      if (delivered !== null) resolve({ status: delivered, body: null, snippet: '' });
      else reject(error);
    });
    outgoing.end(request.body);
  });

const codeOf = (error: unknown): string | undefined =>
  typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : undefined;

/** One line for last_error, from the error's code only: messages may quote what they should not. */
const connectionError = (error: unknown, url: URL): string => {
  const code = codeOf(error);
  const where = describeUrl(url);
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'ENODATA':
      return `cannot resolve ${url.hostname}`;
    case 'ECONNREFUSED':
      return `connection refused by ${where}`;
    case 'ECONNRESET':
    case 'EPIPE':
      return `connection reset by ${where}`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${where} is unreachable`;
  }
  if (code && (/CERT|TLS|SSL/.test(code) || code.startsWith('ERR_SSL'))) return `TLS error (${code}) from ${where}`;
  return `could not deliver to ${where} (${code ?? 'network error'})`;
};

const seconds = (ms: number): string => `${Number((ms / 1000).toFixed(3))} s`;

/** POSTs one webhook; never throws: every failure is a result with a one-line error. */
export const sendWebhook = async (request: WebhookRequest, options: SendOptions): Promise<SendResult> => {
  const started = performance.now();
  const result = await attempt(request, options);
  return Object.assign(result, { durationMs: Math.round(performance.now() - started) });
};

const attempt = async (request: WebhookRequest, options: SendOptions): Promise<SendResult> => {
  const checked = checkWebhookUrl(request.url, options);
  if (!checked.ok) return { ok: false, status: null, error: `refused: ${checked.reason}` };
  const { url, local } = checked;
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs);
  timer.unref();
  const done = () => clearTimeout(timer);
  const timedOut = (): Promise<never> =>
    new Promise((_, reject) => {
      controller.signal.addEventListener('abort', () => reject(controller.signal.reason), { once: true });
    });
  try {
    // DNS cannot be aborted; the race stops us waiting for it.
    const target = await Promise.race([chooseAddress(url, local, options.resolve ?? systemResolver), timedOut()]);
    if ('refused' in target) {
      done();
      return { ok: false, status: null, error: `refused: ${target.refused}` };
    }
    const { status, body, snippet } = await post(url, target.address, request, controller.signal, done);
    if (status >= 200 && status < 300) return { ok: true, status, body, snippet };
    return { ok: false, status, error: `HTTP ${status} from ${describeUrl(url)}`, snippet };
  } catch (error) {
    done();
    if (controller.signal.aborted)
      return { ok: false, status: null, error: `timed out after ${seconds(options.timeoutMs)} (${describeUrl(url)})` };
    return { ok: false, status: null, error: connectionError(error, url) };
  }
};
