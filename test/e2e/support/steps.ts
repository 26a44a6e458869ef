// test.step for vitest: a named action whose failure says which step broke, with the page's
// own errors attached (what Playwright Test's test.step gives in its report).

/** Runs one named step; a failure is rethrown as "step «name» failed: …". */
export async function step<T>(name: string, action: () => Promise<T>): Promise<T> {
  try {
    return await action();
  } catch (error) {
    const wrapped = new Error(`step «${name}» failed: ${(error as Error).message}`);
    wrapped.stack = `${wrapped.message}\n${(error as Error).stack ?? ''}`;
    throw wrapped;
  }
}
