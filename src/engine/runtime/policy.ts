import type { ApprovalPolicy } from '../../shared/schemas.js';
import { assertNever, fail, ok, type Result } from '../result.js';

/** The policy a newly registered project gets: a person decides. */
export const DEFAULT_POLICY: ApprovalPolicy = { mode: 'ask' };

/** How an approval request is resolved under `policy` at time `nowMs`: at once, or by asking. */
export function effectivePolicy(policy: ApprovalPolicy, nowMs: number): 'auto' | 'ask' {
  switch (policy.mode) {
    case 'ask':
      return 'ask';
    case 'auto':
      return 'auto';
    case 'until':
      // An `until` that has passed falls back to asking, never to approving.
      return Date.parse(policy.until) > nowMs ? 'auto' : 'ask';
    default:
      return assertNever(policy);
  }
}

/** Reads a policy as people write it: `ask`, `auto` or `until <ISO time>`. */
export function parseApprovalPolicy(text: string): Result<ApprovalPolicy, 'POLICY_INVALID'> {
  const trimmed = text.trim();
  if (trimmed === 'ask' || trimmed === 'auto') return ok({ mode: trimmed });
  const until = /^until\s+(\S+)$/.exec(trimmed);
  if (until && !Number.isNaN(Date.parse(until[1]!)) && /^\d{4}-\d{2}-\d{2}T/.test(until[1]!)) {
    return ok({ mode: 'until', until: new Date(until[1]!).toISOString() });
  }
  return fail('POLICY_INVALID', `Not an approval policy: ${JSON.stringify(trimmed)}. Use "ask", "auto" or "until <ISO time>" (e.g. until 2030-01-01T18:00:00Z).`);
}

/** The policy as people write it. */
export function formatApprovalPolicy(policy: ApprovalPolicy): string {
  return policy.mode === 'until' ? `until ${policy.until}` : policy.mode;
}
