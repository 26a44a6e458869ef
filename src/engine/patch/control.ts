import { parse as parseYaml } from 'yaml';
import type { ControlBlock } from './types.js';

const KNOWN_KEYS = ['projectId', 'uuid', 'gitCommitMsg', 'promptSummary', 'changeSummary'] as const;

/** True when a block body or text region looks like the control block (it names a projectId). */
export function mentionsProjectId(text: string): boolean {
  // [ \t]* rather than \s*: with /m, \s* would run across blank lines from every line start (quadratic).
  return /^[ \t]*["']?project_?id["']?[ \t]*:/im.test(text);
}

/** Canonical spelling of a control key written as projectID, project_id, git_commit_msg, ... */
function canonicalKey(key: string): string {
  const folded = key.toLowerCase().replace(/[_-]/g, '');
  return KNOWN_KEYS.find((k) => k.toLowerCase() === folded) ?? key;
}

function canonicalKeys(data: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(data).map(([k, v]) => [canonicalKey(k), v]));
}

export type ControlParse =
  | { readonly ok: true; readonly control: ControlBlock; readonly warnings: readonly string[] }
  | { readonly ok: false; readonly message: string };

/**
 * Reads the control block. Real answers are not always valid YAML (an unquoted colon in a
 * commit message is common), so a line-by-line reading of the known keys is the fallback.
 */
export function parseControlBlock(text: string): ControlParse {
  const warnings: string[] = [];
  let data: Record<string, unknown> | null = null;
  try {
    const parsed: unknown = parseYaml(text);
    if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) data = canonicalKeys(parsed as Record<string, unknown>);
  } catch {
    data = null;
  }
  if (data === null || data.projectId === undefined) {
    data = readKeysLineByLine(text);
    if (data.projectId !== undefined) warnings.push('The control block is not valid YAML; its keys were read line by line.');
  }
  const projectId = scalarToString(data.projectId);
  if (!projectId) return { ok: false, message: 'The control block has no projectId.' };
  let uuid = scalarToString(data.uuid);
  if (!uuid) return { ok: false, message: 'The control block has no uuid. Ask the assistant to end its answer with the YAML block including a new uuid.' };
  if (!/^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/.test(uuid)) {
    return { ok: false, message: `The control block's uuid is not a plain identifier: ${JSON.stringify(uuid.slice(0, 80))}` };
  }
  uuid = uuid.toLowerCase();
  const control: ControlBlock = {
    projectId,
    uuid,
    ...optionalString('gitCommitMsg', data.gitCommitMsg),
    ...optionalString('promptSummary', data.promptSummary),
    ...(Array.isArray(data.changeSummary) ? { changeSummary: data.changeSummary as unknown[] } : {}),
  };
  return { ok: true, control, warnings };
}

function optionalString<K extends string>(key: K, value: unknown): Partial<Record<K, string>> {
  const text = scalarToString(value);
  return text ? ({ [key]: text } as Record<K, string>) : {};
}

function scalarToString(value: unknown): string | undefined {
  if (typeof value === 'string') return value.trim() || undefined;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

function readKeysLineByLine(text: string): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const line of text.split('\n')) {
    const m = /^\s*["']?(\w+)["']?\s*:\s*(.*)$/.exec(line);
    if (!m) continue;
    const key = canonicalKey(m[1]!);
    if (!(KNOWN_KEYS as readonly string[]).includes(key) || key === 'changeSummary') continue;
    let value = m[2]!.trim();
    if ((value.startsWith('"') && value.endsWith('"')) || (value.startsWith("'") && value.endsWith("'"))) value = value.slice(1, -1);
    if (value !== '') out[key] = value;
  }
  return out;
}
