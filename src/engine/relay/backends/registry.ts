import { claudeBackend } from './claude.js';
import { codexBackend } from './codex.js';
import { geminiBackend } from './gemini.js';
import { ollamaBackend } from './ollama.js';
import type { Backend, BackendCapabilities, BackendName } from './types.js';

/** A set of backends by name; the relay's default is BUILTIN_BACKENDS. */
export type BackendTable = Readonly<Record<string, Backend>>;

/** The backends Relay Desk ships with. */
export const BUILTIN_BACKENDS: Readonly<Record<BackendName, Backend>> = {
  codex: codexBackend,
  gemini: geminiBackend,
  claude: claudeBackend,
  ollama: ollamaBackend,
};

/** The capability table: sandbox modes, native review and streaming of every backend. */
export function capabilityTable(backends: BackendTable = BUILTIN_BACKENDS): Readonly<Record<string, BackendCapabilities>> {
  return Object.fromEntries(Object.entries(backends).map(([name, backend]) => [name, backend.capabilities]));
}

/** The backend called `name`, or null. */
export function findBackend(name: string, backends: BackendTable = BUILTIN_BACKENDS): Backend | null {
  return Object.hasOwn(backends, name) ? (backends[name] ?? null) : null;
}
