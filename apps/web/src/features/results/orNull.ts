import { isApiError } from '../../api/client';

/** The answer, or null when the model has none (404). */
export async function orNull<T>(answer: Promise<T>): Promise<T | null> {
  try {
    return await answer;
  } catch (e) {
    if (isApiError(e) && (e.statusCode === 404 || e.statusCode === 405)) return null;
    throw e;
  }
}
