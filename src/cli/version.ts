/** The version both CLIs report (package.json's). */
export const VERSION = '0.1.0';

/** True when the command line only asks for the version, which needs no command parser. */
export function asksOnlyVersion(args: readonly string[]): boolean {
  return args.length === 1 && (args[0] === '--version' || args[0] === '-V');
}
