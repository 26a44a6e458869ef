// Shell words for commands the window shows people to copy (never run by the window).

/** One POSIX shell word: left bare when safe, else single-quoted. */
export function shellWord(word: string): string {
  if (word !== '' && /^[\w@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A command line from argv. */
export function shellLine(argv: readonly string[]): string {
  return argv.map(shellWord).join(' ');
}

/** The terminal command that dispatches a saved brief to a new agent session. */
export function handoffDispatchCommand(root: string, briefId: string, to: string): string {
  return shellLine(['relay', '-C', root, 'handoff', '--resume', briefId, '--to', to]);
}
