/**
 * One POST to an AWS service, read to its last byte: what DynamoWire (shared/store/dynamo-wire.ts)
 * and the signed JSON calls (json-call.ts) send once their headers are signed.
 */
import { type Agent, type ClientRequest, request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { unwatch, Watched, watch } from '../deadlines.js';

/** What one attempt got back. */
export interface PostAnswer {
  status: number;
  text: string;
  requestId?: string;
  /** `x-amzn-errortype`, which some answers carry instead of a `__type`. */
  errorType?: string;
}

/**
 * A call under way with a time it must be answered by (a request's deadline), on the process's
 * one watch list (shared/deadlines.ts) rather than a timer of its own: once that time has
 * passed, it fails with its error and its request is destroyed.
 */
class CallUnderWay extends Watched {
  constructor(
    at: number,
    private readonly request: ClientRequest,
    private readonly reject: (error: Error) => void,
    private readonly error: () => Error,
  ) {
    super(at);
  }

  expire(): void {
    const error = this.error();
    this.reject(error);
    this.request.destroy(error);
  }
}

/** What bounds one POST: a timer of its own (`ms` from now), or a time on the watch list (`at`, epoch ms). */
export type PostLimit = { ms: number; error: () => Error } | { at: number; error: () => Error };

/**
 * Posts `payload` over `agent`, within `limit` when one is given: a bound over the whole
 * exchange (connecting, a free socket, the answer's last byte), not a socket's idle timeout,
 * which starts only once connected and restarts with every byte. When it is reached, the
 * request is destroyed and the call fails with the limit's own error.
 *
 * The listeners are arrow functions passed as arguments, none bound to a name: under `npm
 * start`, tsx names every named function expression as it is made (a defineProperty per call).
 */
export const postOnce = (
  url: URL,
  headers: Record<string, string>,
  payload: string,
  agent: Agent | undefined,
  limit?: PostLimit,
): Promise<PostAnswer> =>
  new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    let underWay: CallUnderWay | undefined;
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(
      {
        protocol: url.protocol,
        // An IPv6 literal's brackets belong to the URL and the Host header, not to the lookup.
        hostname: url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname,
        port: url.port || undefined,
        path: url.pathname,
        method: 'POST',
        headers,
        agent,
      },
      (response: IncomingMessage) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('error', (error: Error) => {
          settle(timer, underWay);
          reject(error);
        });
        response.on('end', () => {
          settle(timer, underWay);
          resolve({
            status: response.statusCode ?? 0,
            text: chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8'),
            requestId: header(response, 'x-amzn-requestid'),
            errorType: response.statusCode === 200 ? undefined : header(response, 'x-amzn-errortype'),
          });
        });
      },
    );
    request.on('error', (error: Error) => {
      settle(timer, underWay);
      reject(error);
    });
    if (limit && 'at' in limit) {
      underWay = new CallUnderWay(limit.at, request, reject, limit.error);
      watch(underWay);
    } else if (limit) {
      const { ms, error: expired } = limit;
      timer = setTimeout(() => {
        const error = expired();
        reject(error);
        request.destroy(error);
      }, ms);
    }
    request.end(payload);
  });

/** A call is done (answered or failed): its timer cleared, or its place on the watch list given up. */
const settle = (timer: NodeJS.Timeout | undefined, underWay: CallUnderWay | undefined): void => {
  if (timer !== undefined) clearTimeout(timer);
  if (underWay !== undefined) unwatch(underWay);
};

const header = (response: IncomingMessage, name: string): string | undefined => {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** The name in an AWS error type, as the SDK reads it: `prefix#Name:suffix` is `Name`. */
export const errorTypeName = (raw: string): string => {
  const beforeColon = raw.split(':')[0] ?? '';
  return beforeColon.includes('#') ? (beforeColon.split('#')[1] ?? '') : beforeColon;
};
