import { randomBytes } from 'node:crypto';
import { isLosslessNumber, isSafeNumber, LosslessNumber, parse, stringify } from 'lossless-json';

/**
 * Free-form JSON (tool_metadata) is kept as JSON text, so any number is stored exactly as
 * sent; what stays bounded is its size (DynamoDB items hold at most 400 KB) and its depth.
 */
export const MAX_DEPTH = 16;
export const MAX_METADATA_BYTES = 256 * 1024;

/** Returns a problem as a sentence, or null when the value can be stored. */
export const storableJsonProblem = (value: unknown, field: string): string | null => {
  const problem = walk(value, field, 0);
  if (problem) return problem;
  return jsonBytes(value) > MAX_METADATA_BYTES ? `${field} must be at most ${MAX_METADATA_BYTES} bytes of JSON` : null;
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
class ParsedNumber extends LosslessNumber {
  toJSON(): string {
    return `${DIGITS_MARK}${this.value}`;
  }
}

/** Numbers JavaScript holds exactly stay numbers; any other keeps its digits as a LosslessNumber. */
const losslessNumber = (text: string): number | LosslessNumber => (isSafeNumber(text) ? Number(text) : new ParsedNumber(text));

/**
 * JSON.parse, but a number that would be rounded (a 64-bit id, 1e400) keeps its digits.
 * Throws SyntaxError on malformed JSON, as JSON.parse does; duplicate keys with different
 * values are malformed too.
 */
export const parseJson = (text: string): unknown => parse(text, null, losslessNumber);

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
export const parseStoredJson = (text: string): unknown => (MAYBE_UNSAFE_NUMBER.test(text) ? parseJson(text) : JSON.parse(text));

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
    return stringify(value) ?? 'null';
  }
  if (text === undefined) return 'null';
  if (text.includes(FOREIGN_LOSSLESS)) return stringify(value) ?? 'null';
  return text.includes(DIGITS_MARK) ? text.replace(MARKED, '$1') : text;
};
