import { wrapBackendFailure, type BackendResult, type RelayOutcome } from './errors.js';
import type { BackendReply } from './backends/types.js';

/**
 * Awaits a backend call with the relay's error contract: the backend's failure becomes the
 * relay's (BACKEND_FAILED, or CANCELLED), keeping the backend and its code as `cause`. A thrown
 * error is a bug and propagates as itself, never dressed up as a user-facing relay failure.
 */
export async function callBackend(backend: string, call: Promise<BackendResult<BackendReply>>): Promise<RelayOutcome<BackendReply>> {
  const result = await call;
  return result.ok ? result : wrapBackendFailure(backend, result.error);
}
