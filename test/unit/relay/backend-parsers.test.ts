import { describe, expect, it } from 'vitest';
import { claudeArgs, claudePermissionMode, isRootRefusal, parseClaudeJson } from '../../../src/engine/relay/backends/claude.js';
import { fitsInArgv, lineFeeder, PROMPT_ARG_MAX_BYTES, tail } from '../../../src/engine/relay/backends/cli.js';
import { codexAnswer, codexExecArgs, codexProgress, codexReviewArgs, parseCodexOutput } from '../../../src/engine/relay/backends/codex.js';
import { geminiApprovalMode, geminiArgs, geminiExitMeaning, GEMINI_STDIN_PROMPT, parseGeminiJson } from '../../../src/engine/relay/backends/gemini.js';
import { capabilityTable } from '../../../src/engine/relay/backends/registry.js';

const jsonl = (...events: unknown[]): string => events.map((e) => JSON.stringify(e)).join('\n');

describe('capability table', () => {
  it('says which sandboxes, native review and streaming each backend has', () => {
    expect(capabilityTable()).toEqual({
      codex: { transport: 'cli', sandboxes: ['read-only', 'workspace-write', 'danger-full-access'], nativeReview: { sandboxes: ['read-only'], model: false, prompt: false }, streaming: 'progress' },
      gemini: { transport: 'cli', sandboxes: ['read-only', 'workspace-write', 'danger-full-access'], nativeReview: null, streaming: 'none' },
      claude: { transport: 'cli', sandboxes: ['read-only', 'workspace-write', 'danger-full-access'], nativeReview: null, streaming: 'none' },
      ollama: { transport: 'http', sandboxes: ['read-only'], nativeReview: null, streaming: 'answer' },
    });
  });
});

describe('codex', () => {
  it('builds `codex exec` argv with -C, -s, JSONL, the last-message file, the model and the prompt last', () => {
    expect(codexExecArgs({ repoPath: '/r', sandbox: 'workspace-write', model: 'gpt-5', outputFile: '/t/o.txt', prompt: 'P' })).toEqual([
      'exec', '-C', '/r', '-s', 'workspace-write', '--skip-git-repo-check', '--ephemeral', '--json', '-o', '/t/o.txt', '-m', 'gpt-5', 'P',
    ]);
  });

  it('reads the prompt from stdin ("-") when it is too big for argv', () => {
    expect(codexExecArgs({ repoPath: '/r', sandbox: 'read-only', model: null, outputFile: '/o', prompt: null }).at(-1)).toBe('-');
    expect(fitsInArgv('x'.repeat(PROMPT_ARG_MAX_BYTES))).toBe(true);
    expect(fitsInArgv('x'.repeat(PROMPT_ARG_MAX_BYTES + 1))).toBe(false);
  });

  it('builds the native review argv with --base and neither -C, --sandbox nor a prompt', () => {
    const args = codexReviewArgs({ base: 'main', outputFile: '/o' });
    expect(args).toEqual(['exec', 'review', '--base', 'main', '--json', '-o', '/o']);
    expect(args).not.toContain('-C');
    expect(args).not.toContain('-s');
  });

  it('parses JSONL events: agent messages, failures, and plain lines of older versions', () => {
    const out = parseCodexOutput(
      [
        jsonl({ type: 'thread.started', thread_id: 't' }, { type: 'item.completed', item: { type: 'reasoning', text: 'thinking' } }, { type: 'item.completed', item: { type: 'agent_message', text: 'first' } }),
        'a plain line',
        jsonl({ type: 'item.completed', item: { type: 'agent_message', text: 'final answer' } }, { type: 'turn.failed', error: { message: 'quota' } }, { type: 'error', message: 'boom' }),
      ].join('\n'),
    );
    expect(out).toEqual({ messages: ['first', 'final answer'], errors: ['quota', 'boom'], plainText: 'a plain line' });
  });

  it('describes progress events and skips bookkeeping ones', () => {
    expect(codexProgress(JSON.stringify({ type: 'item.started', item: { type: 'command_execution', command: 'ls -la' } }))).toBe('$ ls -la');
    expect(codexProgress(JSON.stringify({ type: 'item.completed', item: { type: 'reasoning', text: 'Reading files' } }))).toBe('Reading files');
    expect(codexProgress(JSON.stringify({ type: 'turn.failed', error: { message: 'x' } }))).toBe('error: x');
    expect(codexProgress(JSON.stringify({ type: 'turn.started' }))).toBeNull();
    expect(codexProgress('not json')).toBeNull();
  });

  describe('codexAnswer()', () => {
    const ok = (stdout: string, file = '') => codexAnswer({ exitCode: 0, stdout, stderr: '' }, file, 'codex exec');
    it('prefers the last-message file, then the last agent message, then plain stdout', () => {
      expect(ok(jsonl({ type: 'item.completed', item: { type: 'agent_message', text: 'from events' } }), 'from file')).toEqual({ ok: true, value: { text: 'from file' } });
      expect(ok(jsonl({ type: 'item.completed', item: { type: 'agent_message', text: ' from events ' } }))).toEqual({ ok: true, value: { text: 'from events' } });
      expect(ok('bare answer\n')).toEqual({ ok: true, value: { text: 'bare answer' } });
    });

    it('fails on a non-zero exit with the reported error, else stderr', () => {
      expect(codexAnswer({ exitCode: 1, stdout: jsonl({ type: 'turn.failed', error: { message: '401 Unauthorized' } }), stderr: 'noise' }, 'ignored', 'codex exec')).toEqual({
        ok: false,
        error: { code: 'EXIT_CODE', message: 'codex exec exited with code 1: 401 Unauthorized' },
      });
      expect(codexAnswer({ exitCode: 2, stdout: '', stderr: "error: unexpected argument '--x' found\n" }, '', 'codex exec')).toMatchObject({ error: { message: "codex exec exited with code 2: error: unexpected argument '--x' found" } });
    });

    it('fails when a clean exit produced no answer', () => {
      expect(ok(jsonl({ type: 'turn.completed' }))).toEqual({ ok: false, error: { code: 'EMPTY_ANSWER', message: 'codex exec completed without producing an answer' } });
    });
  });
});

describe('gemini', () => {
  it('maps the sandbox vocabulary to approval modes', () => {
    expect(['read-only', 'workspace-write', 'danger-full-access'].map((s) => geminiApprovalMode(s as never))).toEqual(['plan', 'auto_edit', 'yolo']);
  });

  it('builds argv with JSON output, the approval mode, the model and -p', () => {
    expect(geminiArgs({ sandbox: 'read-only', model: 'gemini-2.5-pro', prompt: 'P' })).toEqual(['-o', 'json', '--approval-mode', 'plan', '-m', 'gemini-2.5-pro', '-p', 'P']);
    expect(geminiArgs({ sandbox: 'read-only', model: null, prompt: null })).toEqual(['-o', 'json', '--approval-mode', 'plan', '-p', GEMINI_STDIN_PROMPT]);
  });

  it('parses the success and error documents', () => {
    expect(parseGeminiJson('{"session_id":"s","response":"hello","stats":{}}')).toEqual({ kind: 'answer', text: 'hello' });
    expect(parseGeminiJson('Loaded cached credentials.\n{"session_id":"s","response":"hi"}')).toEqual({ kind: 'answer', text: 'hi' });
    expect(parseGeminiJson('{"session_id":"s","error":{"type":"FatalAuthenticationError","message":"sign in","code":41}}')).toEqual({ kind: 'error', type: 'FatalAuthenticationError', message: 'sign in', code: 41 });
    expect(parseGeminiJson('plain text')).toEqual({ kind: 'unreadable' });
    expect(parseGeminiJson('')).toEqual({ kind: 'unreadable' });
  });

  it('explains its exit codes', () => {
    expect(geminiExitMeaning(41).meaning).toContain('not signed in');
    expect(geminiExitMeaning(42).meaning).toContain('rejected its input');
    expect(geminiExitMeaning(53).meaning).toContain('turn limit');
    expect(geminiExitMeaning(1)).toEqual({ code: 'EXIT_CODE', meaning: 'gemini exited with code 1' });
  });
});

describe('claude', () => {
  it('maps the sandbox vocabulary to permission modes', () => {
    expect(['read-only', 'workspace-write', 'danger-full-access'].map((s) => claudePermissionMode(s as never))).toEqual(['plan', 'acceptEdits', 'bypassPermissions']);
  });

  it('builds print-mode argv with JSON output and the prompt last, or no prompt (stdin)', () => {
    expect(claudeArgs({ sandbox: 'read-only', model: 'opus', prompt: 'P' })).toEqual(['-p', '--output-format', 'json', '--permission-mode', 'plan', '--no-session-persistence', '--model', 'opus', 'P']);
    expect(claudeArgs({ sandbox: 'workspace-write', model: null, prompt: null })).toEqual(['-p', '--output-format', 'json', '--permission-mode', 'acceptEdits', '--no-session-persistence']);
  });

  it('judges by is_error, not by subtype', () => {
    expect(parseClaudeJson('{"type":"result","subtype":"success","is_error":false,"result":"fine","terminal_reason":"completed"}')).toEqual({ kind: 'answer', text: 'fine' });
    expect(parseClaudeJson('{"type":"result","subtype":"success","is_error":true,"result":"Invalid API key"}')).toEqual({ kind: 'error', message: 'Invalid API key' });
    expect(parseClaudeJson('{"type":"result","subtype":"error_max_turns","is_error":true,"result":"","api_error_status":529}')).toEqual({ kind: 'error', message: 'error_max_turns (API status 529)' });
    expect(parseClaudeJson('{"type":"result","is_error":false,"result":"partial","terminal_reason":"max_turns"}')).toEqual({ kind: 'error', message: 'partial' });
    expect(parseClaudeJson('error: unknown option')).toEqual({ kind: 'unreadable' });
    expect(parseClaudeJson('{"type":"result"}')).toEqual({ kind: 'unreadable' });
  });

  it('recognises the root refusal of bypassPermissions', () => {
    expect(isRootRefusal('--dangerously-skip-permissions cannot be used with root/sudo privileges for security reasons')).toBe(true);
    expect(isRootRefusal('Invalid API key')).toBe(false);
  });
});

describe('CLI helpers', () => {
  it('tail() keeps the last non-empty lines', () => {
    expect(tail('a\n\nb\nc\n\n', 2)).toBe('b\nc');
  });

  it('lineFeeder() hands out whole lines across chunks', () => {
    const lines: string[] = [];
    const feed = lineFeeder((l) => lines.push(l));
    feed('one\ntw');
    feed('o\r\nthr');
    feed('ee\n');
    expect(lines).toEqual(['one', 'two', 'three']);
  });
});
