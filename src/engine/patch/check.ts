/**
 * "Does this answer apply to this project, and what would it do?" — without writing anything.
 * `relay apply` and the app use it before their transaction; a router can call checkAnswer on
 * each registered project to find the one a block-less answer fits. A refusal carries what is
 * needed to act on it: the failing file and block, the closest lines of the current file, and a
 * reply for the assistant in its own format.
 */
import { createHash } from 'node:crypto';
import { statSync } from 'node:fs';
import { labelAbove } from './labels.js';
import { parseAnswer } from './parse.js';
import { planOperations, type Plan, type PlannedChange } from './plan.js';
import { replyFor } from './reply.js';
import type { FileOperation, ParsedAnswer, PatchFailure } from './types.js';
import { resolveInsideRoot } from '../fs/safe-path.js';

/** A refusal of an answer: a PatchFailure plus the reply for the assistant. */
export interface PatchRefusal extends PatchFailure {
  /** Ready-to-paste text for the assistant, in the format it wrote. */
  readonly reply?: string;
  /** The block of the answer the refusal is about (its format and line). */
  readonly block?: { readonly format: string; readonly line: number; readonly path?: string };
}

/** An answer read for a project: what it asks, under which id it is recorded, and how to describe it. */
export interface ReadAnswer {
  readonly parsed: ParsedAnswer;
  /** The control block's uuid, or one derived from the content (the same answer gives the same uuid). */
  readonly uuid: string;
  readonly contentHash: string;
  readonly gitCommitMsg?: string;
  readonly promptSummary?: string;
}

/** An answer that applies to a project: the plan of every file's content after it. */
export interface CheckedAnswer extends ReadAnswer {
  readonly plan: Plan;
}

/** The result of reading or checking an answer: the value, or a refusal to act on. */
export type AnswerCheck<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: PatchRefusal };

/** Hash of a response that ignores line-ending and edge-whitespace differences of the clipboard. */
export function responseHash(text: string): string {
  return createHash('sha256').update(text.replace(/\r\n?/g, '\n').trim()).digest('hex').slice(0, 32);
}

/** A uuid-shaped id derived from the answer's hash (for answers without a control block). */
export function derivedUuid(hash: string): string {
  return `${hash.slice(0, 8)}-${hash.slice(8, 12)}-${hash.slice(12, 16)}-${hash.slice(16, 20)}-${hash.slice(20, 32)}`;
}

/** Whether a project-relative path is an existing file inside the root (through the path chokepoint). */
export function existsIn(root: string): (relative: string) => boolean {
  return (relative) => {
    const safe = resolveInsideRoot(root, relative);
    if (!safe.ok) return false;
    try {
      return statSync(safe.value.absolute).isFile();
    } catch {
      return false;
    }
  };
}

const INTERJECTION = /^(sure|certainly|of course|absolutely|okay|ok|great|good (question|idea|catch)|got it|no problem|happy to help|yes|right)\b[\s!.,:;—–-]*/i;

/** A commit subject from the answer's first prose sentence, or null when there is none worth using. */
export function commitMessageFromProse(reasoning: readonly string[]): string | null {
  // The first prose line that is a sentence: not a code block, not a path label, not an empty heading.
  let text = reasoning
    .filter((r) => !/^(```|~~~)/.test(r.trim()))
    .flatMap((r) => r.split('\n'))
    .map((l) => l.trim())
    .find((l) => l !== '' && !/^#{1,6}\s*$/.test(l) && labelAbove([l])?.kind !== 'label' && /\S\s+\S/.test(l));
  if (!text) return null;
  text = text
    .replace(/^#{1,6}\s+/, '')
    .replace(/\*\*|__|`/g, '')
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1');
  for (let i = 0; i < 2; i += 1) text = text.replace(INTERJECTION, '');
  const sentence = /^(.+?)([.!?](\s|$)|:\s*$|:\s)/.exec(text)?.[1] ?? text;
  let subject = sentence.replace(/[\s:;,.—–-]+$/, '').trim();
  if (subject.length < 8) return null;
  if (subject.length > 72) subject = `${subject.slice(0, 71).replace(/\s+\S*$/, '')}…`;
  return subject.charAt(0).toUpperCase() + subject.slice(1);
}

/** "Update src/a.ts", "Add src/b.ts and update 2 files": what a plan does, as a commit subject. */
export function commitMessageFromChanges(changes: readonly PlannedChange[]): string {
  if (changes.length === 1) {
    const change = changes[0]!;
    return `${change.before === null ? 'Add' : change.after === null ? 'Delete' : 'Update'} ${change.path}`;
  }
  return `Update ${changes.length} files`;
}

/**
 * Reads an answer without a project in mind: the one parse, ids and message. `pathExists` lets
 * an extension-less path (`bin/serve`) count as a file; a router passes "exists in any of the
 * projects it routes among".
 */
export function readAnswerText(text: string, options: { readonly pathExists?: (relative: string) => boolean } = {}): AnswerCheck<ReadAnswer> {
  const parsed = parseAnswer(text, options.pathExists ? { pathExists: options.pathExists } : {});
  if (!parsed.ok) return { ok: false, error: { ...parsed.error, ...withReply(parsed.error) } };
  const { control } = parsed.value;
  const contentHash = responseHash(text);
  const gitCommitMsg = control?.gitCommitMsg ?? commitMessageFromProse(parsed.value.reasoning) ?? undefined;
  return {
    ok: true,
    value: {
      parsed: parsed.value,
      uuid: control?.uuid ?? derivedUuid(contentHash),
      contentHash,
      ...(gitCommitMsg ? { gitCommitMsg } : {}),
      ...(control?.promptSummary ? { promptSummary: control.promptSummary } : {}),
    },
  };
}

/** The refusal for an answer whose control block names another project than `projectId`, or null. */
export function projectMismatch(answer: ReadAnswer, projectId: string): PatchRefusal | null {
  const { control } = answer.parsed;
  if (!control || control.projectId === projectId) return null;
  return {
    code: 'PROJECT_ID_MISMATCH',
    message: `This answer is for project "${control.projectId}", but this project's id is "${projectId}". Nothing was applied. Give the assistant the system prompt from \`relay prompt\` so it uses the right projectId.`,
  };
}

/** Reads an answer for a project: parse (paths checked against the project), ids and message. */
export function readAnswer(root: string, text: string, options: { readonly projectId?: string } = {}): AnswerCheck<ReadAnswer> {
  const read = readAnswerText(text, { pathExists: existsIn(root) });
  if (!read.ok || options.projectId === undefined) return read;
  const mismatch = projectMismatch(read.value, options.projectId);
  return mismatch ? { ok: false, error: mismatch } : read;
}

/** Plans a read answer against the project's files; a refusal names the block and carries the reply. */
export function planAnswer(root: string, answer: ReadAnswer): AnswerCheck<CheckedAnswer> {
  const { operations } = answer.parsed;
  const plan = planOperations(root, operations);
  if (!plan.ok) {
    const op = plan.error.operation === undefined ? undefined : operations[plan.error.operation];
    return { ok: false, error: { ...plan.error, ...withReply(plan.error, op) } };
  }
  const gitCommitMsg = answer.gitCommitMsg ?? commitMessageFromChanges(plan.value.changes);
  return { ok: true, value: { ...answer, gitCommitMsg, plan: plan.value } };
}

/** The full check: read, then plan. Reads the project's files, writes nothing. */
export function checkAnswer(root: string, text: string, options: { readonly projectId?: string } = {}): AnswerCheck<CheckedAnswer> {
  const read = readAnswer(root, text, options);
  return read.ok ? planAnswer(root, read.value) : read;
}

/** The reply and block reference for a failure, as extra fields of the refusal. */
function withReply(error: PatchFailure, op?: FileOperation): Pick<PatchRefusal, 'reply' | 'block'> {
  const reply = replyFor(error, op);
  const path = op === undefined ? error.path : op.kind === 'rename' ? op.from : op.path;
  return {
    ...(reply ? { reply } : {}),
    ...(op?.origin ? { block: { format: op.origin.format, line: op.origin.line, ...(path ? { path } : {}) } } : {}),
  };
}
