// Issue 14 item 5 through the real CLI: answers that are not text are refused at the intake,
// before anything is parsed or planned, and nothing is written.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { relay } from '../../helpers/cli.js';
import { gitRepo, readTree, tempDir } from '../../helpers/temp.js';

const CONTROL = '```yaml\nprojectId: demo\nuuid: 0c9d8e7f-6a5b-4c3d-8e2f-1a0b9c8d7e6f\n```\n';
const answer = (content: Buffer): Buffer => Buffer.concat([Buffer.from('```ts // src/a.ts\n'), content, Buffer.from(`\n\`\`\`\n${CONTROL}`)]);

async function applyBytes(bytes: Buffer, config: Record<string, unknown> = {}): Promise<{ code: string | null; status: string; exitCode: number; changed: boolean }> {
  const root = gitRepo({ 'src/a.ts': 'export const a = 1;\n' });
  await relay(['init', '--project-id', 'demo'], { cwd: root });
  const configFile = path.join(root, 'relay.config.json');
  const current = JSON.parse(readFileSync(configFile, 'utf8'));
  writeFileSync(configFile, JSON.stringify({ ...current, patch: { ...current.patch, ...config } }));
  const before = readTree(root);
  const file = path.join(tempDir('relay-answer-'), 'answer.md');
  writeFileSync(file, bytes);
  const run = await relay(['apply', file, '--yes', '--json'], { cwd: root });
  const result = JSON.parse(run.stdout) as { status: string; error: { code: string } | null };
  return { code: result.error?.code ?? null, status: result.status, exitCode: run.exitCode, changed: JSON.stringify([...readTree(root)]) !== JSON.stringify([...before]) };
}

describe('relay apply refuses answers that are not text', () => {
  it('applies the clean answer (the control for the cases below)', async () => {
    expect(await applyBytes(answer(Buffer.from('export const a = 2; // café')))).toMatchObject({ status: 'applied', changed: true });
  });

  it.each([
    ['invalid UTF-8 inside a block', 'ANSWER_NOT_UTF8', Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x3b])],
    ['a NUL byte inside a block', 'ANSWER_HAS_NUL', Buffer.from('export const a = 2;\0')],
    ['a 70 KB line (over the 64 KB default)', 'ANSWER_LINE_TOO_LONG', Buffer.from(`export const a = "${'x'.repeat(70_000)}";`)],
  ])('%s → %s, nothing written', async (_name, code, content) => {
    expect(await applyBytes(answer(content))).toEqual({ code, status: 'rejected', exitCode: 1, changed: false });
  });

  it('refuses a UTF-16 file', async () => {
    const utf16 = Buffer.from(`\uFEFF${answer(Buffer.from('export const a = 2;')).toString('utf8')}`, 'utf16le');
    expect(await applyBytes(utf16)).toMatchObject({ code: 'ANSWER_NOT_UTF8', changed: false });
  });

  it('takes its line limit from patch.maxLineBytes', async () => {
    const line = Buffer.from(`export const a = "${'x'.repeat(3000)}";`);
    expect(await applyBytes(answer(line), { maxLineBytes: 2048 })).toMatchObject({ code: 'ANSWER_LINE_TOO_LONG', changed: false });
    expect(await applyBytes(answer(line), { maxLineBytes: 4096 })).toMatchObject({ status: 'applied', changed: true });
  });
});
