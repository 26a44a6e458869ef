/**
 * An answer as it comes in (the clipboard, the window's paste), taken once: the intake checks,
 * then the one parse. Routing, the task's title and the transaction all work on this value; none
 * of them reads the text again. `relay apply` takes bytes from a file and goes through the same
 * two steps inside applyPatch.
 */
import { readAnswerText, type AnswerCheck, type ReadAnswer } from './check.js';
import { DEFAULT_INTAKE_LIMITS, intakeAnswer, type IntakeLimits } from './intake.js';
import { replyFor } from './reply.js';

/** An answer read once, with the facts routing needs. */
export interface IncomingAnswer {
  /** The text as taken in (it passed the intake checks when `read` is ok). */
  readonly text: string;
  /** The limits it was taken in with; a project with stricter ones checks the text again. */
  readonly limits: IntakeLimits;
  /**
   * The project its control block names (Relay Desk's own format), or null for an answer in an
   * assistant's own format. A Relay answer that does not parse still names its project when its
   * control block is readable, so the refusal reaches that project.
   */
  readonly projectId: string | null;
  /** The one parse: the answer read, or the refusal (with its reply). */
  readonly read: AnswerCheck<ReadAnswer>;
}

export interface TakeOptions {
  /** Whether a project-relative path exists: in the one project, or in any the answer may be routed to. */
  readonly pathExists?: (relative: string) => boolean;
  readonly limits?: IntakeLimits;
}

/** Parse failures of Relay's own format after which the control block may still say where the answer belongs. */
const RELAY_BREAKAGE = new Set(['TRUNCATED_RESPONSE', 'INVALID_CONTROL_BLOCK', 'NO_OPERATIONS', 'NO_CONTROL_BLOCK', 'UNHEADED_FILE_BLOCK', 'INVALID_RENAME_BLOCK']);
const PROJECT_ID_LINE = /^[ \t]*["']?project_?id["']?[ \t]*:[ \t]*["']?([^"'\s#,]+)/im;
const UUID_LINE = /^[ \t]*["']?uuid["']?[ \t]*:/im;

/**
 * The projectId a Relay answer that does not parse still names. Only a control block counts: a
 * `projectId:` line with a `uuid:` line, as `relay prompt` asks for. A Firebase or GCP config
 * in a copied snippet has a projectId too, and must not send the text anywhere.
 */
export function namedProjectId(text: string): string | null {
  if (!UUID_LINE.test(text)) return null;
  return PROJECT_ID_LINE.exec(text)?.[1] ?? null;
}

/** Takes an answer in: intake, then the one parse. Never throws for bad input; `read` says why. */
export function takeAnswer(text: string, options: TakeOptions = {}): IncomingAnswer {
  const limits = options.limits ?? DEFAULT_INTAKE_LIMITS;
  const intake = intakeAnswer(text, limits);
  if (!intake.ok) {
    const reply = replyFor(intake.error);
    return { text, limits, projectId: null, read: { ok: false, error: { ...intake.error, ...(reply ? { reply } : {}) } } };
  }
  const read = readAnswerText(intake.value, options.pathExists ? { pathExists: options.pathExists } : {});
  const projectId = read.ok ? (read.value.parsed.control?.projectId ?? null) : RELAY_BREAKAGE.has(read.error.code) ? namedProjectId(intake.value) : null;
  return { text: intake.value, limits, projectId, read };
}

/** Whether the limits a project configures are stricter than those the answer was taken in with. */
export function stricterLimits(taken: IntakeLimits, project: IntakeLimits): boolean {
  return project.maxBytes < taken.maxBytes || project.maxLineBytes < taken.maxLineBytes;
}
