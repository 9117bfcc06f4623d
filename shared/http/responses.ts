import { randomBytes } from 'node:crypto';
import { isLosslessNumber } from 'lossless-json';
import { etagOf, type StoredKnap } from '../domain/knaps.js';
import type { HttpEvent, HttpResult } from './types.js';

/**
 * Stands in for a number JSON.stringify cannot write with its digits. Random per process and
 * never written out, so no string a caller stored can be taken for one.
 */
const MARK = `\u2063num:${randomBytes(12).toString('base64url')}:`;
const MARKED = new RegExp(`"${MARK}(\\d+)"`, 'g');

/**
 * JSON text of a value, lossless numbers (tool_metadata's 64-bit ids, 1e400) with their
 * digits: exactly what lossless-json's stringify writes (storable-json's toJson), in one native
 * JSON.stringify pass instead of lossless-json's walk in JavaScript (~0.5 ms for a listing
 * of 50 Knaps). Each lossless number (or bigint) is written as a marked string, then the
 * marks are replaced by the digits; a body with none is written as it is.
 */
export const writeJson = (body: unknown): string => {
  let digits: string[] | undefined;
  const text = JSON.stringify(body, (_key, value: unknown) => {
    if (value === null || (typeof value !== 'object' && typeof value !== 'bigint')) return value;
    if (typeof value !== 'bigint' && !isLosslessNumber(value)) return value;
    digits ??= [];
    digits.push(String(value));
    return `${MARK}${digits.length - 1}`;
  });
  if (text === undefined) return 'null';
  return digits ? text.replace(MARKED, (_match, index: string) => digits?.[Number(index)] as string) : text;
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
