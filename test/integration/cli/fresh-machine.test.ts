// What a newcomer's machine has: an empty HOME, no global git identity, no XDG variables.
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { relay } from '../../helpers/cli.js';
import { answer } from '../../helpers/patches.js';
import { gitIn, gitRepo, tempDir } from '../../helpers/temp.js';

describe('on a machine with no global git config', () => {
  it('relay git commit commits with the identity of GIT_AUTHOR_* and GIT_COMMITTER_*, as plain git would', async () => {
    const root = gitRepo({ 'a.txt': 'one\n' });
    const home = tempDir('relay-home-');
    const emptyGlobal = path.join(home, 'empty-gitconfig');
    writeFileSync(emptyGlobal, '');
    // Nothing but these variables says who commits: no ~/.gitconfig, no XDG config, no system config.
    const env = {
      HOME: home,
      XDG_CONFIG_HOME: path.join(home, '.config'),
      GIT_CONFIG_GLOBAL: emptyGlobal,
      GIT_CONFIG_NOSYSTEM: '1',
      GIT_AUTHOR_NAME: 'Nadia Newcomer',
      GIT_AUTHOR_EMAIL: 'nadia@example.invalid',
      GIT_COMMITTER_NAME: 'Nadia Newcomer',
      GIT_COMMITTER_EMAIL: 'nadia@example.invalid',
    };
    expect((await relay(['init', '--project-id', 'demo'], { cwd: root, env })).exitCode).toBe(0);
    expect((await relay(['apply', '-', '--yes'], { cwd: root, env, input: answer([{ path: 'a.txt', body: 'two' }], { gitCommitMsg: 'feat: two' }) })).exitCode).toBe(0);
    const commit = await relay(['git', 'commit', '--yes'], { cwd: root, env });
    expect(commit.stderr).toBe('');
    expect(commit.exitCode).toBe(0);
    expect(gitIn(root, 'log', '-1', '--format=%an <%ae>|%cn <%ce>|%s').trim()).toBe('Nadia Newcomer <nadia@example.invalid>|Nadia Newcomer <nadia@example.invalid>|feat: two');
  });
});
