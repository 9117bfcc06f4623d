/**
 * A request's body as the local server reads it, and the route bench's floor, which must read
 * it as cheaply: a module of its own, so that the floor loads nothing else of the server.
 */
import type { IncomingMessage } from 'node:http';

/** API Gateway's own payload limit; larger requests never reach a Lambda. */
export const MAX_PAYLOAD_BYTES = 10 * 1024 * 1024;

const NO_BODY = Buffer.alloc(0);

/**
 * A request that says of no body (HTTP/1.1: neither Content-Length nor Transfer-Encoding, or a
 * length of 0), as most GETs: nothing to read. Node hands it over before it has parsed the
 * message's end, so `complete` is not yet set; reading the stream would cost an iterator and
 * its promises for nothing. Node discards what was not read once the answer is written.
 */
const hasNoBody = (request: IncomingMessage): boolean => {
  const { headers } = request;
  const length = headers['content-length'];
  return headers['transfer-encoding'] === undefined && (length === undefined || length === '0');
};

/**
 * A request's body; null when it is over MAX_PAYLOAD_BYTES (API Gateway's limit), and then the
 * rest is not read (the request is destroyed). Rejects when the request ends early (its
 * connection gone). Listeners rather than the stream's async iterator, whose promises and
 * end-of-stream tracking cost more than a small body's read.
 */
export const readBody = (request: IncomingMessage): Promise<Buffer | null> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    // Settled once; the listeners stay, as the request is done with then (removing them costs more).
    let settled = false;
    const onData = (chunk: Buffer) => {
      if (settled) return;
      size += chunk.length;
      if (size <= MAX_PAYLOAD_BYTES) {
        chunks.push(chunk);
        return;
      }
      settled = true;
      request.destroy();
      resolve(null);
    };
    const onEnd = (error?: Error) => {
      if (settled) return;
      settled = true;
      if (error) reject(error);
      else resolve(chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, size));
    };
    request.on('data', onData);
    request.on('end', onEnd);
    request.on('error', onEnd);
    // Closed before its end: the connection went away mid-body (after an end, nothing happens).
    request.on('close', () => onEnd(request.errored ?? new Error('The request ended before its body did')));
  });

/** The body of a request, without reading a stream when the request says it has none; null past MAX_PAYLOAD_BYTES. */
export const requestBody = (request: IncomingMessage): Promise<Buffer | null> =>
  hasNoBody(request) ? Promise.resolve(NO_BODY) : readBody(request);
