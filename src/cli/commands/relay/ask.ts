// `relay ask`: a question to another coding agent, its answer on stdout.
import path from 'node:path';
import type { Command } from 'commander';
import { readStdin, withHelp } from '../../io.js';
import { addCommonOptions, BACKEND_HELP, type CommonFlags } from '../../relay-options.js';

interface AskFlags extends CommonFlags {
  readonly contextFile?: string;
  readonly context?: string;
  readonly includeDiff?: boolean;
}

/** Registers `relay ask`. */
export function registerAsk(program: Command): void {
  withHelp(
    addCommonOptions(program.command('ask').description('ask another coding agent about your repository and print its answer').argument('[prompt]', 'the request ("-" reads it from stdin)'))
      .option('--context-file <file>', 'send this file as additional context')
      .option('--context <text>', 'send this text as additional context (not with --context-file)')
      .option('--include-diff', "send the uncommitted diff (or the last commit's, when clean)"),
    {
      about: BACKEND_HELP,
      examples: ['relay ask "Is the retry logic in src/net.ts sound?" --include-diff', 'relay ask - --backend ollama --model qwen2.5-coder < question.md', 'relay ask "Check this plan" --backend gemini --context-file PLAN.md --json'],
      exitCodes: { 0: 'answered (the answer is on stdout)', 1: 'the relay failed (reason on stderr: a limit, a nested relay, the backend)', 2: 'the command line was wrong (no prompt, unknown backend or sandbox, a missing context file or repository)' },
    },
  ).action(async (prompt: string | undefined, flags: AskFlags) => {
    const { relay } = await import('../../../engine/relay/index.js');
    const { commonRelayOptions, repoOf, runRelayCommand } = await import('../../relay-run.js');
    const text = prompt === '-' ? (await readStdin()).toString('utf8') : (prompt ?? '');
    const base = program.opts<{ cwd?: string }>().cwd ?? process.cwd();
    const repoPath = repoOf(flags, program);
    await runRelayCommand(flags, { root: repoPath, kind: 'ask', prompt: text }, (signal, onEvent) =>
      relay({
        prompt: text,
        repoPath,
        ...(flags.contextFile !== undefined ? { contextFile: path.resolve(base, flags.contextFile) } : {}),
        ...(flags.context !== undefined ? { contextText: flags.context } : {}),
        includeDiff: Boolean(flags.includeDiff),
        ...commonRelayOptions(flags, signal, onEvent),
      }),
    );
  });
}
