/** JSON Merge Patch (RFC 7396): objects merge key by key, null removes a key, anything else replaces. */
export const isJsonObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;

export const mergePatch = (target: unknown, patch: unknown): unknown => {
  if (!isJsonObject(patch)) return patch;
  // Object.assign, not a spread: keys the patch adds would each cost microseconds on Node.js 20.
  const result: Record<string, unknown> = isJsonObject(target) ? Object.assign({}, target) : {};
  for (const [name, value] of Object.entries(patch)) {
    if (value === null) delete result[name];
    else result[name] = mergePatch(result[name], value);
  }
  return result;
};
