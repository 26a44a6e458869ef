import { parse as parseShellWords } from 'shell-quote';
import { fail, ok, type Result } from '../result.js';

/**
 * Turns a configured command into argv. Strings are split with shell quoting rules but never
 * given to a shell: operators (`&&`, `|`, `>`), substitutions and comments are refused.
 */
export function toArgv(command: string | readonly string[]): Result<string[], 'COMMAND_INVALID'> {
  if (Array.isArray(command)) return command.length > 0 ? ok([...command]) : fail('COMMAND_INVALID', 'Empty command.');
  const text = (command as string).trim();
  if (text === '') return fail('COMMAND_INVALID', 'Empty command.');
  const words: string[] = [];
  for (const token of parseShellWords(text, (name) => `$${name}`)) {
    if (typeof token === 'string') {
      words.push(token);
      continue;
    }
    if ('pattern' in token) {
      words.push(token.pattern);
      continue;
    }
    const what = 'op' in token ? `the shell operator "${token.op}"` : 'a comment';
    return fail('COMMAND_INVALID', `Command ${JSON.stringify(text)} uses ${what}; commands run without a shell. Use a script file or an argv array instead.`);
  }
  return words.length > 0 ? ok(words) : fail('COMMAND_INVALID', 'Empty command.');
}
