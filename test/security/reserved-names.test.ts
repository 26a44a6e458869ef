// Items 3 and the syntax rules: an answer naming .git, .relaycode or a command file in any
// spelling some file system we ship to treats as that name (case, trailing dots and spaces, 8.3
// short names, NTFS streams, HFS+ ignorable Unicode), a Windows device name, `..`, an absolute
// path, control characters, backslashes or percent-encoding is refused by the real CLI with the
// chokepoint's code, and nothing changes in the project or around it.
import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { relay } from '../helpers/cli.js';
import { jailedProject, treeState } from '../helpers/jail.js';
import { answer } from '../helpers/patches.js';
import { tempDir } from '../helpers/temp.js';

const REFUSED: ReadonlyArray<readonly [string, string]> = [
  ['.git/config', 'PATH_GIT_INTERNAL'],
  ['.GIT/config', 'PATH_GIT_INTERNAL'],
  ['.git./config', 'PATH_GIT_INTERNAL'],
  ['.git /config', 'PATH_GIT_INTERNAL'],
  ['GIT~1/config', 'PATH_GIT_INTERNAL'],
  ['.g\u200cit/config', 'PATH_GIT_INTERNAL'],
  ['\ufeff.git/hooks/pre-commit', 'PATH_GIT_INTERNAL'],
  ['.git::$INDEX_ALLOCATION/config', 'PATH_INVALID_CHARACTER'],
  ['.RELAYCODE/evil.pending.yml', 'PATH_RESERVED'],
  ['.relaycode./evil.pending.yml', 'PATH_RESERVED'],
  ['RELAYC~1/evil.pending.yml', 'PATH_RESERVED'],
  ['.relay\u200dcode/evil.pending.yml', 'PATH_RESERVED'],
  ['Relay.Config.Json', 'PATH_COMMAND_FILE'],
  ['relay.config.json::$DATA', 'PATH_INVALID_CHARACTER'],
  ['CON', 'PATH_DEVICE_NAME'],
  ['src/nul.ts', 'PATH_DEVICE_NAME'],
  ['COM1.txt', 'PATH_DEVICE_NAME'],
  ['LPT\u00b9', 'PATH_DEVICE_NAME'],
  ['../victim.txt', 'PATH_ESCAPES_ROOT'],
  ['src/../../victim.txt', 'PATH_ESCAPES_ROOT'],
  ['src/.. /victim.txt', 'PATH_ESCAPES_ROOT'],
  ['%2e%2e/victim.txt', 'PATH_PERCENT_ENCODED'],
  ['src%2f..%2f..%2fvictim.txt', 'PATH_PERCENT_ENCODED'],
  ['src\\..\\..\\victim.txt', 'PATH_ESCAPES_ROOT'],
  ['.git\\hooks\\pre-commit', 'PATH_GIT_INTERNAL'],
  ['src/a\u0007.ts', 'PATH_INVALID_CHARACTER'],
];

async function applyFile(root: string, file: string, body = 'planted'): Promise<{ status: string; error: { code: string; message: string } | null }> {
  const answerFile = path.join(tempDir(), 'answer.md');
  writeFileSync(answerFile, answer([{ path: `"${file}"`, body }]));
  const run = await relay(['apply', answerFile, '--yes', '--json'], { cwd: root });
  return JSON.parse(run.stdout) as { status: string; error: { code: string; message: string } | null };
}

describe('answers naming a reserved or unportable path', () => {
  it.each(REFUSED)('%j is refused (%s)', async (file, code) => {
    const jail = jailedProject();
    const before = treeState(jail.root, '.relaycode');
    const result = await applyFile(jail.root, file);
    expect(result).toMatchObject({ status: 'rejected', error: { code: 'UNSAFE_PATH' } });
    expect(result.error?.message).toContain(code);
    expect(treeState(jail.root, '.relaycode')).toEqual(before);
    expect(readdirSync(path.join(jail.root, '.relaycode')).filter((n) => n.endsWith('.yml'))).toEqual([]);
    jail.expectOutsideUntouched();
  });

  it('an absolute path into the parent folder is refused (PATH_ABSOLUTE)', async () => {
    const jail = jailedProject();
    const result = await applyFile(jail.root, path.join(jail.parent, 'victim.txt'));
    expect(result).toMatchObject({ status: 'rejected', error: { code: 'UNSAFE_PATH' } });
    expect(result.error?.message).toContain('PATH_ABSOLUTE');
    jail.expectOutsideUntouched();
  });

  it('one bad path refuses the whole answer, even after good ones', async () => {
    const jail = jailedProject();
    const answerFile = path.join(tempDir(), 'answer.md');
    writeFileSync(answerFile, answer([{ path: 'src/fine.ts', body: 'ok' }, { path: '".GIT/hooks/pre-commit"', body: '#!/bin/sh\ntouch pwned' }]));
    const run = await relay(['apply', answerFile, '--yes', '--json'], { cwd: jail.root });
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'rejected', error: { code: 'UNSAFE_PATH' } });
    expect(readdirSync(path.join(jail.root, 'src'))).toEqual(['a.ts']);
    jail.expectOutsideUntouched();
  });

  it('an answer whose uuid is a Windows device name is recorded under another name', async () => {
    const jail = jailedProject();
    const answerFile = path.join(tempDir(), 'answer.md');
    writeFileSync(answerFile, answer([{ path: 'src/b.ts', body: 'b' }], { uuid: 'CON' }));
    const run = await relay(['apply', answerFile, '--yes', '--json'], { cwd: jail.root });
    expect(JSON.parse(run.stdout)).toMatchObject({ status: 'applied', uuid: 'tx-con' });
    expect(readdirSync(path.join(jail.root, '.relaycode')).filter((n) => n.endsWith('.yml'))).toEqual(['tx-con.yml']);
  });

  it('ordinary names that merely look similar still apply', async () => {
    const jail = jailedProject();
    for (const file of ['.gitignore', '.github/workflows/ci.yml', 'docs/git/notes.md', 'my.relaycode.md', 'src/relay.config.ts', 'console.log.txt']) {
      const result = await applyFile(jail.root, file, `content of ${file}`);
      expect(result.status, `${file}: ${JSON.stringify(result.error)}`).toBe('applied');
    }
    jail.expectOutsideUntouched();
  });
});
