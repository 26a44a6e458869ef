// Which of the user's GIT_* variables reach git through engine/git: the identity and the
// location of the user's own config do; variables that run programs or point git at another
// repository do not (simple-git's guard, kept on purpose).
import { chmodSync, existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { git, GIT_ENV_PASSTHROUGH } from '../../../src/engine/git/core.js';
import { gitIn, gitRepo, tempDir } from '../../helpers/temp.js';

const saved = { ...process.env };
afterEach(() => {
  for (const name of Object.keys(process.env)) if (!(name in saved)) delete process.env[name];
  Object.assign(process.env, saved);
});

describe('git()', () => {
  it('passes the author, committer and config-location variables through', async () => {
    const root = gitRepo({ 'a.txt': 'one\n' });
    const config = path.join(tempDir('relay-gitconfig-'), 'gitconfig');
    writeFileSync(config, '[alias]\n\tfrom-global-config = status\n');
    Object.assign(process.env, {
      GIT_AUTHOR_NAME: 'Ada Author',
      GIT_AUTHOR_EMAIL: 'ada@example.invalid',
      GIT_COMMITTER_NAME: 'Cy Committer',
      GIT_COMMITTER_EMAIL: 'cy@example.invalid',
      GIT_AUTHOR_DATE: '2001-02-03T04:05:06Z',
      GIT_CONFIG_GLOBAL: config,
    });
    writeFileSync(path.join(root, 'a.txt'), 'two\n');
    await git(root, ['commit', '-qam', 'change']);
    expect(gitIn(root, 'log', '-1', '--format=%an <%ae>|%cn <%ce>|%aI').trim()).toBe('Ada Author <ada@example.invalid>|Cy Committer <cy@example.invalid>|2001-02-03T04:05:06+00:00');
    // The global config named by GIT_CONFIG_GLOBAL is the one git read.
    expect((await git(root, ['config', '--global', '--get', 'alias.from-global-config'])).stdout.trim()).toBe('status');
    expect(GIT_ENV_PASSTHROUGH).toContain('GIT_CONFIG_NOSYSTEM');
  });

  it('strips variables that would run a program or point git at another repository or config', async () => {
    const root = gitRepo({ 'a.txt': 'one\n' });
    const other = gitRepo({ 'b.txt': 'other\n' });
    const marker = path.join(tempDir('relay-marker-'), 'ran');
    const script = path.join(tempDir('relay-script-'), 'external-diff.sh');
    writeFileSync(script, `#!/bin/sh\necho ran > '${marker}'\n`);
    chmodSync(script, 0o755);
    writeFileSync(path.join(root, 'a.txt'), 'two\n');
    Object.assign(process.env, {
      GIT_EXTERNAL_DIFF: script,
      GIT_PAGER: script,
      GIT_DIR: path.join(other, '.git'),
      GIT_WORK_TREE: other,
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'diff.external',
      GIT_CONFIG_VALUE_0: script,
    });
    const diff = await git(root, ['diff', '--ext-diff']);
    expect(diff.stdout).toContain('+two'); // git's own diff of this repository, not the other one's
    expect(existsSync(marker)).toBe(false);
    expect((await git(root, ['config', '--get', 'diff.external'], { okExitCodes: [1] })).exitCode).toBe(1);
  });
});
