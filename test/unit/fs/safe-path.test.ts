import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkRelativePath, ownFile, ownFolder, resolveInsideRoot, type UnsafePathCode } from '../../../src/engine/fs/safe-path.js';
import { tickOwnedPaths } from '../../../src/engine/fs/protected.js';
import { tempDir, writeFiles } from '../../helpers/temp.js';

/** Each name, and what the chokepoint must say about it: null = accepted. */
const NAMES: ReadonlyArray<readonly [string, UnsafePathCode | null]> = [
  // ordinary names, including ones that look a little like protected ones
  ['src/a.ts', null],
  ['README.md', null],
  ['./src//b.ts', null],
  ['.gitignore', null],
  ['.gitattributes', null],
  ['.github/workflows/ci.yml', null],
  ['docs/git/notes.md', null],
  ['my.relaycode.md', null],
  ['src/relay.config.ts', null],
  ['relay.config.json.bak/notes.md', null],
  ['relais/notes.md', null],
  ['backup~1.txt', null],
  ['console.log.txt', null],
  ['contributing/con-tents.md', null],
  ['src/\u00fcber.ts', null],
  ['a b/c d.txt', null],
  ['family \u{1F468}\u200d\u{1F469}.md', null],
  // syntax
  ['', 'PATH_EMPTY'],
  ['.', 'PATH_EMPTY'],
  ['/etc/passwd', 'PATH_ABSOLUTE'],
  ['C:/Windows/x', 'PATH_ABSOLUTE'],
  ['C:x', 'PATH_ABSOLUTE'],
  ['~/x', 'PATH_ABSOLUTE'],
  ['\\\\server\\share\\x', 'PATH_ABSOLUTE'],
  ['\\x', 'PATH_ABSOLUTE'],
  ['../x', 'PATH_ESCAPES_ROOT'],
  ['a/../../x', 'PATH_ESCAPES_ROOT'],
  ['a/.. /x', 'PATH_ESCAPES_ROOT'],
  ['a/.../x', 'PATH_ESCAPES_ROOT'],
  ['a/ /x', 'PATH_ESCAPES_ROOT'],
  ['src\\a.py', null], // a Windows separator: the same as src/a.py
  ['src\\..\\..\\x', 'PATH_ESCAPES_ROOT'],
  ['.git\\config', 'PATH_GIT_INTERNAL'],
  ['a\0b', 'PATH_INVALID_CHARACTER'],
  ['a\u0001b', 'PATH_INVALID_CHARACTER'],
  ['a\nb', 'PATH_INVALID_CHARACTER'],
  ['a:b', 'PATH_ABSOLUTE'], // drive-relative on Windows (drive a:)
  ['notes:b', 'PATH_INVALID_CHARACTER'],
  ['file.txt::$DATA', 'PATH_INVALID_CHARACTER'],
  ['.git::$INDEX_ALLOCATION/config', 'PATH_INVALID_CHARACTER'],
  ['%2e%2e/x', 'PATH_PERCENT_ENCODED'],
  ['a%2fb', 'PATH_PERCENT_ENCODED'],
  ['a%5Cb', 'PATH_PERCENT_ENCODED'],
  ['a%00b', 'PATH_PERCENT_ENCODED'],
  // .git in every alias git itself knows
  ['.git/config', 'PATH_GIT_INTERNAL'],
  ['.GIT/config', 'PATH_GIT_INTERNAL'],
  ['.Git/hooks/pre-commit', 'PATH_GIT_INTERNAL'],
  ['.git./config', 'PATH_GIT_INTERNAL'],
  ['.git /config', 'PATH_GIT_INTERNAL'],
  ['.git. . /config', 'PATH_GIT_INTERNAL'],
  ['GIT~1/config', 'PATH_GIT_INTERNAL'],
  ['git~1/hooks/x', 'PATH_GIT_INTERNAL'],
  ['.g\u200cit/config', 'PATH_GIT_INTERNAL'],
  ['.git\u200d/config', 'PATH_GIT_INTERNAL'],
  ['\ufeff.git/config', 'PATH_GIT_INTERNAL'],
  ['.gi\u202et/config', 'PATH_GIT_INTERNAL'],
  ['.g\u206ait/config', 'PATH_GIT_INTERNAL'],
  ['.g\u0131t/config', 'PATH_GIT_INTERNAL'],
  ['.\uff47it/config', 'PATH_GIT_INTERNAL'],
  ['vendor/lib/.git/config', 'PATH_GIT_INTERNAL'],
  ['.git', 'PATH_GIT_INTERNAL'],
  // Relay Desk's state, at any depth and in every alias
  ['.relaycode/x.yml', 'PATH_RESERVED'],
  ['.RELAYCODE/x.pending.yml', 'PATH_RESERVED'],
  ['.relaycode./x.yml', 'PATH_RESERVED'],
  ['.relaycode /x.yml', 'PATH_RESERVED'],
  ['RELAYC~1/x.yml', 'PATH_RESERVED'],
  ['.relay\u200ccode/x.yml', 'PATH_RESERVED'],
  ['packages/app/.relaycode/answers/x.json', 'PATH_RESERVED'],
  // files that define commands, at any depth and in every alias
  ['relay.config.json', 'PATH_COMMAND_FILE'],
  ['src/relay.config.json', 'PATH_COMMAND_FILE'],
  ['RELAY.CONFIG.JSON', 'PATH_COMMAND_FILE'],
  ['relay.config.json.', 'PATH_COMMAND_FILE'],
  ['relay.config\u200c.json', 'PATH_COMMAND_FILE'],
  ['relay.handoff.json', 'PATH_COMMAND_FILE'],
  ['deep/er/relay.handoff.json', 'PATH_COMMAND_FILE'],
  ['RELAYH~1.JSO', 'PATH_COMMAND_FILE'],
  ['relais.config.json', 'PATH_COMMAND_FILE'],
  ['tools/Relais.Config.Json', 'PATH_COMMAND_FILE'],
  ['RELAIS~1.JSO', 'PATH_COMMAND_FILE'],
  ['relay.config.json/x', 'PATH_COMMAND_FILE'],
  // Windows device names, with extensions and superscript digits
  ['CON', 'PATH_DEVICE_NAME'],
  ['con.txt', 'PATH_DEVICE_NAME'],
  ['src/aux.ts', 'PATH_DEVICE_NAME'],
  ['NUL', 'PATH_DEVICE_NAME'],
  ['nul.tar.gz', 'PATH_DEVICE_NAME'],
  ['PRN.md', 'PATH_DEVICE_NAME'],
  ['COM1', 'PATH_DEVICE_NAME'],
  ['lpt9.log', 'PATH_DEVICE_NAME'],
  ['COM\u00b9', 'PATH_DEVICE_NAME'],
  ['lpt\u00b3.txt', 'PATH_DEVICE_NAME'],
  ['CON .txt', 'PATH_DEVICE_NAME'],
  ['conin$', 'PATH_DEVICE_NAME'],
];

describe('checkRelativePath (names, no disk)', () => {
  it.each(NAMES)('%j → %s', (name, expected) => {
    const checked = checkRelativePath(name);
    if (expected === null) expect(checked).toMatchObject({ ok: true });
    else expect(checked.ok ? 'accepted' : checked.error.code).toBe(expected);
  });

  it('says why a command file is refused and that the user can edit it by hand', () => {
    const checked = checkRelativePath('src/relay.config.json');
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.error.message).toMatch(/commands.*Edit it by hand/s);
  });
});

describe('resolveInsideRoot (the disk: symlinks, tick folders)', () => {
  function project(): { root: string; outside: string } {
    const outside = tempDir('relay-outside-');
    const root = tempDir('relay-root-');
    writeFiles(root, { 'src/a.ts': 'a\n', '.relaycode/keep': '', 'relay.config.json': '{}\n' });
    mkdirSync(path.join(root, '.git'));
    return { root, outside };
  }

  const cases: ReadonlyArray<readonly [string, (root: string, outside: string) => void, string, UnsafePathCode | string]> = [
    ['g -> .git', (r) => symlinkSync('.git', path.join(r, 'g')), 'g/config', 'PATH_GIT_INTERNAL'],
    ['up -> .', (r) => symlinkSync('.', path.join(r, 'up')), 'up/relay.config.json', 'PATH_COMMAND_FILE'],
    ['r -> .relaycode', (r) => symlinkSync('.relaycode', path.join(r, 'r')), 'r/x.pending.yml', 'PATH_RESERVED'],
    ['out -> outside', (r, o) => symlinkSync(o, path.join(r, 'out')), 'out/x', 'PATH_SYMLINK_ESCAPE'],
    ['parent -> ..', (r) => symlinkSync('..', path.join(r, 'parent')), 'parent/x', 'PATH_SYMLINK_ESCAPE'],
    ['dangling/x', (r) => symlinkSync('nowhere', path.join(r, 'dangling')), 'dangling/x', 'PATH_SYMLINK'],
    ['dangling (last)', (r) => symlinkSync('nowhere', path.join(r, 'dangling')), 'dangling', 'PATH_SYMLINK'],
    ['link.txt -> src/a.ts (last)', (r) => symlinkSync('src/a.ts', path.join(r, 'link.txt')), 'link.txt', 'PATH_SYMLINK'],
    ['a -> b -> .git', (r) => (symlinkSync('b', path.join(r, 'a')), symlinkSync('.git', path.join(r, 'b'))), 'a/hooks/pre-commit', 'PATH_GIT_INTERNAL'],
    ['loop', (r) => (symlinkSync('l2', path.join(r, 'l1')), symlinkSync('l1', path.join(r, 'l2'))), 'l1/x', 'PATH_SYMLINK'],
    ['src/up -> .. (then a command file)', (r) => symlinkSync('..', path.join(r, 'src/up')), 'src/up/relay.config.json', 'PATH_COMMAND_FILE'],
    ['lib -> src (inside: allowed, resolved)', (r) => symlinkSync('src', path.join(r, 'lib')), 'lib/b.ts', 'src/b.ts'],
    ['up -> . (ordinary file: allowed, resolved)', (r) => symlinkSync('.', path.join(r, 'up')), 'up/src/a.ts', 'src/a.ts'],
  ];

  it.each(cases)('%s', (_, setup, input, expected) => {
    const { root, outside } = project();
    setup(root, outside);
    const resolved = resolveInsideRoot(root, input);
    if (expected.startsWith('PATH_')) expect(resolved.ok ? `accepted as ${resolved.value.relative}` : resolved.error.code).toBe(expected);
    else expect(resolved.ok && resolved.value.relative).toBe(expected);
  });

  it('protects the tick runner folder only where relais.config.json makes it the runner’s', () => {
    const { root } = project();
    expect(resolveInsideRoot(root, 'relais/prompts/builder.system.txt').ok).toBe(true);
    writeFileSync(path.join(root, 'relais.config.json'), JSON.stringify({ workspace_dir: 'relais', history: { dir: 'var/tick-history' } }));
    expect(tickOwnedPaths(root)).toEqual(expect.arrayContaining(['relais', 'var/tick-history']));
    const refused = resolveInsideRoot(root, 'relais/prompts/builder.system.txt');
    expect(refused.ok ? 'accepted' : refused.error.code).toBe('PATH_RESERVED');
    const history = resolveInsideRoot(root, 'var/tick-history/x/report.json');
    expect(history.ok ? 'accepted' : history.error.code).toBe('PATH_RESERVED');
    const aliased = resolveInsideRoot(root, 'RELAIS./x');
    expect(aliased.ok ? 'accepted' : aliased.error.code).toBe('PATH_RESERVED');
  });

  it('cleanup removes a link itself and may name protected files; read follows links inside only', () => {
    const { root, outside } = project();
    symlinkSync('src/a.ts', path.join(root, 'link.txt'));
    symlinkSync(outside, path.join(root, 'out'));
    expect(resolveInsideRoot(root, 'link.txt', { purpose: 'cleanup' })).toMatchObject({ ok: true, value: { relative: 'link.txt' } });
    expect(resolveInsideRoot(root, 'src/relay.config.json', { purpose: 'cleanup' }).ok).toBe(true);
    expect(resolveInsideRoot(root, 'link.txt', { purpose: 'read' })).toMatchObject({ ok: true, value: { relative: 'src/a.ts' } });
    const escaped = resolveInsideRoot(root, 'out', { purpose: 'read' });
    expect(escaped.ok ? 'accepted' : escaped.error.code).toBe('PATH_SYMLINK_ESCAPE');
    const cleanupOut = resolveInsideRoot(root, 'out/x', { purpose: 'cleanup' });
    expect(cleanupOut.ok ? 'accepted' : cleanupOut.error.code).toBe('PATH_SYMLINK_ESCAPE');
  });
});

describe('ownFolder / ownFile (Relay Desk’s own state folders)', () => {
  it('accepts a real folder (or a missing one) and creates it on request', () => {
    const root = tempDir();
    expect(ownFolder(root, '.relaycode').ok).toBe(true);
    const made = ownFile(root, '.relaycode/handoffs', 'brief-1-a.md', { create: true });
    expect(made).toMatchObject({ ok: true, value: path.join(root, '.relaycode/handoffs/brief-1-a.md') });
  });

  it.each([
    ['.relaycode is a link to outside', (root: string, outside: string) => symlinkSync(outside, path.join(root, '.relaycode'))],
    ['.relaycode is a link inside the project', (root: string) => (mkdirSync(path.join(root, 'elsewhere')), symlinkSync('elsewhere', path.join(root, '.relaycode')))],
    ['.relaycode is a file', (root: string) => writeFileSync(path.join(root, '.relaycode'), 'x')],
    ['.relaycode/handoffs is a link', (root: string, outside: string) => (mkdirSync(path.join(root, '.relaycode')), symlinkSync(outside, path.join(root, '.relaycode/handoffs')))],
  ])('refuses when %s (STATE_FOLDER_UNSAFE)', (_, setup) => {
    const root = tempDir();
    const outside = tempDir('relay-outside-');
    setup(root, outside);
    const file = ownFile(root, '.relaycode/handoffs', 'brief-1-a.md', { create: true });
    expect(file.ok ? 'accepted' : file.error.code).toBe('STATE_FOLDER_UNSAFE');
  });

  it('refuses a record file that is itself a link', () => {
    const root = tempDir();
    mkdirSync(path.join(root, '.relaycode'));
    symlinkSync('/etc/hostname', path.join(root, '.relaycode/x.yml'));
    const file = ownFile(root, '.relaycode', 'x.yml');
    expect(file.ok ? 'accepted' : file.error.code).toBe('STATE_FOLDER_UNSAFE');
  });
});
