import { describe, expect, it } from 'vitest';
import { parseModelJson } from '../../../src/engine/tick/model-json.js';
import { judgeCall, parseClaudeVersion, parsePermissionModes, parseWrapper, wrapperCost, type ProcessOutcome } from '../../../src/engine/tick/wrapper.js';

const ok = (stdout: string, patch: Partial<ProcessOutcome> = {}): ProcessOutcome => ({ spawnError: null, timedOut: false, signal: null, exitCode: 0, stdout, stderr: '', ...patch });
const wrapper = (fields: Record<string, unknown>) => JSON.stringify({ type: 'result', subtype: 'success', is_error: false, result: '{}', total_cost_usd: 0.25, terminal_reason: 'completed', session_id: 's', ...fields });

describe('judgeCall()', () => {
  it('answers with the wrapper result when is_error is false and the turn completed', () => {
    const verdict = judgeCall(ok(wrapper({ result: '{"a":1}' })));
    expect(verdict).toMatchObject({ kind: 'answered', text: '{"a":1}' });
    expect(wrapperCost(verdict.wrapper)).toBe(0.25);
  });

  it('accepts a wrapper without terminal_reason (older CLIs)', () => {
    expect(judgeCall(ok(JSON.stringify({ type: 'result', is_error: false, result: 'x' }))).kind).toBe('answered');
  });

  it('fails on is_error true even with subtype "success" and exit 0', () => {
    const verdict = judgeCall(ok(wrapper({ is_error: true, result: 'Invalid API key' })));
    expect(verdict.kind).toBe('failed');
    expect(verdict.kind === 'failed' && verdict.reason).toContain('Invalid API key');
  });

  it('fails on a terminal_reason other than completed', () => {
    expect(judgeCall(ok(wrapper({ terminal_reason: 'max_turns' }))).kind).toBe('failed');
  });

  it('succeeds on is_error false even with a non-zero exit code', () => {
    expect(judgeCall(ok(wrapper({}), { exitCode: 1 })).kind).toBe('answered');
  });

  it('tells a crash (no wrapper, non-zero exit) from a missing result', () => {
    expect(judgeCall(ok('', { exitCode: 1, stderr: 'boom' }))).toMatchObject({ kind: 'failed' });
    expect(judgeCall(ok('plain text'))).toMatchObject({ kind: 'no_result' });
    expect(judgeCall(ok(JSON.stringify({ type: 'result', is_error: false })))).toMatchObject({ kind: 'no_result' });
    expect(judgeCall(ok(wrapper({ result: 42 })))).toMatchObject({ kind: 'no_result' });
  });

  it('fails on spawn errors, timeouts and signals', () => {
    expect(judgeCall(ok('', { spawnError: 'spawn claude ENOENT', exitCode: null })).kind).toBe('failed');
    expect(judgeCall(ok(wrapper({}), { timedOut: true })).kind).toBe('failed');
    expect(judgeCall(ok('', { signal: 'SIGKILL', exitCode: null })).kind).toBe('failed');
  });
});

describe('parseWrapper()', () => {
  it('finds the wrapper after warning lines', () => {
    expect(parseWrapper(`warning: something\n${wrapper({ result: 'r' })}\n`)?.result).toBe('r');
  });
  it('ignores JSON that is not a wrapper', () => {
    expect(parseWrapper('[1,2]')).toBeNull();
    expect(parseWrapper('')).toBeNull();
  });
});

describe('parseModelJson()', () => {
  it('reads one object, tolerating whitespace and one fence around it', () => {
    expect(parseModelJson(' {"a":1}\n')).toEqual({ ok: true, value: { a: 1 } });
    expect(parseModelJson('```json\n{"a":1}\n```')).toEqual({ ok: true, value: { a: 1 } });
  });
  it('refuses prose, arrays and partial objects', () => {
    expect(parseModelJson('Here it is: {"a":1}').ok).toBe(false);
    expect(parseModelJson('[1]')).toMatchObject({ ok: false, error: { code: 'NOT_OBJECT' } });
    expect(parseModelJson('{"a":')).toMatchObject({ ok: false, error: { code: 'NOT_JSON' } });
  });
});

describe('reading `claude --help` and `--version`', () => {
  it('lists the permission modes, even when the help text wraps', () => {
    const help = `  --permission-mode <mode>          Permission mode to use for the session (choices: "acceptEdits", "bypassPermissions",\n                                    "default", "dontAsk", "plan")\n  --model <model>`;
    expect(parsePermissionModes(help)).toEqual(['acceptEdits', 'bypassPermissions', 'default', 'dontAsk', 'plan']);
    expect(parsePermissionModes('no such option')).toEqual([]);
  });
  it('reads the version', () => {
    expect(parseClaudeVersion('2.1.197 (Claude Code)\n')).toBe('2.1.197');
    expect(parseClaudeVersion('nothing')).toBeNull();
  });
});
