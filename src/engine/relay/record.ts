// The file of truth of an ask or a review: `.relaycode/answers/<id>.json` in a Relay project.
// The CLI and the app both write it, so a handoff brief made by either one (and a history
// rebuilt from files) knows what another agent said, whoever asked.
import { randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../fs/atomic.js';
import { ownFile } from '../fs/safe-path.js';
import { CONFIG_FILE, STATE_DIR } from '../patch/config.js';

export const ANSWERS_DIR = 'answers';
export const ANSWER_SCHEMA_VERSION = 1;
/** Checked before any path is made from an id, so an id can never name a file outside the folder. */
export const ANSWER_ID = /^relay-[A-Za-z0-9-]{1,80}$/;

const RecordedAnswerSchema = z
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

export type RecordedAnswer = Omit<z.infer<typeof RecordedAnswerSchema>, 'schemaVersion'>;

export function newAnswerId(): string {
  return `relay-${randomUUID()}`;
}

function answersDir(root: string): string {
  return path.join(root, STATE_DIR, ANSWERS_DIR);
}

/**
 * Writes the answer's record when `root` is a Relay project (it has relay.config.json); a
 * plain repository someone asked about is left untouched, and so is one whose `.relaycode`
 * (or answers/) is a link or not a folder. Returns the file written, or null.
 */
export function recordAnswer(root: string, answer: RecordedAnswer): string | null {
  if (!ANSWER_ID.test(answer.id)) throw new Error(`Invalid answer id: ${JSON.stringify(answer.id)}`);
  if (!existsSync(path.join(root, CONFIG_FILE))) return null;
  // .relaycode/answers must be a real folder inside the project: a cloned repository's link is
  // not written through (the answer was shown; it is just not recorded).
  const checked = ownFile(root, `${STATE_DIR}/${ANSWERS_DIR}`, `${answer.id}.json`, { create: true });
  if (!checked.ok) return null;
  const file = checked.value;
  writeFileAtomic(file, `${JSON.stringify({ schemaVersion: ANSWER_SCHEMA_VERSION, ...answer }, null, 2)}\n`);
  return file;
}

export interface LoadedAnswers {
  readonly answers: RecordedAnswer[];
  /** Files that are not a valid record (another schema version, damaged JSON), by relative path. */
  readonly skipped: { path: string; reason: string }[];
}

/** Reads every recorded answer of the project; what does not validate is skipped, never guessed at. */
export function loadAnswers(root: string): LoadedAnswers {
  const dir = answersDir(root);
  const answers: RecordedAnswer[] = [];
  const skipped: { path: string; reason: string }[] = [];
  if (!existsSync(dir)) return { answers, skipped };
  for (const name of readdirSync(dir).sort()) {
    if (!name.endsWith('.json')) continue;
    const rel = `${STATE_DIR}/${ANSWERS_DIR}/${name}`;
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(path.join(dir, name), 'utf8'));
    } catch {
      skipped.push({ path: rel, reason: 'not valid JSON' });
      continue;
    }
    const parsed = RecordedAnswerSchema.safeParse(data);
    if (!parsed.success || `${parsed.data.id}.json` !== name) {
      skipped.push({ path: rel, reason: parsed.success ? 'file name differs from its id' : 'not a schemaVersion 1 answer record' });
      continue;
    }
    const { schemaVersion: _version, ...answer } = parsed.data;
    answers.push(answer);
  }
  return { answers, skipped };
}
