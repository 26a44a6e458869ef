// The one reader of handoff briefs (`.relaycode/handoffs/<briefId>.md`, written by
// engine/handoff/persist.ts for `relay handoff --save/--to` and the app): listing them, reading
// one (never through a link; a brief of another schema version is refused, not coerced), and what
// a brief becomes as a history row and a run detail. The gap.json beside a brief is the departing
// agent's working memory, read by the handoff engine itself.
import type { z } from 'zod';
import type { HandoffDetailSchema } from '../../shared/contract.js';
import { BRIEF_ID_PATTERN, HANDOFF_BRIEF_SCHEMA_VERSION } from '../handoff/types.js';
import { fail, ok, type Result } from '../result.js';
import { HANDOFFS_DIR } from './folders.js';
import { listRecordFolder, readRecordText } from './own-files.js';
import { runId, type IndexedRun } from './rows.js';

export { HANDOFFS_DIR };

type HandoffDetail = z.infer<typeof HandoffDetailSchema>;

const ARTIFACT = /^(brief-[0-9]+-[a-z0-9]+)\.(md|gap\.json)$/;

/** True for a well-formed brief id (checked before any path is built from one). */
export function isBriefId(id: string): boolean {
  return id.length <= 80 && BRIEF_ID_PATTERN.test(id);
}

/** The brief a file name in the handoffs folder belongs to (null: not a brief's file). */
export function briefOfName(name: string): string | null {
  const id = ARTIFACT.exec(name)?.[1];
  return id !== undefined && isBriefId(id) ? id : null;
}

/** Every brief artifact in the handoffs folder: its id and which file it is. */
export function listBriefArtifacts(root: string): Array<{ readonly id: string; readonly kind: 'md' | 'gap.json' }> {
  return listRecordFolder(root, HANDOFFS_DIR).flatMap((name) => {
    const m = ARTIFACT.exec(name);
    return m && isBriefId(m[1]!) ? [{ id: m[1]!, kind: m[2] as 'md' | 'gap.json' }] : [];
  });
}

function idTime(id: string): number {
  return Number(/^brief-([0-9]+)-/.exec(id)?.[1] ?? 0);
}

/** Every brief id with a .md or a .gap.json, newest first (by the time in the id, then the id). */
export function listBriefIds(root: string): string[] {
  const ids = [...new Set(listBriefArtifacts(root).map((a) => a.id))];
  return ids.sort((a, b) => idTime(b) - idTime(a) || (a < b ? 1 : a > b ? -1 : 0));
}

/** The markdown of a saved brief as written, or null when there is none (or it is a link, or no plain file). */
export function readBriefText(root: string, briefId: string): string | null {
  if (!isBriefId(briefId)) return null;
  const read = readRecordText(root, HANDOFFS_DIR, `${briefId}.md`);
  return 'text' in read ? read.text : null;
}

/** True when `<briefId>.md` exists as a brief Relay Desk can read. */
export function briefExists(root: string, briefId: string): boolean {
  return readBriefText(root, briefId) !== null;
}

/** Why a saved brief cannot be read. */
export type BriefReadCode = 'BRIEF_ID_INVALID' | 'BRIEF_NOT_FOUND' | 'BRIEF_VERSION_UNSUPPORTED';

/** The schema version a brief's header declares (null when it declares none). */
function briefVersion(markdown: string): string | null {
  return /^\*\*Schema version:\*\* (\S+)\s*$/m.exec(markdown)?.[1] ?? null;
}

/** Reads a saved brief's markdown, failing closed when its header carries another schema version. */
export function readBriefMarkdown(root: string, briefId: string): Result<string, BriefReadCode> {
  if (!isBriefId(briefId)) return fail('BRIEF_ID_INVALID', `Not a brief id: ${JSON.stringify(briefId.slice(0, 100))}. Brief ids look like brief-1715350000000-k3x9qz.`);
  const markdown = readBriefText(root, briefId);
  if (markdown === null) return fail('BRIEF_NOT_FOUND', `No brief ${briefId} under ${HANDOFFS_DIR}/.`);
  const version = briefVersion(markdown);
  if (version !== String(HANDOFF_BRIEF_SCHEMA_VERSION)) {
    return fail('BRIEF_VERSION_UNSUPPORTED', `Brief ${briefId} has schema version ${version ?? '(none)'}; this Relay Desk reads version ${HANDOFF_BRIEF_SCHEMA_VERSION} only.`);
  }
  return ok(markdown);
}

/** One header field of a brief (`**Created:** …`), capped. */
function headerField(markdown: string, name: string): string | null {
  const value = new RegExp(`^\\*\\*${name}:\\*\\* (.{1,200})$`, 'm').exec(markdown.slice(0, 4000))?.[1]?.trim();
  return value ? value : null;
}

/** The history row of a saved brief (its time from its header, else from its id). */
export function handoffRun(projectId: string, briefId: string, markdown: string): IndexedRun {
  const created = headerField(markdown, 'Created');
  const startedAt = created && !Number.isNaN(Date.parse(created)) ? created : new Date(idTime(briefId)).toISOString();
  const to = /\*\*To:\*\* (.{1,80})$/m.exec(markdown.slice(0, 4000))?.[1]?.trim();
  const path = `${HANDOFFS_DIR}/${briefId}.md`;
  return {
    id: runId(projectId, 'handoff', briefId),
    projectId,
    kind: 'handoff',
    status: 'done',
    verdict: null,
    code: null,
    title: to && to !== 'not chosen yet' ? `Handoff to ${to}` : 'Handoff',
    summary: path,
    startedAt,
    endedAt: startedAt,
    file: path,
    origin: 'file',
    taskId: null,
    detail: null,
  };
}

/** The detail of a saved brief: its markdown as written (what the app kept, like warnings, is added by the caller). */
export function handoffDetail(root: string, briefId: string): Result<HandoffDetail, 'RECORD_NOT_FOUND'> {
  const markdown = readBriefText(root, briefId);
  if (markdown === null) return fail('RECORD_NOT_FOUND', `The brief ${HANDOFFS_DIR}/${briefId}.md is missing, or is not a plain file Relay Desk reads.`);
  return ok({ kind: 'handoff', briefId, path: `${HANDOFFS_DIR}/${briefId}.md`, markdown, warnings: [], error: null });
}
