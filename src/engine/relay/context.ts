import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ok } from '../result.js';
import { relayFail, type RelayOutcome } from './errors.js';
import { checkSizeLimit, MAX_CONTEXT_FILE_BYTES } from './limits.js';

// Beyond this a file is refused from its size on disk without reading it: trimming whitespace
// could never bring it under the limit in practice, and reading it could exhaust memory.
const UNREAD_REFUSAL_BYTES = MAX_CONTEXT_FILE_BYTES * 16;

/** Text within the context limit, trimmed by the caller; TOO_LARGE otherwise. */
function withinContextLimit(label: string, text: string): RelayOutcome<string> {
  const checked = checkSizeLimit(label, text, MAX_CONTEXT_FILE_BYTES);
  return checked.ok ? ok(text) : checked;
}

/** Reads a context file (resolved against `baseDir`), trimmed, within the context limit. */
export function readContextFile(contextFile: string, baseDir: string): RelayOutcome<string> {
  const resolved = path.resolve(baseDir, contextFile);
  let stat;
  try {
    stat = statSync(resolved);
  } catch {
    return relayFail('CONTEXT_FILE', `Context file does not exist: ${resolved}`);
  }
  if (!stat.isFile()) return relayFail('CONTEXT_FILE', `Context path is not a file: ${resolved}`);
  if (stat.size > UNREAD_REFUSAL_BYTES) {
    return relayFail('TOO_LARGE', `Context file is too large (${stat.size} bytes; max ${MAX_CONTEXT_FILE_BYTES} bytes)`);
  }
  let contents: string;
  try {
    contents = readFileSync(resolved, 'utf-8').trim();
  } catch (error) {
    return relayFail('CONTEXT_FILE', `Failed reading context file ${resolved}: ${(error as Error).message}`);
  }
  return withinContextLimit('Context file', contents);
}

/**
 * The context to send: from a file or from text, never both (a file plus non-blank text is
 * refused before the file is touched), trimmed and within the context limit.
 */
export function resolveContextText(contextFile: string | null | undefined, contextText: string | null | undefined, baseDir: string): RelayOutcome<string> {
  const file = contextFile?.trim() ? contextFile : null;
  const inline = (contextText ?? '').trim();
  if (file !== null && inline) return relayFail('CONTEXT_CONFLICT', 'Use either a context file or context text, not both');
  if (file !== null) return readContextFile(file, baseDir);
  return withinContextLimit('Context text', inline);
}
