import type { Repository } from '../../shared/domain/repository.js';

/** The repository with one operation that always fails, as a broken store would. */
export const failingRepo = (repo: Repository, operation: keyof Repository, error = new Error('store unavailable')): Repository =>
  new Proxy(repo, {
    get: (target, property) => {
      if (property === operation) return () => Promise.reject(error);
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
