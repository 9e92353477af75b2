import { isUniqueViolation } from './uniqueViolation.js';
import { AppError } from '../http/AppError.js';

/**
 * Runs `work`; a unique-constraint violation it raises becomes the 409 conflict `message`. Services
 * check uniqueness first; this ends the race of two requests that passed the check at once the same way.
 */
export async function withUniqueConflict<T>(
  message: string,
  work: () => Promise<T>,
  params?: Record<string, string | number>,
): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (isUniqueViolation(error)) throw AppError.conflict(message, params);
    throw error;
  }
}
