// The handoff engine as the runtime binds it: "build a brief for this project and save it",
// in the shape of the runtime's HandoffEngine (build(root, { target }, context) → Result of
// { briefId, path, tokens, warnings }). Declared structurally here so this module does not
// depend on the runtime; the runtime passes `handoffEngine` in its `engines`.
import { fail, ok, type Result } from '../result.js';
import type { LoadHistoryOptions } from './history.js';
import { prepareHandoff, saveHandoff } from './service.js';

/** What a saved brief reports to the runtime. */
export interface HandoffBuildResult {
  readonly briefId: string;
  /** Project-relative path of the markdown. */
  readonly path: string;
  readonly tokens: number;
  readonly warnings: string[];
}

export interface HandoffBuildRequest {
  /** The provider or profile the brief is meant for (shown in its header). */
  readonly target?: string;
  /** Relay/review answers and live tick events the store holds. */
  readonly history?: LoadHistoryOptions;
}

/** Builds and saves (PERMISSIVE) a brief for the runtime; failures are values with the CLI's codes. */
export const handoffEngine = {
  async build(root: string, request: HandoffBuildRequest, context: { readonly now: () => Date }): Promise<Result<HandoffBuildResult>> {
    const prepared = await prepareHandoff(root, { now: context.now(), toProvider: request.target ?? null, ...(request.history ? { historyOptions: request.history } : {}) });
    if (!prepared.ok) return fail(prepared.error.code, prepared.error.message);
    const saved = saveHandoff(prepared.value);
    if (!saved.ok) {
      const detail = saved.validation?.errors.map((e) => e.message).join(' ') ?? '';
      return fail(saved.error.code, `${saved.error.message}${detail ? ` ${detail}` : ''}`);
    }
    return ok({ briefId: saved.value.briefId, path: saved.value.path, tokens: saved.value.tokens, warnings: [...saved.value.warnings] });
  },
};
