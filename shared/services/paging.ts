import { InvalidCursorError } from '../domain/repository.js';
import { type ApiError, badRequest } from '../errors.js';

/** A listing's `cursor` that is not the `next_cursor` of one of its own earlier pages. */
export const invalidCursor = (): ApiError =>
  badRequest('cursor is not valid: pass the next_cursor of an earlier response unchanged');

/** Reads a page from the store: a cursor the store did not issue for this listing is the caller's 400. */
export const readPage = async <T>(read: () => Promise<T>): Promise<T> => {
  try {
    return await read();
  } catch (error) {
    if (error instanceof InvalidCursorError) throw invalidCursor();
    throw error;
  }
};
