// What each status, verdict and kind looks like: a tone (colour family) and a short label.
// Pure, so the colours of History and Run detail always agree.
import { assertNever, RUN_KINDS, RUN_STATUSES, type RunKind, type RunStatus } from '../../shared/facts.js';

/**
 * The run kinds and statuses as plain lists, and the exhaustiveness check: the same ones the
 * contract's schemas are built from (src/shared/facts.ts, which loads no zod at run time).
 */
export { assertNever, RUN_KINDS, RUN_STATUSES };

/** True when `value` is a run kind. */
export function isRunKind(value: string | null): value is RunKind {
  return (RUN_KINDS as readonly string[]).includes(value ?? '');
}

/** True when `value` is a run status. */
export function isRunStatus(value: string | null): value is RunStatus {
  return (RUN_STATUSES as readonly string[]).includes(value ?? '');
}

export type Tone = 'neutral' | 'info' | 'success' | 'warning' | 'danger' | 'muted';

export interface BadgeLook {
  readonly tone: Tone;
  readonly label: string;
}

export function statusLook(status: RunStatus): BadgeLook {
  switch (status) {
    case 'running':
      return { tone: 'info', label: 'running' };
    case 'waiting':
      return { tone: 'warning', label: 'waiting' };
    case 'done':
      return { tone: 'neutral', label: 'done' };
    case 'failed':
      return { tone: 'danger', label: 'failed' };
    case 'cancelled':
      return { tone: 'muted', label: 'cancelled' };
    default:
      return assertNever(status);
  }
}

const VERDICTS: Readonly<Record<string, Tone>> = {
  approved: 'success',
  success: 'success',
  pending: 'warning',
  blocked: 'warning',
  skipped: 'muted',
  reverted: 'muted',
  rejected: 'danger',
  'rolled-back': 'danger',
  stop: 'danger',
};

/** Verdicts are open strings in the contract (each engine has its own); unknown ones are neutral. */
export function verdictLook(verdict: string): BadgeLook {
  return { tone: VERDICTS[verdict] ?? 'neutral', label: verdict };
}

export function kindLabel(kind: RunKind): string {
  switch (kind) {
    case 'patch':
      return 'Patch';
    case 'tick':
      return 'Tick';
    case 'relay':
      return 'Ask';
    case 'review':
      return 'Review';
    case 'handoff':
      return 'Handoff';
    default:
      return assertNever(kind);
  }
}
