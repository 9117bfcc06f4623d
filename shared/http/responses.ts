import { etagOf, type StoredKnap } from '../domain/knaps.js';
import { DIGITS_MARK, toJson } from '../domain/storable-json.js';
import type { HttpEvent, HttpResult } from './types.js';

const MARKED = new RegExp(`"${DIGITS_MARK}([^"]*)"`, 'g');
/** What JSON.stringify makes of a LosslessNumber that parseJson did not make: its own fields. */
const FOREIGN_LOSSLESS = '"isLosslessNumber":true';

/**
 * JSON text of a value, lossless numbers (tool_metadata's 64-bit ids, 1e400) with their
 * digits: exactly what lossless-json's stringify writes (storable-json's toJson), in one native
 * JSON.stringify pass instead of lossless-json's walk in JavaScript (~0.5 ms for a listing
 * of 50 Knaps). The numbers parseJson made write themselves as marked strings, replaced by
 * their digits after. A LosslessNumber made elsewhere, a bigint, or an object that merely
 * looks like a LosslessNumber is left to toJson itself (slower, and rare).
 */
export const writeJson = (body: unknown): string => {
  let text: string | undefined;
  try {
    text = JSON.stringify(body);
  } catch {
    // A bigint, which JSON.stringify refuses (a cycle throws in toJson too).
    return toJson(body);
  }
  if (text === undefined) return 'null';
  if (text.includes(FOREIGN_LOSSLESS)) return toJson(body);
  return text.includes(DIGITS_MARK) ? text.replace(MARKED, '$1') : text;
};

export const json = (statusCode: number, body: unknown, headers: Record<string, string> = {}): HttpResult => ({
  statusCode,
  headers: { 'Content-Type': 'application/json', ...headers },
  body: writeJson(body),
});

export const problem = (statusCode: number, detail: string, headers: Record<string, string> = {}): HttpResult =>
  json(statusCode, { detail }, headers);

/** A Knap with its ETag, which If-Match on PATCH and DELETE compares against. */
export const knapResponse = (statusCode: number, stored: StoredKnap): HttpResult =>
  json(statusCode, stored.knap, { ETag: etagOf(stored.version) });

/**
 * The scheme a proxy says the request came in on: the first of a list ("https,http"), and
 * only http or https, since the caller writes this header and the OAuth metadata's issuer
 * is built from it (never `javascript://`).
 */
const forwardedScheme = (header: string | undefined): string | undefined => {
  const first = header?.split(',')[0]?.trim().toLowerCase();
  return first === 'http' || first === 'https' ? first : undefined;
};

/** The base URL a request came in on: the API's own address as its caller sees it. */
export const baseUrlOf = (event: HttpEvent): string => {
  const configured = process.env.PUBLIC_BASE_URL;
  if (configured) return configured.replace(/\/$/, '');
  const scheme =
    forwardedScheme(event.headers?.['x-forwarded-proto']) ??
    (event.requestContext.domainName.endsWith('.amazonaws.com') ? 'https' : 'http');
  return `${scheme}://${event.requestContext.domainName}`;
};

/** 204: done, nothing to say. */
export const noContent = (): HttpResult => ({ statusCode: 204, headers: {}, body: '' });
