/**
 * Where an incoming answer goes, decided in one place for the desktop app (the runtime's
 * ApplyPatch without a project: the clipboard and the window's paste) and `relay watch` (one
 * project). `relay apply` needs no routing: it is the project it runs in.
 *
 * - An answer in Relay Desk's own format goes to the project its control block names, exactly
 *   as before native formats were accepted (its refusal too, when it does not parse).
 * - An answer in an assistant's own format (no control block) goes to the one project it fits
 *   (fit.ts: everything applies there and something in it is evidence for that project). When
 *   several fit, a person chooses. When none fits, it is ignored without a word, unless it is
 *   clearly meant for one of them (a near miss): then the closest refusal is told once.
 * - Text that is not an answer (code, prose, logs, JSON, diffs of other repositories) is ignored.
 */
import type { PatchRefusal } from './check.js';
import { existsIn } from './check.js';
import { fitIn, type Fit } from './fit.js';
import { takeAnswer, type IncomingAnswer } from './incoming.js';
import type { IntakeLimits } from './intake.js';
import { findByContentHash } from '../records/transactions.js';

/** A registered project an answer may be routed to. */
export interface RouteTarget {
  readonly projectId: string;
  readonly root: string;
}

/** The routing decision for one answer. */
export type AnswerRoute =
  /** Apply it to this project: its control block names it, it fits only there, or it was applied there already (the transaction says so). */
  | { readonly kind: 'project'; readonly projectId: string; readonly by: 'project-id' | 'fit' | 'already-applied' }
  /** It fits several projects: a person picks one. */
  | { readonly kind: 'choose'; readonly projectIds: readonly string[] }
  /** Its control block names a project that is not among the targets. */
  | { readonly kind: 'unknown-project'; readonly projectId: string }
  /** Clearly an answer for one of the projects, but it fits none: the closest refusal. */
  | { readonly kind: 'no-fit'; readonly projectId: string; readonly refusal: PatchRefusal }
  /** Not an answer, or nothing ties it to any project: nobody is told. */
  | { readonly kind: 'ignored'; readonly why: string };

/** "Exists as a file in any of the targets": how the one parse of a routed answer recognises extension-less paths. */
export function existsInAny(targets: readonly RouteTarget[]): (relative: string) => boolean {
  const checks = targets.map((t) => existsIn(t.root));
  return (relative) => checks.some((exists) => exists(relative));
}

/** Takes text in for routing among `targets`: intake and the one parse. */
export function takeForRouting(text: string, targets: readonly RouteTarget[], limits?: IntakeLimits): IncomingAnswer {
  return takeAnswer(text, { pathExists: existsInAny(targets), ...(limits ? { limits } : {}) });
}

/** Decides where an answer goes among `targets`. Reads their files; writes nothing. */
export function routeAnswer(answer: IncomingAnswer, targets: readonly RouteTarget[]): AnswerRoute {
  if (answer.projectId !== null) {
    const target = targets.find((t) => t.projectId === answer.projectId);
    return target ? { kind: 'project', projectId: target.projectId, by: 'project-id' } : { kind: 'unknown-project', projectId: answer.projectId };
  }
  if (!answer.read.ok) return { kind: 'ignored', why: `${answer.read.error.code}: not an answer that can be applied` };
  const read = answer.read.value;
  const fits = targets.map((target) => ({ target, fit: fitIn(target.root, read) }));
  const fitting = fits.filter((f) => f.fit.kind === 'fits');
  if (fitting.length === 1) return { kind: 'project', projectId: fitting[0]!.target.projectId, by: 'fit' };
  if (fitting.length > 1) return { kind: 'choose', projectIds: fitting.map((f) => f.target.projectId) };
  // Copied again after Relay Desk applied it: its change is in the file, and the transaction says "already applied".
  const inFile = fits.filter((f) => f.fit.kind === 'no' && f.fit.inFile === true);
  const applied = inFile.find((f) => findByContentHash(f.target.root, read.contentHash) !== null);
  if (applied) return { kind: 'project', projectId: applied.target.projectId, by: 'already-applied' };
  const misses = fits.filter((f): f is { target: RouteTarget; fit: Extract<Fit, { kind: 'near-miss' }> } => f.fit.kind === 'near-miss');
  const closest = [...misses].sort((a, b) => b.fit.similarity - a.fit.similarity)[0];
  if (closest) return { kind: 'no-fit', projectId: closest.target.projectId, refusal: closest.fit.refusal };
  return { kind: 'ignored', why: 'it fits no project' };
}
