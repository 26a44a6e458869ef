// Ask-a-friend overhead: building a full-size envelope, parsing a long SSE stream, and one
// relay() round trip to the fake codex CLI (validation, git diff, spawn, parse) — the part of
// a relay's latency that is ours rather than the other agent's.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseSse } from '../src/engine/llm/sse.js';
import { buildPrompt } from '../src/engine/relay/envelope.js';
import { relay } from '../src/engine/relay/relay.js';
import { medianMs, report } from './util.js';

const FAKES = path.join(import.meta.dirname, '../fixtures/fake-agents');

export async function run(): Promise<void> {
  const context = 'c'.repeat(199_000);
  const diff = 'd'.repeat(299_000);
  report('buildPrompt, 500 KB envelope', await medianMs(() => buildPrompt({ prompt: 'Review', repoPath: '/repo', contextText: context, diffText: diff })));

  const events = Array.from({ length: 5_000 }, (_, i) => `event: response.output_text.delta\ndata: {"type":"response.output_text.delta","delta":"token ${i} "}\n\n`).join('');
  report(`parseSse, 5000 events (${Math.round(events.length / 1024)} KB)`, await medianMs(() => parseSse(events)));

  const repo = mkdtempSync(path.join(os.tmpdir(), 'relay-bench-'));
  try {
    const git = (...args: string[]): void => void execFileSync('git', args, { cwd: repo, stdio: 'ignore' });
    git('init', '-q', '-b', 'main');
    writeFileSync(path.join(repo, 'a.txt'), 'one\n');
    git('add', '-A');
    git('-c', 'user.name=bench', '-c', 'user.email=bench@relay-desk.invalid', 'commit', '-qm', 'init');
    writeFileSync(path.join(repo, 'a.txt'), 'one\ntwo\n');
    const env = { PATH: [FAKES, path.dirname(process.execPath), '/usr/bin', '/bin'].join(path.delimiter), PHONE_A_FRIEND_DEPTH: '0' };
    const askOnce = async (): Promise<void> => {
      // A failed relay is fast and would make a fine-looking median: it stops the bench instead.
      const outcome = await relay({ prompt: 'Check', repoPath: repo, includeDiff: true, env });
      if (!outcome.ok) throw new Error(`relay() failed: ${outcome.error.code}: ${outcome.error.message}`);
    };
    report('relay() to the fake codex CLI, with --include-diff', await medianMs(askOnce, 9));
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
}
