import { fail, ok, type Result } from '../result.js';

/**
 * Reads the JSON object a model was asked to answer with. Surrounding whitespace is allowed,
 * and so is one Markdown fence around the whole answer (models add it despite being told not
 * to, and it is unambiguous); anything else must be exactly one JSON object.
 */
export function parseModelJson(text: string): Result<Record<string, unknown>, 'NOT_JSON' | 'NOT_OBJECT'> {
  let body = text.trim();
  const fenced = /^```[A-Za-z0-9_-]*[ \t]*\r?\n([\s\S]*?)\r?\n```$/.exec(body);
  if (fenced) body = fenced[1]!.trim();
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (error) {
    return fail('NOT_JSON', `the answer is not JSON (${(error as Error).message})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return fail('NOT_OBJECT', 'the answer is JSON but not an object');
  return ok(value as Record<string, unknown>);
}
