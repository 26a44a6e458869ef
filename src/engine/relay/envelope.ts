/** What goes into a prompt envelope besides the fixed instructions. */
export interface EnvelopeParts {
  readonly prompt: string;
  readonly repoPath: string;
  /** Already trimmed; empty means no "Additional Context" section. */
  readonly contextText: string;
  /** Already trimmed; empty means no "Git Diff" section. */
  readonly diffText: string;
}

/**
 * Builds the prompt every backend receives. The fixed lines are part of the contract (other
 * agents and tests rely on them byte for byte), so edit them only together with the spec.
 */
export function buildPrompt(parts: EnvelopeParts): string {
  const lines = [
    'You are helping another coding agent by reviewing or advising on work in a local repository.',
    `Repository path: ${parts.repoPath}`,
    'Use the repository files for context when needed.',
    'Respond with concise, actionable feedback.',
    '',
    'Request:',
    parts.prompt.trim(),
  ];
  if (parts.contextText) lines.push('', 'Additional Context:', parts.contextText);
  if (parts.diffText) lines.push('', 'Git Diff:', parts.diffText);
  return lines.join('\n').trim();
}
