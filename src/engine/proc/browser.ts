// Opening a URL in the user's browser (`relay ui`), through the platform's own opener, with the
// desktop allow-list environment: the browser needs the display, not the user's credentials.
// Replaces the `open` package, whose spawns inherit the whole environment.
import path from 'node:path';
import { buildChildEnv, type Env } from '../secrets/child-env.js';
import { launchDetached } from './launch.js';
import { assertNever, fail, ok, type Result } from '../result.js';

/** The opener and its argv for a URL on each platform; the URL is always one argument, never shell text. */
export function browserCommand(url: string, platform: NodeJS.Platform): { readonly command: string; readonly args: readonly string[] } {
  switch (platform) {
    case 'darwin':
      return { command: 'open', args: [url] };
    case 'win32':
      // Not `cmd /c start`: cmd.exe would read `&` in the URL's query as its own syntax.
      return { command: 'rundll32.exe', args: ['url.dll,FileProtocolHandler', url] };
    default:
      return { command: 'xdg-open', args: [url] };
  }
}

/** How long an opener that fails (no browser, no display) is waited for. */
const OPENER_EARLY_EXIT_MS = 1_500;

/**
 * Opens an http(s) URL, or the absolute path of a local .html file (relay ui's private launch
 * file, which keeps its token off every command line), in the user's browser; fails when the
 * opener cannot start or reports an error.
 */
export async function openInBrowser(url: string, options: { readonly env: Env; readonly platform?: NodeJS.Platform; readonly cwd?: string }): Promise<Result<void, 'BROWSER_FAILED'>> {
  const isLocalPage = path.isAbsolute(url) && /\.html?$/i.test(url);
  if (!/^https?:\/\//i.test(url) && !isLocalPage) return fail('BROWSER_FAILED', `Only http(s) URLs and local .html files are opened in a browser, not ${JSON.stringify(url.slice(0, 40))}.`);
  const platform = options.platform ?? process.platform;
  const { command, args } = browserCommand(url, platform);
  const outcome = await launchDetached({ command, args, cwd: options.cwd ?? process.cwd(), env: buildChildEnv({ from: options.env, profile: 'desktop', platform }), earlyExitMs: OPENER_EARLY_EXIT_MS });
  switch (outcome.kind) {
    case 'running':
      return ok(undefined);
    case 'exited':
      return outcome.exitCode === 0 ? ok(undefined) : fail('BROWSER_FAILED', `${command} ${outcome.signal ? `was stopped by ${outcome.signal}` : `exited with code ${outcome.exitCode}`}`);
    case 'spawn-failed':
      return fail('BROWSER_FAILED', `${command} could not start: ${outcome.message}`);
    default:
      return assertNever(outcome);
  }
}
