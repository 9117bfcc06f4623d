import { randomBytes } from 'node:crypto';
import { createRequire } from 'node:module';
import type { LosslessNumber } from 'lossless-json';
import type * as LosslessJson from './lossless-json-chunk.js';

/** Set by esbuild in deployed bundles (lib/knap-function.ts): lossless-json's file, beside the bundle. */
declare const KNAP_LOSSLESS_JSON_CHUNK: string | undefined;

let losslessJson: typeof LosslessJson | undefined;

/**
 * lossless-json, loaded by the first JSON that JSON.parse or JSON.stringify cannot be trusted
 * with alone: a number with a point, an exponent or more than 15 digits (lossless-json judges
 * whether a double holds it), a bigint, nesting past NATIVE_DEPTH, malformed text. Most
 * requests hold none, and a cold start that parses it takes longer. Deployed,
 * a file beside the bundle (lossless-json.cjs); from source, the package (its CommonJS build,
 * so a LosslessNumber its ESM build made counts as one made elsewhere: the same answers,
 * reached the slower way). `require`: callers are synchronous.
 */
const lossless = (): typeof LosslessJson => {
  losslessJson ??= createRequire(import.meta.url)(
    typeof KNAP_LOSSLESS_JSON_CHUNK === 'string' ? KNAP_LOSSLESS_JSON_CHUNK : 'lossless-json',
  ) as typeof LosslessJson;
  return losslessJson;
};

/** What lossless-json's isLosslessNumber reads (its own LosslessNumber has it as a getter). */
const LOSSLESS_MARK = Symbol.for('lossless-json.LosslessNumber');

/** lossless-json's isLosslessNumber, asked only of an object that bears its mark. */
const isLosslessNumber = (value: object): boolean =>
  (value as Record<symbol, unknown>)[LOSSLESS_MARK] === true && lossless().isLosslessNumber(value);

/**
 * Free-form JSON (tool_metadata) is kept as JSON text, so any number is stored exactly as
 * sent; what stays bounded is its size (DynamoDB items hold at most 400 KB) and its depth.
 */
export const MAX_DEPTH = 16;
export const MAX_METADATA_BYTES = 256 * 1024;

/** Returns a problem as a sentence, or null when the value can be stored. */
export const storableJsonProblem = (value: unknown, field: string): string | null => {
  const bound = sizeBound(value);
  // Most values are shallow and far below the limit: no second walk, and no JSON written.
  if (bound >= 0 && bound <= MAX_METADATA_BYTES) return null;
  const problem = walk(value, field, 0);
  if (problem) return problem;
  return jsonBytes(value) > MAX_METADATA_BYTES ? `${field} must be at most ${MAX_METADATA_BYTES} bytes of JSON` : null;
};

/** The most UTF-8 bytes one UTF-16 unit of a string or name takes in JSON (`\u001f`). */
const MAX_BYTES_PER_UNIT = 6;
/** The most characters JavaScript writes for a number (`-1.2345678901234567e-308` is 24). */
const MAX_NUMBER_CHARACTERS = 32;

/**
 * At least as many bytes as the value's JSON takes (toJson), or -1 when it nests deeper than
 * MAX_DEPTH, in one walk of the kind walk() makes. A LosslessNumber counts its digits; any
 * other object that says it is one, Infinity (its JSON is written to be measured).
 */
export const sizeBound = (value: unknown, depth = 0): number => {
  if (depth > MAX_DEPTH) return -1;
  if (typeof value === 'string') return MAX_BYTES_PER_UNIT * value.length + 2;
  if (typeof value === 'bigint') return value.toString().length;
  if (value === null || typeof value !== 'object') return MAX_NUMBER_CHARACTERS;
  // Only a loaded lossless-json can have made a LosslessNumber of its own.
  if (losslessJson && value instanceof losslessJson.LosslessNumber) return value.value.length;
  if (isLosslessNumber(value)) return Number.POSITIVE_INFINITY;
  let bytes = 2;
  if (Array.isArray(value)) {
    for (const item of value) {
      const size = sizeBound(item, depth + 1);
      if (size < 0) return -1;
      bytes += size + 1;
    }
    return bytes;
  }
  for (const name in value) {
    if (!Object.hasOwn(value, name)) continue;
    const size = sizeBound((value as Record<string, unknown>)[name], depth + 1);
    if (size < 0) return -1;
    bytes += MAX_BYTES_PER_UNIT * name.length + 4 + size;
  }
  return bytes;
};

/** UTF-8 size of the value as JSON; a lossless number counts its digits. */
const jsonBytes = (value: unknown): number => Buffer.byteLength(toJson(value));

const walk = (value: unknown, path: string, depth: number): string | null => {
  if (depth > MAX_DEPTH) return `${path} is nested too deeply (at most ${MAX_DEPTH} levels)`;
  if (value === null || typeof value !== 'object' || isLosslessNumber(value)) return null;
  const entries = Array.isArray(value) ? value.map((item, index) => [String(index), item] as const) : Object.entries(value);
  for (const [key, child] of entries) {
    const problem = walk(child, `${path}.${key}`, depth + 1);
    if (problem) return problem;
  }
  return null;
};

/**
 * Stands in, inside a JSON string, for a number JSON.stringify cannot write with its digits:
 * the digits follow it. Random per process and never written out (see toJson), so no string
 * a caller stored can be taken for one.
 */
export const DIGITS_MARK = `\u2063num:${randomBytes(12).toString('base64url')}:`;

/**
 * The LosslessNumber parseJson makes: it tells JSON.stringify to write itself as a marked
 * string, so JSON is written in one native pass and the marks replaced by the digits (toJson).
 * lossless-json's own stringify writes its digits before it looks for toJSON.
 */
let ParsedNumber: (new (digits: string) => LosslessNumber) | undefined;

/** Numbers JavaScript holds exactly stay numbers; any other keeps its digits as a LosslessNumber. */
const losslessNumber = (text: string): number | LosslessNumber => {
  const { isSafeNumber, LosslessNumber } = lossless();
  if (isSafeNumber(text)) return Number(text);
  ParsedNumber ??= class extends LosslessNumber {
    toJSON(): string {
      return `${DIGITS_MARK}${this.value}`;
    }
  };
  return new ParsedNumber(text);
};

/** lossless-json's parse, which decides whenever the native pass below may read the text otherwise. */
const losslessParse = (text: string): unknown => lossless().parse(text, null, losslessNumber);

/** Nesting deeper than this is left to lossless-json, which decides as it always has (a 400 for the deepest). */
const NATIVE_DEPTH = 32;

const isJsonSpace = (code: number): boolean => code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;

/**
 * For text JSON.parse has read: how many member names it holds, or -1 when JSON.parse's value
 * may differ from lossless-json's (a number that does not fit a double exactly, which
 * lossless-json keeps as digits) or the text nests deeper than NATIVE_DEPTH. A number of at
 * most 15 characters without a point or an exponent always fits. One pass over the
 * characters: strings are skipped, escapes included.
 */
const memberNamesIfNative = (text: string): number => {
  let names = 0;
  let depth = 0;
  const end = text.length;
  for (let at = 0; at < end; at += 1) {
    const code = text.charCodeAt(at);
    if (code === 0x22) {
      // A string (valid JSON: it ends); a member name when a colon follows it.
      for (at += 1; ; at += 1) {
        const inside = text.charCodeAt(at);
        if (inside === 0x5c) at += 1;
        else if (inside === 0x22) break;
      }
      let next = at + 1;
      while (isJsonSpace(text.charCodeAt(next))) next += 1;
      if (text.charCodeAt(next) === 0x3a) names += 1;
      at = next - 1;
    } else if (code === 0x7b || code === 0x5b) {
      depth += 1;
      if (depth > NATIVE_DEPTH) return -1;
    } else if (code === 0x7d || code === 0x5d) {
      depth -= 1;
    } else if (code === 0x2d || (code >= 0x30 && code <= 0x39)) {
      let next = at + 1;
      let integer = true;
      for (; next < end; next += 1) {
        const digit = text.charCodeAt(next);
        if (digit >= 0x30 && digit <= 0x39) continue;
        // . e E + -
        if (digit === 0x2e || digit === 0x65 || digit === 0x45 || digit === 0x2b || digit === 0x2d) integer = false;
        else break;
      }
      if ((!integer || next - at > 15) && !lossless().isSafeNumber(text.slice(at, next))) return -1;
      at = next - 1;
    }
  }
  return names;
};

/** How many members the objects in a value JSON.parse made hold, at any depth. */
const memberCount = (value: unknown): number => {
  if (value === null || typeof value !== 'object') return 0;
  let count = 0;
  if (Array.isArray(value)) {
    for (const item of value) count += memberCount(item);
    return count;
  }
  for (const name in value) count += 1 + memberCount((value as Record<string, unknown>)[name]);
  return count;
};

/**
 * JSON.parse, but a number that would be rounded (a 64-bit id, 1e400) keeps its digits.
 * Throws SyntaxError on malformed JSON, as JSON.parse does; duplicate keys with different
 * values are malformed too.
 *
 * What lossless-json reads, in one native JSON.parse when that gives the same value (4x less
 * CPU for a Knap's body): every number fits a double, and no member name comes twice in an
 * object (JSON.parse keeps the last silently; then the objects hold fewer members than the
 * text has names). Anything else, malformed text included, is lossless-json's to read or
 * refuse, as before.
 */
export const parseJson = (text: string): unknown => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return losslessParse(text);
  }
  const names = memberNamesIfNative(text);
  return names >= 0 && names === memberCount(value) ? value : losslessParse(text);
};

/**
 * A run of 16 or more digits (and points), or an exponent: where a number may have more
 * digits than a double holds. Every number without one (at most 15 significant digits) is
 * read by JSON.parse exactly as parseJson reads it; a match inside a string only costs the
 * slower parse.
 */
const MAYBE_UNSAFE_NUMBER = /\d[\d.]{15}|\d[eE]/;

/**
 * parseJson for text this service wrote (toJson's output: no duplicate keys), in one native
 * JSON.parse when no number in it could lose digits.
 */
export const parseStoredJson = (text: string): unknown =>
  MAYBE_UNSAFE_NUMBER.test(text) ? losslessParse(text) : JSON.parse(text);

const MARKED = new RegExp(`"${DIGITS_MARK}([^"]*)"`, 'g');
/** What JSON.stringify makes of a LosslessNumber that parseJson did not make: its own fields. */
const FOREIGN_LOSSLESS = '"isLosslessNumber":true';

/**
 * JSON text of a value, lossless numbers (tool_metadata's 64-bit ids, 1e400) with their
 * digits: exactly what lossless-json's stringify writes, in one native JSON.stringify pass
 * instead of lossless-json's walk in JavaScript (~0.5 ms for a listing of 50 Knaps, and most
 * of storing a Knap's item). The numbers parseJson made write themselves as marked strings,
 * replaced by their digits after. A LosslessNumber made elsewhere, a bigint, or an object that
 * merely looks like a LosslessNumber is left to lossless-json itself (slower, and rare).
 */
export const toJson = (value: unknown): string => {
  let text: string | undefined;
  try {
    text = JSON.stringify(value);
  } catch {
    // A bigint, which JSON.stringify refuses (a cycle throws in lossless-json too).
    return lossless().stringify(value) ?? 'null';
  }
  if (text === undefined) return 'null';
  if (text.includes(FOREIGN_LOSSLESS)) return lossless().stringify(value) ?? 'null';
  return text.includes(DIGITS_MARK) ? text.replace(MARKED, '$1') : text;
};
