/**
 * Sets an own, enumerable data member of a plain object, whatever its name. Assigning
 * `__proto__` would set the object's prototype instead, so that one name is defined; every
 * other is assigned, which costs less.
 */
export const setOwnMember = <T>(record: Record<string, T>, name: string, value: T): void => {
  if (name === '__proto__') Object.defineProperty(record, name, { value, enumerable: true, writable: true, configurable: true });
  else record[name] = value;
};
