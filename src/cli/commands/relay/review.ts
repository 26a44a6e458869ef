// `relay review`: another coding agent reviews what HEAD changed since a base branch.
import type { Command } from 'commander';
import { withHelp } from '../../io.js';
import { addCommonOptions, BACKEND_HELP, type CommonFlags } from '../../relay-options.js';

interface ReviewFlags extends CommonFlags {
  readonly base?: string;
  readonly prompt?: string;
}

/** Registers `relay review`. */
export function registerReview(program: Command): void {
  withHelp(
    addCommonOptions(program.command('review').description('ask another coding agent to review what HEAD changed since a base branch'))
      .option('--base <branch>', 'compare against this branch (default: main or master unless HEAD is on it, else HEAD~1)')
      .option('--prompt <text>', 'what to ask about the changes (default: "Review the following changes.")'),
    {
      about: `With no --base, the base is main, else master, skipping the one HEAD is on (its diff would be
empty); on that branch itself the last commit is reviewed (HEAD~1). Nothing to review (HEAD has
no changes since the base) is said, and nothing is sent.

${BACKEND_HELP}`,
      examples: ['relay review', 'relay review --base develop --backend gemini', 'relay review --backend claude --prompt "Any security risks?"'],
      exitCodes: { 0: 'reviewed (the answer is on stdout)', 1: 'nothing to review, or the relay failed (reason on stderr)', 2: 'the command line was wrong (including a --base that does not exist)' },
    },
  ).action(async (flags: ReviewFlags) => {
    const { DEFAULT_REVIEW_PROMPT, reviewRelay } = await import('../../../engine/relay/index.js');
    const { commonRelayOptions, repoOf, runRelayCommand } = await import('../../relay-run.js');
    const repoPath = repoOf(flags, program);
    await runRelayCommand(flags, { root: repoPath, kind: 'review', prompt: flags.prompt ?? DEFAULT_REVIEW_PROMPT }, (signal, onEvent) =>
      reviewRelay({
        repoPath,
        ...(flags.base !== undefined ? { base: flags.base } : {}),
        ...(flags.prompt !== undefined ? { prompt: flags.prompt } : {}),
        ...commonRelayOptions(flags, signal, onEvent),
      }),
    );
  });
}
