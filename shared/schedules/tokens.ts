/**
 * Splits a description into tokens that remember where they came from, so error messages can
 * quote the user's own words. Every pattern is sticky and free of nested quantifiers, so the
 * scan is linear in the input length (no catastrophic backtracking).
 */

export type TokenKind = 'word' | 'num' | 'ord' | 'clock' | 'zone' | 'offset' | 'ampm' | 'dash' | 'sym';

export interface Token {
  kind: TokenKind;
  /** Exact slice of the original description. */
  text: string;
  /** Lower-case form used for matching ('am' / 'pm' for any spelling of those). */
  lower: string;
  start: number;
  end: number;
  /** Numeric value of 'num' and 'ord' tokens. */
  value: number;
  /** Set once a grammar rule has claimed the token. */
  used: boolean;
}

interface Rule {
  kind: TokenKind | 'skip';
  re: RegExp;
  lower?: (text: string) => string;
}

// Order matters: the first rule matching at the current position wins.
const RULES: Rule[] = [
  // Characters past ASCII as \u escapes: one left as it is and V8 holds the whole bundle as two-byte text.
  { kind: 'skip', re: /[\s,;!?()[\]{}"\u201C\u201D:.]+/uy },
  { kind: 'offset', re: /(?:utc|gmt)\s?[+\-\u2212]\s?\d{1,2}(?::?\d{2})?(?!\d)/iuy },
  { kind: 'zone', re: /\p{L}[\p{L}\d_]*(?:\/[\p{L}\d_+-]+)+/uy },
  { kind: 'ampm', re: /[ap]\.?m\.?(?![\p{L}\d])/iuy, lower: (t) => (t[0]?.toLowerCase() === 'a' ? 'am' : 'pm') },
  { kind: 'word', re: /bi-(?:weekly|monthly)(?!\p{L})/iuy, lower: (t) => t.toLowerCase().replace('-', '') },
  { kind: 'clock', re: /\d+[:.]\d+(?::\d+)?/uy },
  { kind: 'ord', re: /\d+(?:st|nd|rd|th)(?![\p{L}\d])/iuy },
  { kind: 'num', re: /\d+/uy },
  { kind: 'dash', re: /-/uy },
  { kind: 'word', re: /\p{L}+(?:'\p{L}+)?/uy },
  { kind: 'word', re: /&/uy, lower: () => 'and' },
  { kind: 'word', re: /@/uy, lower: () => 'at' },
];

// Anything else is one unknown symbol; it ends up quoted in the "not understood" error.
const SYMBOL: Rule = { kind: 'sym', re: /./suy };
const ALL_RULES = [...RULES, SYMBOL];

// Typographic variants replaced one code unit for one, so offsets still index the original.
function normalize(text: string): string {
  return text.replace(/[\u2019\u2018`]/g, "'").replace(/[\u2013\u2014\u2212]/g, '-');
}

function numericValue(kind: TokenKind, text: string): number {
  if (kind !== 'num' && kind !== 'ord') return NaN;
  const digits = /^\d+/.exec(text)?.[0] ?? '';
  // Long digit runs are nonsense anyway; keep them out of float precision trouble.
  return digits.length > 6 ? Number.POSITIVE_INFINITY : Number(digits);
}

function matchAt(source: string, pos: number): { rule: Rule; end: number } {
  for (const rule of ALL_RULES) {
    rule.re.lastIndex = pos;
    const m = rule.re.exec(source);
    if (m && m[0].length > 0) return { rule, end: pos + m[0].length };
  }
  return { rule: SYMBOL, end: pos + 1 };
}

export function tokenize(original: string): Token[] {
  const source = normalize(original);
  const tokens: Token[] = [];
  let pos = 0;
  while (pos < source.length) {
    const { rule, end } = matchAt(source, pos);
    if (rule.kind !== 'skip') {
      const text = original.slice(pos, end);
      const norm = source.slice(pos, end);
      const lower = rule.lower ? rule.lower(norm) : norm.toLowerCase();
      tokens.push({ kind: rule.kind, text, lower, start: pos, end, value: numericValue(rule.kind, norm), used: false });
    }
    pos = end;
  }
  return tokens;
}

/** The original text covering the given tokens, from the first one's start to the last one's end. */
export function spanText(description: string, tokens: readonly Token[]): string {
  const first = tokens[0];
  const last = tokens[tokens.length - 1];
  if (!first || !last) return '';
  return description.slice(first.start, last.end);
}

/** A word token whose lower-case form is one of `words`. */
export function isWord(t: Token | undefined, ...words: string[]): t is Token {
  return t !== undefined && t.kind === 'word' && words.includes(t.lower);
}

export function markUsed(tokens: readonly Token[]): void {
  for (const t of tokens) t.used = true;
}

export function unused(tokens: readonly Token[]): Token[] {
  return tokens.filter((t) => !t.used);
}
