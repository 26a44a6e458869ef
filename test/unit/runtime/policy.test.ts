import { describe, expect, it } from 'vitest';
import { effectivePolicy, formatApprovalPolicy, parseApprovalPolicy } from '../../../src/engine/runtime/index.js';

describe('approval policy', () => {
  const noon = Date.parse('2030-01-01T12:00:00Z');

  it('asks under ask and approves at once under auto', () => {
    expect(effectivePolicy({ mode: 'ask' }, noon)).toBe('ask');
    expect(effectivePolicy({ mode: 'auto' }, noon)).toBe('auto');
  });

  it('approves at once until the time, then asks again', () => {
    const policy = { mode: 'until', until: '2030-01-01T13:00:00.000Z' } as const;
    expect(effectivePolicy(policy, noon)).toBe('auto');
    expect(effectivePolicy(policy, Date.parse('2030-01-01T13:00:00Z'))).toBe('ask');
    expect(effectivePolicy(policy, Date.parse('2030-01-02T00:00:00Z'))).toBe('ask');
  });

  it('reads and writes the forms people type', () => {
    expect(parseApprovalPolicy(' ask ')).toEqual({ ok: true, value: { mode: 'ask' } });
    expect(parseApprovalPolicy('auto')).toEqual({ ok: true, value: { mode: 'auto' } });
    expect(parseApprovalPolicy('until 2030-01-01T18:00:00+02:00')).toEqual({ ok: true, value: { mode: 'until', until: '2030-01-01T16:00:00.000Z' } });
    expect(parseApprovalPolicy('until tomorrow')).toMatchObject({ ok: false, error: { code: 'POLICY_INVALID' } });
    expect(parseApprovalPolicy('sometimes')).toMatchObject({ ok: false, error: { code: 'POLICY_INVALID' } });
    expect(formatApprovalPolicy({ mode: 'until', until: '2030-01-01T16:00:00.000Z' })).toBe('until 2030-01-01T16:00:00.000Z');
  });
});
