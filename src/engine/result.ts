/** An expected failure: a stable code the CLI, the app and tests can rely on, and a message for people. */
export interface Failure<Code extends string = string> {
  readonly code: Code;
  readonly message: string;
  /** The project-relative path the failure is about, when there is one. */
  readonly path?: string;
}

/** Outcome of an operation whose failures are expected and reported as values. */
export type Result<T, Code extends string = string> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly error: Failure<Code> };

/** Wraps a value as a successful result. */
export function ok<T>(value: T): { readonly ok: true; readonly value: T } {
  return { ok: true, value };
}

/** Builds a failed result. */
export function fail<Code extends string>(code: Code, message: string, path?: string): { readonly ok: false; readonly error: Failure<Code> } {
  return { ok: false, error: path === undefined ? { code, message } : { code, message, path } };
}

/** Exhaustiveness check for switches over closed unions (one definition, shared with the window). */
export { assertNever } from '../shared/facts.js';
