/**
 * One POST to an AWS service, read to its last byte: what DynamoWire (shared/store/dynamo-wire.ts)
 * and the signed JSON calls (json-call.ts) send once their headers are signed.
 */
import { type Agent, request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** What one attempt got back. */
export interface PostAnswer {
  status: number;
  text: string;
  requestId?: string;
  /** `x-amzn-errortype`, which some answers carry instead of a `__type`. */
  errorType?: string;
}

/**
 * Posts `payload` over `agent`, within `timeout` when one is given: one timer over the whole
 * exchange (connecting, a free socket, the answer's last byte), not a socket's idle timeout,
 * which starts only once connected and restarts with every byte. When it fires, the request
 * is destroyed and the call fails with the timeout's own error.
 */
export const postOnce = (
  url: URL,
  headers: Record<string, string>,
  payload: string,
  agent: Agent | undefined,
  timeout?: { ms: number; error: () => Error },
): Promise<PostAnswer> =>
  new Promise((resolve, reject) => {
    let timer: NodeJS.Timeout | undefined;
    const finish =
      <T>(done: (value: T) => void) =>
      (value: T) => {
        clearTimeout(timer);
        done(value);
      };
    const fail = finish(reject);
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
        response.on('error', fail);
        response.on(
          'end',
          finish(() =>
            resolve({
              status: response.statusCode ?? 0,
              text: chunks.length === 1 ? (chunks[0] as Buffer).toString('utf8') : Buffer.concat(chunks).toString('utf8'),
              requestId: header(response, 'x-amzn-requestid'),
              errorType: response.statusCode === 200 ? undefined : header(response, 'x-amzn-errortype'),
            }),
          ),
        );
      },
    );
    request.on('error', fail);
    if (timeout) {
      timer = setTimeout(() => {
        const error = timeout.error();
        reject(error);
        request.destroy(error);
      }, timeout.ms);
    }
    request.end(payload);
  });

const header = (response: IncomingMessage, name: string): string | undefined => {
  const value = response.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

/** The name in an AWS error type, as the SDK reads it: `prefix#Name:suffix` is `Name`. */
export const errorTypeName = (raw: string): string => {
  const beforeColon = raw.split(':')[0] ?? '';
  return beforeColon.includes('#') ? (beforeColon.split('#')[1] ?? '') : beforeColon;
};
