import { git } from './core.js';

/** True when `ref` names a commit git can resolve in `cwd` (`git rev-parse --verify --quiet`). */
export async function refExists(cwd: string, ref: string): Promise<boolean> {
  try {
    const { exitCode } = await git(cwd, ['rev-parse', '--verify', '--quiet', ref], { okExitCodes: [1, 128] });
    return exitCode === 0;
  } catch {
    // Not a repository, or git itself is missing: the ref does not exist for us.
    return false;
  }
}
