// The file of truth of an ask or a review: `.relaycode/answers/<id>.json` in a Relay project.
// The CLI and the app both write it, so a handoff brief made by either one (and a history
// rebuilt from files) knows what another agent said, whoever asked. Reading it back is engine/records/answers.ts.
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../fs/atomic.js';
import { ownFile } from '../fs/safe-path.js';
import { CONFIG_FILE, STATE_DIR } from '../patch/config.js';
import { ANSWER_ID, ANSWER_SCHEMA_VERSION, ANSWERS_DIR, type RecordedAnswer } from '../records/answers.js';

export { ANSWER_ID, ANSWERS_DIR, type RecordedAnswer };

/** A fresh answer id. */
export function newAnswerId(): string {
  return `relay-${randomUUID()}`;
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
