import { BackendError, RelayError, wrapBackendError } from './errors.js';

/**
 * Awaits a backend call with the relay's error contract: RelayErrors pass, BackendErrors
 * become RelayErrors carrying the original as `cause`, anything else is re-thrown untouched
 * (a bug should surface as itself, not as a user-facing relay failure).
 */
export async function callBackend<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof RelayError) throw error;
    if (error instanceof BackendError) throw wrapBackendError(error);
    throw error;
  }
}
