/**
 * Idempotency-Key on create: a client whose response was lost retries with the same key and
 * gets the first answer instead of a second Knap.
 */

/** How long a key answers with the first response. */
export const IDEMPOTENCY_TTL_SECONDS = 24 * 3600;

/**
 * How long an in-flight claim holds: past this (the 10 s function timeout, and a margin for
 * clocks that differ between containers) the first request can no longer be running, so a retry
 * may take its place rather than wait 24 hours. A 409 tells the time left of it (Retry-After).
 */
export const IDEMPOTENCY_LEASE_SECONDS = 15;

/** 1-255 printable ASCII characters, as the contract says. */
export const isValidIdempotencyKey = (key: string): boolean => /^[\x20-\x7e]{1,255}$/.test(key);

/** The answer stored for replay: the status, the headers that describe the body (ETag), and the body's JSON text. */
export interface StoredResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export interface IdempotencyRecord {
  clientId: string;
  key: string;
  /** SHA-256 of the request body as parsed, so whitespace does not make a body different. */
  requestHash: string;
  /** `released`: the request failed and gave the key up; a retry with the same body may run it. */
  state: 'in_flight' | 'done' | 'released';
  /**
   * The id of what the request creates, fixed when the key is first claimed, so that a retry
   * after a failure or a lost answer writes the same Knap, never a second one.
   */
  resourceId: string;
  response: StoredResponse | null;
  /** Epoch seconds: the record's end (the table's TTL attribute, checked in code too). */
  expiresAt: number;
  /** Epoch seconds: until when an in-flight claim holds. */
  leaseUntil: number;
}

/** Claimed: run the request, creating `resourceId`. Not claimed: the record that holds the key. */
export type ClaimResult = { claimed: true; resourceId: string } | { claimed: false; existing: IdempotencyRecord };
