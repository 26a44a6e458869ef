import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from './cli.js';
import { tempDir } from './temp.js';

/** The folder holding the fake codex, gemini and claude scripts. */
export const FAKE_AGENTS_DIR = path.join(REPO_ROOT, 'fixtures/fake-agents');

/** One recorded call of a fake agent. */
export interface AgentCall {
  readonly agent: 'codex' | 'gemini' | 'claude';
  readonly argv: string[];
  readonly cwd: string;
  readonly env: Record<string, string>;
  readonly stdin: string;
  readonly pid: number;
}

/** A log file for fake agents to record their calls in, plus readers. */
export interface AgentLog {
  readonly file: string;
  /** Every call so far, oldest first (empty when no agent ran). */
  calls(): AgentCall[];
  /** The only call; fails the test when there was not exactly one. */
  only(): AgentCall;
}

/** A fresh call log in a temp folder. */
export function agentLog(): AgentLog {
  const file = path.join(tempDir('relay-agents-'), 'calls.jsonl');
  const calls = (): AgentCall[] =>
    existsSync(file)
      ? readFileSync(file, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map((line) => JSON.parse(line) as AgentCall)
      : [];
  return {
    file,
    calls,
    only() {
      const all = calls();
      if (all.length !== 1) throw new Error(`expected exactly one agent call, got ${all.length}`);
      return all[0]!;
    },
  };
}

/**
 * An environment whose PATH finds the fake agents first (then node, then the system), with
 * the depth guard reset and the fakes told where to log. `extra` wins over everything.
 */
export function fakeAgentEnv(log: AgentLog, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: [FAKE_AGENTS_DIR, path.dirname(process.execPath), '/usr/bin', '/bin'].join(path.delimiter),
    HOME: process.env.HOME ?? '/tmp',
    PHONE_A_FRIEND_DEPTH: '0',
    FAKE_AGENT_LOG: log.file,
    // Children get an allow-list environment: the fakes' FAKE_* settings pass as the user's declaration.
    RELAY_PASS_ENV: 'FAKE_*',
    ...extra,
  };
}

/** The text after the last `--` option pair: for codex/claude the prompt is the last argv element. */
export function lastArg(call: AgentCall): string {
  return call.argv[call.argv.length - 1]!;
}
