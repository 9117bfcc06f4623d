import type { RunEvent } from '../domain/run-events.js';
import { toJson } from '../domain/storable-json.js';
import type { HttpResult } from './types.js';

/** Whether the client asked for Server-Sent Events. */
export const wantsEventStream = (accept: string | undefined): boolean =>
  accept !== undefined && /(^|,)\s*text\/event-stream\s*(;|,|$)/i.test(accept);

/**
 * One answer of a stream (an API Gateway answer is buffered: the client reconnects with
 * Last-Event-ID): the `retry:` hint, then each event as `id:`, `event:`, `data:`. With nothing
 * to send, a comment keeps the answer non-empty.
 */
export const eventStream = (events: readonly RunEvent[], retryMs: number): HttpResult => {
  let body = `retry: ${retryMs}\n\n`;
  if (events.length === 0) body += ': nothing new\n\n';
  for (const event of events) body += `id: ${event.id}\nevent: ${event.type}\ndata: ${toJson(event)}\n\n`;
  return {
    statusCode: 200,
    headers: { 'Content-Type': 'text/event-stream; charset=utf-8', 'Cache-Control': 'no-store' },
    body,
  };
};
