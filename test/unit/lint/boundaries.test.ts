// The layer boundaries are enforced by lint (eslint.config.js), not by habit: each import a layer
// must not make is linted here as a file in that layer, and must be refused by no-restricted-imports.
import path from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../helpers/cli.js';

const eslint = new ESLint({ cwd: REPO_ROOT });

/** The no-restricted-imports messages ESLint gives `code` as if it were the file at `file`. */
async function refusals(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: path.join(REPO_ROOT, file) });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

const use = (specifier: string, name = 'x') => `import { ${name} } from '${specifier}';\nexport const used = ${name};\n`;

describe('lint boundaries', () => {
  it.each([
    ['src/renderer/views/New.tsx', '../../engine/relay/index.js'],
    ['src/renderer/lib/new.ts', '../../host/index.js'],
    ['src/renderer/lib/new.ts', '../../cli/io.js'],
    ['src/renderer/lib/new.ts', '../../main/tray.js'],
    ['src/renderer/lib/new.ts', 'node:fs'],
    ['src/renderer/lib/new.ts', 'path'],
    ['src/renderer/lib/new.ts', 'electron'],
  ])('the renderer (%s) cannot import %s', async (file, specifier) => {
    expect(await refusals(file, use(specifier))).toHaveLength(1);
  });

  it.each([
    ['src/engine/patch/new.ts', '../../host/index.js'],
    ['src/engine/new.ts', '../cli/io.js'],
    ['src/engine/relay/backends/new.ts', '../../../main/tray.js'],
    ['src/engine/git/new.ts', '../../host/index.js'],
    ['src/engine/runtime/new.ts', '../../shared/wire.js'],
    ['src/engine/runtime/new.ts', '../../shared/channels.js'],
    ['src/engine/runtime/new.ts', '../../shared/transport-errors.js'],
  ])('the engine (%s) cannot import %s', async (file, specifier) => {
    expect(await refusals(file, use(specifier))).toHaveLength(1);
  });

  it("the engine takes the contract's data types, not its transport types", async () => {
    expect(await refusals('src/engine/runtime/new.ts', "import type { TaskInfo } from '../../shared/contract.js';\nexport type T = TaskInfo;\n")).toEqual([]);
    expect(await refusals('src/engine/runtime/new.ts', "import type { IpcReply } from '../../shared/contract.js';\nexport type T = IpcReply<1>;\n")).toHaveLength(1);
    expect(await refusals('src/engine/runtime/new.ts', use('../../shared/contract.js', 'TRANSPORT_ERRORS'))).toHaveLength(1);
  });

  it('the store reads files of truth through engine/records, not the domain engines', async () => {
    for (const engine of ['patch', 'tick', 'relay', 'handoff']) expect(await refusals('src/engine/store/new.ts', use(`../${engine}/index.js`)), engine).toHaveLength(1);
    expect(await refusals('src/engine/store/new.ts', use('../records/index.js'))).toEqual([]);
  });

  it('shared imports no layer; main takes electron through its ports; the engine never imports electron', async () => {
    expect(await refusals('src/shared/new.ts', use('../engine/result.js'))).toHaveLength(1);
    expect(await refusals('src/main/new.ts', use('electron', 'app'))).toHaveLength(1);
    expect(await refusals('src/main/new.ts', "import type { App } from 'electron';\nexport type A = App;\n")).toEqual([]);
    expect(await refusals('src/engine/new.ts', use('electron', 'app'))).toHaveLength(1);
  });

  it('allows what the layers do today: the renderer and the engine both use src/shared facts', async () => {
    expect(await refusals('src/renderer/lib/new.ts', use('../../shared/facts.js', 'BACKEND_NAMES'))).toEqual([]);
    expect(await refusals('src/engine/relay/new.ts', use('../../shared/facts.js', 'BACKEND_NAMES'))).toEqual([]);
  });
});
