/**
 * DynamoDB stores at most 400 KB per item and 32 levels of nesting, and numbers only from
 * 1E-130 to under 1E+126 in magnitude (or 0); free-form JSON is checked against that
 * before it can become a 500.
 */
export const MAX_DEPTH = 16;
export const MAX_METADATA_BYTES = 256 * 1024;

/** Returns a problem as a sentence, or null when the value can be stored. */
export const storableJsonProblem = (value: unknown, field: string): string | null => {
  const problem = walk(value, field, 0);
  if (problem) return problem;
  const bytes = Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
  return bytes > MAX_METADATA_BYTES ? `${field} must be at most ${MAX_METADATA_BYTES} bytes of JSON` : null;
};

const storableNumber = (value: number): boolean =>
  value === 0 || (Number.isFinite(value) && Math.abs(value) >= 1e-130 && Math.abs(value) < 1e126);

const walk = (value: unknown, path: string, depth: number): string | null => {
  if (depth > MAX_DEPTH) return `${path} is nested too deeply (at most ${MAX_DEPTH} levels)`;
  if (typeof value === 'number' && !storableNumber(value)) {
    return `${path} must be 0 or a number between 1e-130 and 1e125 in magnitude`;
  }
  if (value === null || typeof value !== 'object') return null;
  const entries = Array.isArray(value) ? value.map((item, index) => [String(index), item] as const) : Object.entries(value);
  for (const [key, child] of entries) {
    if (key === '') return `${path} must not have an empty key`;
    const problem = walk(child, `${path}.${key}`, depth + 1);
    if (problem) return problem;
  }
  return null;
};
