/**
 * The messages of the delivery queue (shared/queue/sqs-queue.ts sends them), read without the
 * SQS client: the deliverer reads every message, and sends one only to retry or wait.
 */
import * as v from 'valibot';
import { type MeetingFanOut, MeetingFanOutSchema } from '../domain/runs.js';

export interface DeliveryMessage {
  run_id: string;
  /** One attempt at this endpoint; absent: start the run's delivery (messages of earlier versions too). */
  endpoint_id?: string;
  /** ISO 8601: do not attempt before this (a wait longer than SQS can delay). */
  not_before?: string;
}

/** A message's JSON, or undefined when it is none. */
const parseBody = (body: string): unknown => {
  try {
    return JSON.parse(body);
  } catch {
    return undefined;
  }
};

/** A delivery message as enqueue sends it; null when it is not one (it can never be delivered: drop it). */
const readDelivery = (value: unknown): DeliveryMessage | null => {
  if (typeof value !== 'object' || value === null) return null;
  const { run_id, not_before, endpoint_id } = value as Record<string, unknown>;
  if (typeof run_id !== 'string' || run_id === '') return null;
  if (not_before !== undefined && (typeof not_before !== 'string' || Number.isNaN(Date.parse(not_before)))) return null;
  if (endpoint_id !== undefined && (typeof endpoint_id !== 'string' || endpoint_id === '')) return null;
  const message: DeliveryMessage = { run_id };
  if (endpoint_id !== undefined) message.endpoint_id = endpoint_id;
  if (not_before !== undefined) message.not_before = not_before;
  return message;
};

/** A message body as sent by enqueue; null when it is not one. */
export const parseDeliveryMessage = (body: string): DeliveryMessage | null => readDelivery(parseBody(body));

/** Seconds still to wait before the message's attempt; 0 when it is due. */
export const secondsToWait = (message: DeliveryMessage, now: number): number =>
  message.not_before ? Math.max(0, Math.ceil((Date.parse(message.not_before) - now) / 1000)) : 0;

/** Any message of the queue: a delivery attempt, or a page of a meeting report's runs; null when neither. */
export type QueueMessage = { delivery: DeliveryMessage } | { fanOut: MeetingFanOut };

export const parseQueueMessage = (body: string): QueueMessage | null => {
  const value = parseBody(body);
  if (typeof value === 'object' && value !== null && 'meeting_fan_out' in value) {
    const fanOut = v.safeParse(MeetingFanOutSchema, value.meeting_fan_out);
    return fanOut.success ? { fanOut: fanOut.output } : null;
  }
  const delivery = readDelivery(value);
  return delivery ? { delivery } : null;
};
