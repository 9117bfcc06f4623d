import type { Repository } from '../../shared/domain/repository.js';
import type { RequestScope } from '../../shared/domain/request-scope.js';

/**
 * The store with some methods replaced (each made from the store it stands in front of), in
 * the views requests make of it too (`within`): a request's deps would otherwise reach the
 * real store past the replacement.
 */
export const overriding = (repo: Repository, replace: (inner: Repository) => Partial<Repository>): Repository => {
  const replaced = replace(repo) as Record<PropertyKey, unknown>;
  return new Proxy(repo, {
    get: (target, property) => {
      if (property === 'within') return (scope: RequestScope) => overriding(target.within?.(scope) ?? target, replace);
      if (Object.hasOwn(replaced, property)) return replaced[property];
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
};

/** The store with one operation failing, as an unavailable table would. */
export const failingRepo = (repo: Repository, operation: keyof Repository, error = new Error('store unavailable')): Repository =>
  overriding(repo, () => ({ [operation]: () => Promise.reject(error) }));
