import { setOwnMember } from '../../shared/domain/own-member.js';

describe('setOwnMember', () => {
  test.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'name'])(
    '"%s" becomes an own, enumerable, writable member, and the prototype stays Object.prototype',
    (name) => {
      const record: Record<string, unknown> = {};
      setOwnMember(record, name, { polluted: true });
      expect(Object.getPrototypeOf(record)).toBe(Object.prototype);
      expect(Object.getOwnPropertyDescriptor(record, name)).toEqual({
        value: { polluted: true },
        enumerable: true,
        writable: true,
        configurable: true,
      });
      expect(Object.keys(record)).toEqual([name]);
      expect(JSON.stringify(record)).toBe(`{"${name}":{"polluted":true}}`);
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    },
  );
});
