import { isLosslessNumber } from 'lossless-json';
import { etagOf, type StoredKnap } from '../domain/knaps.js';
import { DIGITS_MARK } from '../domain/storable-json.js';
import type { HttpEvent, HttpResult } from './types.js';

const MARKED = new RegExp(`"${DIGITS_MARK}([^"]*)"`, 'g');
/** What JSON.stringify makes of a LosslessNumber that parseJson did not make: its own fields. */
const FOREIGN_LOSSLESS = '"isLosslessNumber":true';

/** The replacer's way: each lossless number (or bigint) written as a marked string as it is met. */
const writeJsonWalking = (body: unknown): string => {
  const text = JSON.stringify(body, (_key, value: unknown) => {
    if (value === null || (typeof value !== 'object' && typeof value !== 'bigint')) return value;
    if (typeof value !== 'bigint' && !isLosslessNumber(value)) return value;
    return `${DIGITS_MARK}${String(value)}`;
  });
  return text === undefined ? 'null' : text.replace(MARKED, '$1');
};

/**
 * JSON text of a value, lossless numbers (tool_metadata's 64-bit ids, 1e400) with their
 * digits: exactly what lossless-json's stringify writes (storable-json's toJson), in one native
 * JSON.stringify pass instead of lossless-json's walk in JavaScript (~0.5 ms for a listing
 * of 50 Knaps). The numbers parseJson made write themselves as marked strings, replaced by
 * their digits after. A LosslessNumber made elsewhere, or a bigint, sends the value through
 * a replacer instead (slower: a JavaScript call per property), as does an object that merely
 * looks like one, which the replacer then writes as it is.
 */
export const writeJson = (body: unknown): string => {
  let text: string | undefined;
  try {
    text = JSON.stringify(body);
  } catch {
    // A bigint, which only the replacer writes (a cycle throws there too).
    return writeJsonWalking(body);
  }
  if (text === undefined) return 'null';
  if (text.includes(FOREIGN_LOSSLESS)) return writeJsonWalking(body);
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
