// The runtime's ApplyPatch without a project: one reading of the answer, routed among the
// registered projects; answers that fit several wait as choices (bounded, dropped at shutdown).
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '../../../src/engine/runtime/index.js';
import { MAX_CHOICES } from '../../../src/engine/runtime/choices.js';
import { searchReplace } from '../../helpers/patches.js';
import { relayProject } from '../../helpers/project.js';
import { counterIds, record } from '../../helpers/runtime.js';

const FILE = 'export const a = 1;\nexport const b = 2;\nexport const c = 3;\n';
const edit = (to: string) => `src/a.ts\n\`\`\`ts\n${searchReplace('export const b = 2;', `export const b = ${to};`)}\n\`\`\`\n`;

function twoTwins() {
  const runtime = createRuntime({ newId: counterIds('id') });
  const one = relayProject({ projectId: 'one', files: { 'src/a.ts': FILE } });
  const two = relayProject({ projectId: 'two', files: { 'src/a.ts': FILE } });
  runtime.send({ type: 'RegisterProject', projectId: 'one', root: one, name: 'One', policy: { mode: 'auto' } });
  runtime.send({ type: 'RegisterProject', projectId: 'two', root: two, name: 'Two', policy: { mode: 'auto' } });
  return { runtime, one, two };
}

describe('runtime routing', () => {
  it('routes only among `among` when given', async () => {
    const { runtime, one, two } = twoTwins();
    const reply = runtime.send({ type: 'ApplyPatch', text: edit('5'), source: 'clipboard', among: ['two'] });
    expect(reply).toMatchObject({ ok: true, value: { projectId: 'two' } });
    if (!reply.ok) throw new Error('unreachable');
    await runtime.waitForTask(reply.value.taskId);
    expect(readFileSync(path.join(two, 'src/a.ts'), 'utf8')).toContain('b = 5');
    expect(readFileSync(path.join(one, 'src/a.ts'), 'utf8')).toBe(FILE);
    await runtime.shutdown();
  });

  it('holds at most MAX_CHOICES choices (the oldest is dropped, said by an event), declines one, and drops the rest at shutdown', async () => {
    const { runtime } = twoTwins();
    const seen = record(runtime);
    for (let i = 0; i <= MAX_CHOICES; i += 1) {
      expect(runtime.send({ type: 'ApplyPatch', text: edit(String(100 + i)), source: 'clipboard' })).toMatchObject({ ok: false, error: { code: 'PROJECT_CHOICE_NEEDED' } });
    }
    const choices = runtime.state().choices;
    expect(choices).toHaveLength(MAX_CHOICES);
    const resolved = () => seen.map((e) => e.event).filter((e) => e.type === 'patch.choice-resolved');
    expect(resolved()).toEqual([expect.objectContaining({ by: 'expired', projectId: null, taskId: null })]);
    expect(runtime.send({ type: 'ChooseProject', choiceId: choices[0]!.choiceId, projectId: null })).toMatchObject({ ok: true, value: { taskId: null } });
    expect(runtime.send({ type: 'ChooseProject', choiceId: choices[0]!.choiceId, projectId: 'one' })).toMatchObject({ ok: false, error: { code: 'CHOICE_NOT_FOUND' } });
    await runtime.shutdown();
    expect(resolved().filter((e) => e.type === 'patch.choice-resolved' && e.by === 'shutdown')).toHaveLength(MAX_CHOICES - 1);
    expect(runtime.state().choices).toEqual([]);
  });

  it('takes an answer for a named project with that project\'s limits: stricter ones refuse it in the task, with a reply', async () => {
    const runtime = createRuntime({ newId: counterIds('id') });
    const root = relayProject({ projectId: 'tight', files: { 'src/a.ts': FILE }, patch: { maxLineBytes: 1024 } });
    runtime.send({ type: 'RegisterProject', projectId: 'tight', root, name: 'Tight', policy: { mode: 'auto' } });
    const long = `${edit('7')}\n${'x'.repeat(2000)}\n`;
    const reply = runtime.send({ type: 'ApplyPatch', text: long, source: 'clipboard' });
    if (!reply.ok) throw new Error(reply.error.message);
    expect(await runtime.waitForTask(reply.value.taskId)).toMatchObject({ status: 'completed', result: { patch: { status: 'rejected', error: { code: 'ANSWER_LINE_TOO_LONG', reply: expect.any(String) } } } });
    expect(readFileSync(path.join(root, 'src/a.ts'), 'utf8')).toBe(FILE);
    await runtime.shutdown();
  });
});
