// The window's "Hand off" preview: the brief `buildHandoff` would save, built from the
// project's files of truth now and validated in both modes, with nothing written. A brief
// holding secret-looking text is not returned, only its findings (as `relay handoff` does).
import type { ChannelArgs, HandoffPreview, HandoffValidation } from '../shared/contract.js';
import { HARD_TOKEN_CAP, prepareHandoff, SOFT_TOKEN_CAP, type ValidationReport } from '../engine/handoff/index.js';
import { fail, ok, type Result } from '../engine/result.js';
import type { Store } from '../engine/store/index.js';

function validationOf(report: ValidationReport): HandoffValidation {
  const issue = (i: ValidationReport['errors'][number]) => ({ code: i.code, message: i.message, pattern: i.pattern ?? null, line: i.line ?? null, section: i.section ?? null });
  return { mode: report.mode, ok: report.ok, tokens: report.tokens, errors: report.errors.map(issue), warnings: report.warnings.map(issue) };
}

/** Prepares (never saves) a brief for a registered project. */
export async function previewHandoff(deps: { readonly store: Store; readonly now: () => Date }, args: ChannelArgs<'previewHandoff'>): Promise<Result<HandoffPreview>> {
  const project = deps.store.projects.get(args.projectId);
  if (!project) return fail('UNKNOWN_PROJECT', `No project "${args.projectId}" is registered.`);
  const prepared = await prepareHandoff(project.root, { now: deps.now(), toProvider: args.target ?? null });
  if (!prepared.ok) return fail(prepared.error.code, prepared.error.message);
  const p = prepared.value;
  const memory = p.brief.workingMemory;
  return ok({
    projectId: project.projectId,
    briefId: p.brief.briefId,
    target: args.target ?? null,
    markdown: p.permissive.ok ? p.rendered.markdown : null,
    tokens: p.rendered.tokens,
    softCap: SOFT_TOKEN_CAP,
    hardCap: HARD_TOKEN_CAP,
    sections: p.rendered.sections.map((s) => ({ id: s.id, title: s.title, budget: s.budget, tokens: s.tokens, truncated: s.truncated, omitted: s.omitted })),
    strict: validationOf(p.strict),
    permissive: validationOf(p.permissive),
    workingMemory: {
      status: memory.status,
      reason: memory.status === 'missing' ? memory.reason : null,
      source: p.gapSource.kind,
      fromBriefId: p.gapSource.kind === 'none' ? null : p.gapSource.briefId,
    },
  });
}
