// Brief artifacts on disk: `.relaycode/handoffs/<briefId>.md` (a snapshot for people and for
// --resume's bookkeeping) and `<briefId>.gap.json` (the departing agent's working memory). Ids are
// checked against a strict pattern before any path is built; readers fail closed on any schema
// version but 1.
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { writeFileAtomic } from '../fs/atomic.js';
import { ownFile } from '../fs/safe-path.js';
import { briefExists, HANDOFFS_DIR, listBriefArtifacts, listBriefIds } from '../records/index.js';
import { fail, ok, type Result } from '../result.js';
import { BRIEF_ID_PATTERN, GapFillRecordSchema, HANDOFF_BRIEF_SCHEMA_VERSION, type GapFillRecord } from './types.js';

/** Where briefs live, relative to the project root (listing and reading them is engine/records/handoffs.ts). */
export { HANDOFFS_DIR };

export type PersistFailureCode = 'BRIEF_ID_INVALID' | 'BRIEF_PATH_UNSAFE' | 'BRIEF_EXISTS' | 'BRIEF_NOT_FOUND' | 'BRIEF_VERSION_UNSUPPORTED' | 'GAP_FILL_INVALID';

/** Checks a brief id before it becomes part of a path (no separators, no dots, nothing but the pattern). */
export function checkBriefId(id: string): Result<string, 'BRIEF_ID_INVALID'> {
  if (id.length > 80 || !BRIEF_ID_PATTERN.test(id)) {
    return fail('BRIEF_ID_INVALID', `Not a brief id: ${JSON.stringify(id.slice(0, 100))}. Brief ids look like brief-1715350000000-k3x9qz.`);
  }
  return ok(id);
}

/** A new brief id from a time and some entropy (lower-case letters and digits). */
export function makeBriefId(nowMs: number, entropy: string): string {
  const suffix = entropy.toLowerCase().replace(/[^a-z0-9]/g, '') || '0';
  return `brief-${Math.max(0, Math.floor(nowMs))}-${suffix}`;
}

/** A fresh brief id for now, with random entropy. */
export function generateBriefId(now: Date): string {
  return makeBriefId(now.getTime(), BigInt(`0x${randomBytes(5).toString('hex')}`).toString(36).padStart(6, '0'));
}

/** The two artifact paths of a brief id, checked: valid id, inside the project, no symlink leading out. */
export function briefPaths(root: string, briefId: string): Result<{ readonly md: string; readonly gap: string }, 'BRIEF_ID_INVALID' | 'BRIEF_PATH_UNSAFE'> {
  const id = checkBriefId(briefId);
  if (!id.ok) return id;
  // Relay Desk's own folder: a real folder inside the project, never a link (engine/fs/safe-path.ts).
  const md = ownFile(root, HANDOFFS_DIR, `${briefId}.md`);
  const gap = ownFile(root, HANDOFFS_DIR, `${briefId}.gap.json`);
  if (!md.ok) return fail('BRIEF_PATH_UNSAFE', md.error.message);
  if (!gap.ok) return fail('BRIEF_PATH_UNSAFE', gap.error.message);
  return ok({ md: md.value, gap: gap.value });
}

function serialiseGap(record: GapFillRecord): string {
  return `${JSON.stringify(record, null, 2)}\n`;
}

/** Writes `<briefId>.gap.json` atomically after checking the id and the record. */
export function writeGapFill(root: string, record: GapFillRecord): Result<{ readonly path: string }, PersistFailureCode> {
  const parsed = GapFillRecordSchema.safeParse(record);
  if (!parsed.success) return fail('GAP_FILL_INVALID', `Gap-fill not written: ${parsed.error.issues[0]?.path.join('.') || 'record'}: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
  const paths = briefPaths(root, record.briefId);
  if (!paths.ok) return paths;
  writeFileAtomic(paths.value.gap, serialiseGap(parsed.data));
  return ok({ path: `${HANDOFFS_DIR}/${record.briefId}.gap.json` });
}

export interface BriefArtifact {
  readonly briefId: string;
  readonly markdown: string;
  /** Written as `<briefId>.gap.json` unless null (the gap.json already on disk is then left as it is). */
  readonly gap: GapFillRecord | null;
}

/** Writes a brief's markdown (never over an existing one) and its gap.json, each atomically. */
export function writeBriefArtifact(root: string, artifact: BriefArtifact): Result<{ readonly path: string; readonly gapPath: string }, PersistFailureCode> {
  const paths = briefPaths(root, artifact.briefId);
  if (!paths.ok) return paths;
  if (existsSync(paths.value.md)) return fail('BRIEF_EXISTS', `A brief ${artifact.briefId} already exists; briefs are never overwritten.`);
  if (artifact.gap) {
    if (artifact.gap.briefId !== artifact.briefId) return fail('GAP_FILL_INVALID', 'The gap-fill belongs to another brief id.');
    const written = writeGapFill(root, artifact.gap);
    if (!written.ok) return written;
  }
  writeFileAtomic(paths.value.md, artifact.markdown);
  return ok({ path: `${HANDOFFS_DIR}/${artifact.briefId}.md`, gapPath: `${HANDOFFS_DIR}/${artifact.briefId}.gap.json` });
}

/** Why a gap.json could not be used; every one of these means "render the placeholder". */
export type GapReadFailure = 'missing' | 'invalid' | 'wrong-version';

export type GapFillRead = { readonly ok: true; readonly record: GapFillRecord } | { readonly ok: false; readonly reason: GapReadFailure };

/** Reads `<briefId>.gap.json`, failing closed: any schemaVersion but 1 is `wrong-version`, never coerced. */
export function readGapFill(root: string, briefId: string): GapFillRead {
  const paths = briefPaths(root, briefId);
  if (!paths.ok || !existsSync(paths.value.gap)) return { ok: false, reason: 'missing' };
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(paths.value.gap, 'utf8'));
  } catch {
    return { ok: false, reason: 'invalid' };
  }
  const version = typeof data === 'object' && data !== null ? (data as { schemaVersion?: unknown }).schemaVersion : undefined;
  if (version !== HANDOFF_BRIEF_SCHEMA_VERSION) return { ok: false, reason: 'wrong-version' };
  const parsed = GapFillRecordSchema.safeParse(data);
  if (!parsed.success || parsed.data.briefId !== briefId) return { ok: false, reason: 'invalid' };
  return { ok: true, record: parsed.data };
}

/**
 * Resolves `latest` or an id to an existing brief id: one with a .md or a .gap.json, or with
 * `markdownOnly` one whose .md was written.
 */
export function resolveBriefRef(root: string, ref: string, options: { readonly markdownOnly?: boolean } = {}): Result<string, 'BRIEF_ID_INVALID' | 'BRIEF_NOT_FOUND'> {
  if (ref === 'latest') {
    const newest = listBriefIds(root).find((id) => !options.markdownOnly || briefExists(root, id));
    return newest ? ok(newest) : fail('BRIEF_NOT_FOUND', `No brief under ${HANDOFFS_DIR}/ yet. Run \`relay handoff --save\` first.`);
  }
  const id = checkBriefId(ref);
  if (!id.ok) return id;
  if (!listBriefIds(root).includes(ref) || (options.markdownOnly && !briefExists(root, ref))) return fail('BRIEF_NOT_FOUND', `No brief ${ref} under ${HANDOFFS_DIR}/.`);
  return ok(ref);
}

export interface LatestGapFillOptions {
  readonly now: Date;
  /** Older gap-fills are ignored (default one hour). */
  readonly maxAgeMs?: number;
  /** Only gap-fills whose brief has not been written yet: the departing agent's, waiting for `relay handoff`. */
  readonly pendingOnly?: boolean;
}

/**
 * The newest usable gap-fill the departing agent wrote (source `mcp`), or null: wrong versions,
 * damaged files and stale captures are skipped, never coerced.
 */
export function readLatestGapFill(root: string, options: LatestGapFillOptions): GapFillRecord | null {
  const maxAge = options.maxAgeMs ?? 60 * 60 * 1000;
  const nowMs = options.now.getTime();
  const candidates: GapFillRecord[] = [];
  for (const { id, kind } of listBriefArtifacts(root)) {
    if (kind !== 'gap.json') continue;
    const read = readGapFill(root, id);
    if (!read.ok || read.record.source !== 'mcp') continue;
    const captured = Date.parse(read.record.capturedAt);
    if (Number.isNaN(captured) || nowMs - captured > maxAge) continue;
    if (options.pendingOnly && briefExists(root, id)) continue;
    candidates.push(read.record);
  }
  candidates.sort((a, b) => Date.parse(b.capturedAt) - Date.parse(a.capturedAt) || (a.briefId < b.briefId ? 1 : -1));
  return candidates[0] ?? null;
}
