// previewHandoff: the brief the window shows before saving, from a real project's files of
// truth, validated in both modes, with nothing written; a brief with a secret is withheld.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/engine/store/index.js';
import { realEngines } from '../../../src/host/engines.js';
import { createHost, type Host } from '../../../src/host/index.js';
import { FAKE_SECRETS, recordPatch } from '../../helpers/handoff.js';
import { relayProject } from '../../helpers/project.js';
import { tempDir } from '../../helpers/temp.js';

async function hostWith(projectId: string): Promise<{ host: Host; root: string; close: () => Promise<void> }> {
  const root = relayProject({ projectId, files: { 'a.txt': 'x\n' } });
  const store = openStore({ file: path.join(tempDir(), 'relay-desk.db') });
  const host = createHost({ store, engines: realEngines({ env: {} }) });
  const registered = await host.call('registerProject', { root });
  if (!registered.ok) throw new Error(registered.error.message);
  return {
    host,
    root,
    close: async () => {
      await host.close();
      store.close();
    },
  };
}

describe('previewHandoff', () => {
  it('returns the brief with its sections, token counts and both validations, and writes nothing', async () => {
    const { host, root, close } = await hostWith('demo');
    await recordPatch(root, { file: 'src/s.ts', body: 'export const s = 1;', message: 'feat: add s' });
    const reply = await host.call('previewHandoff', { projectId: 'demo', target: 'claude' });
    if (!reply.ok) throw new Error(`${reply.error.code}: ${reply.error.message}`);
    const preview = reply.value;
    expect(preview).toMatchObject({ projectId: 'demo', target: 'claude', softCap: 4000, hardCap: 8000, workingMemory: { status: 'missing', reason: 'not-provided', source: 'none' } });
    expect(preview.briefId).toMatch(/^brief-\d+-[a-z0-9]+$/);
    expect(preview.markdown).toContain('feat: add s');
    expect(preview.markdown).toContain('[gap-fill not provided]');
    expect(preview.sections.map((s) => s.id)).toEqual(['status', 'mission', 'trail', 'decisions', 'files', 'workingMemory']);
    expect(preview.tokens).toBeGreaterThan(0);
    expect(preview.strict).toMatchObject({ mode: 'strict', ok: true, errors: [] });
    expect(preview.permissive).toMatchObject({ mode: 'permissive', ok: true, errors: [] });
    expect(existsSync(path.join(root, '.relaycode', 'handoffs'))).toBe(false);
    await close();
  });

  it('withholds a brief that holds a secret and names the pattern in both validations, never the match', async () => {
    const { host, root, close } = await hostWith('leaky');
    await recordPatch(root, { projectId: 'leaky', file: 'src/s.ts', body: 'export const s = 1;', message: 'chore: creds', prose: `Tested with ${FAKE_SECRETS['aws-access-key-id']} locally.` });
    const reply = await host.call('previewHandoff', { projectId: 'leaky' });
    if (!reply.ok) throw new Error(reply.error.message);
    expect(reply.value.markdown).toBeNull();
    for (const report of [reply.value.strict, reply.value.permissive]) {
      expect(report.ok).toBe(false);
      expect(report.errors).toContainEqual(expect.objectContaining({ code: 'SECRET_DETECTED', pattern: 'aws-access-key-id' }));
    }
    expect(JSON.stringify(reply.value)).not.toContain(FAKE_SECRETS['aws-access-key-id']);
    await close();
  });

  it('refuses an unknown project with its code', async () => {
    const { host, close } = await hostWith('known');
    expect(await host.call('previewHandoff', { projectId: 'nope' })).toMatchObject({ ok: false, error: { code: 'UNKNOWN_PROJECT' } });
    await close();
  });
});
