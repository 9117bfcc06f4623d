/**
 * One POST to an AWS service, read to its last byte: what DynamoWire (shared/store/dynamo-wire.ts)
 * and the signed JSON calls (json-call.ts) send once their headers are signed.
 */
import { type Agent, type ClientRequest, request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

/** What one attempt got back. */
export interface PostAnswer {
  status: number;
  text: string;
  requestId?: string;
  /** `x-amzn-errortype`, which some answers carry instead of a `__type`. */
  errorType?: string;
}

/** A call under way, as a shared deadline knows it: what to destroy, what to fail, and its name for the error. */
interface CallUnderWay {
  request: ClientRequest;
  reject: (error: Error) => void;
  name: string;
  deadline: SharedDeadline;
}

/**
 * One timer over many calls: a request's deadline over every DynamoDB call made on its behalf.
 * Armed by the first call under way and cleared once none is, rather than a timer per call (a
 * create makes three calls, a PATCH four, and each timer is an insertion in Node's timer lists
 * and a clear). When it fires, every call still under way fails with `expired(name)` and its
 * request is destroyed, as a timer of its own would have done.
 */
export class SharedDeadline {
  private timer: NodeJS.Timeout | undefined;
  private readonly underWay = new Set<CallUnderWay>();

  constructor(
    /** Epoch ms. */
    readonly at: number,
    private readonly expired: (name: string) => Error,
  ) {}

  enter(call: CallUnderWay): void {
    this.underWay.add(call);
    this.timer ??= setTimeout(() => this.fire(), timerWait(Math.max(1, this.at - Date.now())));
  }

  leave(call: CallUnderWay): void {
    this.underWay.delete(call);
    if (this.underWay.size === 0 && this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
  }

  private fire(): void {
    this.timer = undefined;
    const calls = [...this.underWay];
    this.underWay.clear();
    for (const call of calls) {
      const error = this.expired(call.name);
      call.reject(error);
      call.request.destroy(error);
    }
  }
}

/**
 * How long a timer waits for a deadline: a wait of a second or more (a request's deadline,
 * seconds away) rounded up to a whole 100 ms. Node keeps one list of timers per duration, in a
 * heap: deadlines a millisecond apart each made a list and a heap entry, and the deadlines of
 * requests that arrive together now share a few. Late by less than 100 ms, inside the second
 * apiHandler keeps back for the answer; shorter waits (a per-attempt timeout) stay exact.
 */
const timerWait = (ms: number): number => (ms < 1_000 ? ms : Math.ceil(ms / 100) * 100);

/** What bounds one POST: a timer of its own, or its share of a request's deadline. */
export type PostLimit = { ms: number; error: () => Error } | { deadline: SharedDeadline; name: string };

/**
 * Posts `payload` over `agent`, within `limit` when one is given: a timer over the whole
 * exchange (connecting, a free socket, the answer's last byte), not a socket's idle timeout,
 * which starts only once connected and restarts with every byte. When it fires, the request
 * is destroyed and the call fails with the limit's own error.
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
    if (limit && 'deadline' in limit) {
      underWay = { request, reject, name: limit.name, deadline: limit.deadline };
      limit.deadline.enter(underWay);
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

/** A call is done (answered or failed): its timer, or its share of a deadline, with it. */
const settle = (timer: NodeJS.Timeout | undefined, underWay: CallUnderWay | undefined): void => {
  if (timer !== undefined) clearTimeout(timer);
  underWay?.deadline.leave(underWay);
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
