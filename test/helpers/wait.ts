// Waiting in tests without timed assertions: poll a condition until a deadline, or wait for the
// event itself. The deadline only turns a hang into a failure that says what never happened.

/** How long a condition may take by default before the test fails (generous: the machine is shared). */
export const DEFAULT_WAIT_MS = 20_000;

export interface WaitOptions {
  /** Give up after this long (default DEFAULT_WAIT_MS). */
  readonly timeoutMs?: number;
  /** Between checks (default 20 ms). */
  readonly intervalMs?: number;
  /** Added to the failure: what the test saw so far (a process's output, a log). */
  readonly detail?: () => string;
}

/**
 * Polls `check` until it returns a value other than `undefined` or `false`, and returns that
 * value; fails naming `what` when the deadline passes first.
 */
export async function until<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, options: WaitOptions = {}): Promise<T> {
  const deadline = Date.now() + (options.timeoutMs ?? DEFAULT_WAIT_MS);
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}${options.detail ? `; so far:\n${options.detail()}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, options.intervalMs ?? 20));
  }
}

/**
 * Resolves with the first value `subscribe` delivers that `matches`, unsubscribing then; fails
 * naming `what` when none arrives before the deadline. `subscribe` returns its unsubscribe.
 */
export function nextMatching<T>(what: string, subscribe: (listener: (value: T) => void) => () => void, matches: (value: T) => boolean, options: Pick<WaitOptions, 'timeoutMs'> = {}): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    let unsubscribe: (() => void) | null = null;
    let settled = false;
    const timer = setTimeout(() => {
      settled = true;
      unsubscribe?.();
      reject(new Error(`timed out waiting for ${what}`));
    }, options.timeoutMs ?? DEFAULT_WAIT_MS);
    unsubscribe = subscribe((value) => {
      if (settled || !matches(value)) return;
      settled = true;
      clearTimeout(timer);
      // The listener may run while subscribe() is still returning: unsubscribe once it has.
      queueMicrotask(() => unsubscribe?.());
      resolve(value);
    });
    if (settled) unsubscribe();
  });
}
