// The one reader of ask and review answers (`.relaycode/answers/<id>.json`, written by
// engine/relay/record.ts for the CLI and the app alike): the record's schema, reading every
// answer (never through a link), and what an answer becomes as a history row and a run detail.
import { z } from 'zod';
import type { RelayDetail } from '../../shared/contract.js';
import { fail, ok, type Result } from '../result.js';
import { ANSWER_FOLDER, ANSWERS_DIR } from './folders.js';
import { listRecordFolder, readRecordText, type Skipped } from './own-files.js';
import { runId, type IndexedRun } from './rows.js';

export { ANSWERS_DIR };
/** The answer record schema this build writes and reads. */
export const ANSWER_SCHEMA_VERSION = 1;
/** Checked before any path is made from an id, so an id can never name a file outside the folder. */
export const ANSWER_ID = /^relay-[A-Za-z0-9-]{1,80}$/;

/** `.relaycode/answers/<id>.json`: anything else is skipped, never guessed at. */
export const RecordedAnswerSchema = z
  .object({
    schemaVersion: z.literal(ANSWER_SCHEMA_VERSION),
    id: z.string().regex(ANSWER_ID),
    kind: z.enum(['ask', 'review']),
    backend: z.string().min(1),
    createdAt: z.iso.datetime({ offset: true }),
    prompt: z.string(),
    answer: z.string(),
    ok: z.boolean(),
  })
  .strict();

/** An ask or review answer as its record holds it (`ok` false: `answer` holds the error). */
export type RecordedAnswer = Omit<z.infer<typeof RecordedAnswerSchema>, 'schemaVersion'>;

export interface LoadedAnswers {
  readonly answers: RecordedAnswer[];
  /** Files that are not a valid record (another schema version, damaged JSON, a link), by relative path. */
  readonly skipped: { path: string; reason: string }[];
}

/** The answer id a file name in the answers folder belongs to (null: not an answer record's name). */
export function answerOfName(name: string): string | null {
  const id = /^(.+)\.json$/.exec(name)?.[1];
  return id !== undefined && ANSWER_ID.test(id) ? id : null;
}

/** Reads one answer record; null when it does not exist. */
export function readAnswer(root: string, id: string): { answer: RecordedAnswer } | { skipped: Skipped } | null {
  const folder = ANSWER_FOLDER;
  const file = `${folder}/${id}.json`;
  if (!ANSWER_ID.test(id)) return { skipped: { file, reason: 'not an answer id' } };
  const read = readRecordText(root, folder, `${id}.json`);
  if ('absent' in read) return null;
  if ('refused' in read) return { skipped: { file, reason: read.refused } };
  let data: unknown;
  try {
    data = JSON.parse(read.text);
  } catch {
    return { skipped: { file, reason: 'not valid JSON' } };
  }
  const parsed = RecordedAnswerSchema.safeParse(data);
  if (!parsed.success || parsed.data.id !== id) return { skipped: { file, reason: parsed.success ? 'file name differs from its id' : 'not a schemaVersion 1 answer record' } };
  const { schemaVersion: _version, ...answer } = parsed.data;
  return { answer };
}

/** Reads every recorded answer of the project; what does not validate is skipped, never guessed at. */
export function loadAnswers(root: string): LoadedAnswers {
  const folder = ANSWER_FOLDER;
  const answers: RecordedAnswer[] = [];
  const skipped: { path: string; reason: string }[] = [];
  for (const name of listRecordFolder(root, folder)) {
    if (!name.endsWith('.json')) continue;
    const id = answerOfName(name);
    if (id === null) {
      skipped.push({ path: `${folder}/${name}`, reason: 'not a schemaVersion 1 answer record' });
      continue;
    }
    const read = readAnswer(root, id);
    if (!read) continue;
    if ('answer' in read) answers.push(read.answer);
    else skipped.push({ path: read.skipped.file, reason: read.skipped.reason });
  }
  return { answers, skipped };
}

const ANSWER_TITLE_CHARS = 120;

/**
 * The history row of an ask or review recorded in `.relaycode/answers/` (by the CLI or the app).
 * It carries no detail of its own: an app-made run keeps the detail it stored (usage included),
 * and run detail reads the file for the rest.
 */
export function answerRun(projectId: string, answer: RecordedAnswer): IndexedRun {
  const kind = answer.kind === 'ask' ? 'relay' : 'review';
  const asked = answer.prompt.trim().split('\n')[0]?.slice(0, ANSWER_TITLE_CHARS) ?? '';
  return {
    id: runId(projectId, kind, answer.id),
    projectId,
    kind,
    status: answer.ok ? 'done' : 'failed',
    verdict: null,
    code: null,
    title: kind === 'relay' ? `Ask ${answer.backend}: ${asked}` : `Review by ${answer.backend}`,
    summary: answer.answer.trim().split('\n')[0]?.slice(0, 200) ?? '',
    startedAt: answer.createdAt,
    endedAt: answer.createdAt,
    file: `${ANSWER_FOLDER}/${answer.id}.json`,
    origin: 'file',
    taskId: null,
    detail: null,
  };
}

/** The detail of one recorded answer, read from its file. */
export function answerDetail(root: string, id: string): Result<RelayDetail, 'RECORD_NOT_FOUND'> {
  const read = readAnswer(root, id);
  if (!read || !('answer' in read)) return fail('RECORD_NOT_FOUND', `The answer record ${ANSWER_FOLDER}/${id}.json is missing or damaged${read ? ` (${read.skipped.reason})` : ''}.`);
  const { answer } = read;
  return ok({
    kind: answer.kind === 'ask' ? 'relay' : 'review',
    backend: answer.backend,
    prompt: answer.prompt,
    text: answer.ok ? answer.answer : '',
    usage: null,
    error: answer.ok ? null : { code: 'RELAY_FAILED', message: answer.answer },
  });
}
