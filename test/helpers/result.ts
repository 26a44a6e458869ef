// Engine code returns expected failures as values (src/engine/result.ts). These unwrap one side
// of such a result and fail the test, saying what came instead, when it is the other side.

type Outcome<T, E> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E };

/** The value of a result that must succeed. */
export function valueOf<T, E>(result: Outcome<T, E>): T {
  if (!result.ok) throw new Error(`expected success, got the failure ${JSON.stringify(result.error)}`);
  return result.value;
}

/** The failure of a result that must fail. */
export function failureOf<T, E>(result: Outcome<T, E>): E {
  if (result.ok) throw new Error(`expected a failure, got the value ${JSON.stringify(result.value)?.slice(0, 500)}`);
  return result.error;
}

/** The value a promised result must succeed with. */
export async function succeeds<T, E>(promise: Promise<Outcome<T, E>>): Promise<T> {
  return valueOf(await promise);
}

/** The failure a promised result must fail with. */
export async function fails<T, E>(promise: Promise<Outcome<T, E>>): Promise<E> {
  return failureOf(await promise);
}
