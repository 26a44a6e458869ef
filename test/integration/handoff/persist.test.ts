import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadHandoffConfig } from '../../../src/engine/handoff/config.js';
import {
  briefPaths,
  checkBriefId,
  HANDOFFS_DIR,
  readGapFill,
  readLatestGapFill,
  resolveBriefRef,
  writeBriefArtifact,
  writeGapFill,
} from '../../../src/engine/handoff/persist.js';
import { listBriefIds, readBriefMarkdown } from '../../../src/engine/records/index.js';
import { gapRecord } from '../../helpers/handoff.js';
import { tempDir, writeFiles } from '../../helpers/temp.js';

const NOW = new Date('2026-05-10T10:30:00.000Z');
const MD = '# Handoff brief: demo\n\n**Schema version:** 1\n';

function project(): string {
  const root = tempDir('relay-handoff-');
  writeFiles(root, { 'relay.config.json': JSON.stringify({ projectId: 'demo' }) });
  return root;
}

function writeRawGap(root: string, id: string, data: unknown): void {
  writeFiles(root, { [`${HANDOFFS_DIR}/${id}.gap.json`]: JSON.stringify(data) });
}

describe('handoff artifacts', () => {
  describe('brief ids', () => {
    const hostile = ['../../etc/passwd', 'brief-1-a/../../x', 'brief-1-a/', '/abs/brief-1-a', 'brief-1-A', 'brief-1-a.md', 'brief-1-a\0', 'brief--a', 'brief-1-', '..', '', `brief-1-${'a'.repeat(100)}`];

    it('accepts only the strict pattern', () => {
      expect(checkBriefId('brief-1778409000000-k3x9qz').ok).toBe(true);
      for (const id of hostile) expect(checkBriefId(id).ok, JSON.stringify(id)).toBe(false);
    });

    it('refuses traversal before anything is written', () => {
      const root = project();
      for (const id of hostile) {
        expect(writeBriefArtifact(root, { briefId: id, markdown: MD, gap: null }).ok).toBe(false);
        expect(writeGapFill(root, gapRecord({ briefId: id })).ok).toBe(false);
        expect(readGapFill(root, id)).toEqual({ ok: false, reason: 'missing' });
      }
      expect(existsSync(path.join(root, HANDOFFS_DIR))).toBe(false);
      expect(existsSync(path.join(root, '..', 'etc'))).toBe(false);
    });

    it('refuses a handoffs folder that is a symlink leading out of the project', () => {
      const root = project();
      const outside = tempDir('relay-outside-');
      mkdirSync(path.join(root, '.relaycode'), { recursive: true });
      symlinkSync(outside, path.join(root, HANDOFFS_DIR));
      const r = writeBriefArtifact(root, { briefId: 'brief-1-a', markdown: MD, gap: null });
      expect(r).toMatchObject({ ok: false, error: { code: 'BRIEF_PATH_UNSAFE' } });
      expect(briefPaths(root, 'brief-1-a').ok).toBe(false);
    });
  });

  describe('writeBriefArtifact()', () => {
    it('writes the markdown and the gap.json with schemaVersion 1, and never overwrites a brief', () => {
      const root = project();
      const gap = gapRecord({ briefId: 'brief-2-b' });
      expect(writeBriefArtifact(root, { briefId: 'brief-2-b', markdown: MD, gap })).toEqual({ ok: true, value: { path: `${HANDOFFS_DIR}/brief-2-b.md`, gapPath: `${HANDOFFS_DIR}/brief-2-b.gap.json` } });
      expect(readFileSync(path.join(root, HANDOFFS_DIR, 'brief-2-b.md'), 'utf8')).toBe(MD);
      expect(JSON.parse(readFileSync(path.join(root, HANDOFFS_DIR, 'brief-2-b.gap.json'), 'utf8'))).toEqual(gap);
      expect(writeBriefArtifact(root, { briefId: 'brief-2-b', markdown: 'other', gap: null })).toMatchObject({ ok: false, error: { code: 'BRIEF_EXISTS' } });
      expect(readFileSync(path.join(root, HANDOFFS_DIR, 'brief-2-b.md'), 'utf8')).toBe(MD);
    });

    it('refuses an invalid gap-fill record', () => {
      const root = project();
      const bad = { ...gapRecord({ briefId: 'brief-3-c' }), schemaVersion: 2 } as unknown as ReturnType<typeof gapRecord>;
      expect(writeGapFill(root, bad)).toMatchObject({ ok: false, error: { code: 'GAP_FILL_INVALID' } });
      expect(existsSync(path.join(root, HANDOFFS_DIR, 'brief-3-c.gap.json'))).toBe(false);
    });
  });

  describe('reading gap-fills', () => {
    it('fails closed on schemaVersion 2: readGapFill says wrong-version, readLatestGapFill returns null', () => {
      const root = project();
      writeRawGap(root, 'brief-1778407000000-vv', { ...gapRecord({ briefId: 'brief-1778407000000-vv' }), schemaVersion: 2 });
      expect(readGapFill(root, 'brief-1778407000000-vv')).toEqual({ ok: false, reason: 'wrong-version' });
      expect(readLatestGapFill(root, { now: NOW })).toBeNull();
    });

    it('ignores damaged files and records whose id does not match their name', () => {
      const root = project();
      writeFiles(root, { [`${HANDOFFS_DIR}/brief-5-a.gap.json`]: '{ not json' });
      writeRawGap(root, 'brief-6-a', gapRecord({ briefId: 'brief-7-a' }));
      expect(readGapFill(root, 'brief-5-a')).toEqual({ ok: false, reason: 'invalid' });
      expect(readGapFill(root, 'brief-6-a')).toEqual({ ok: false, reason: 'invalid' });
      expect(readLatestGapFill(root, { now: NOW })).toBeNull();
    });

    it('returns the newest fresh gap-fill written by an agent, ignoring stale ones and those a brief wrote', () => {
      const root = project();
      writeGapFill(root, gapRecord({ briefId: 'brief-1-old', capturedAt: '2026-05-10T09:00:00.000Z' }));
      writeGapFill(root, gapRecord({ briefId: 'brief-2-fresh', capturedAt: '2026-05-10T10:00:00.000Z' }));
      writeGapFill(root, gapRecord({ briefId: 'brief-3-brief', capturedAt: '2026-05-10T10:20:00.000Z', source: 'brief', slots: null }));
      expect(readLatestGapFill(root, { now: NOW })?.briefId).toBe('brief-2-fresh');
      expect(readLatestGapFill(root, { now: new Date('2026-05-10T11:00:01.000Z') })).toBeNull();
    });

    it('skips gap-fills whose brief was already written when asked for pending ones only', () => {
      const root = project();
      writeGapFill(root, gapRecord({ briefId: 'brief-2-used', capturedAt: '2026-05-10T10:00:00.000Z' }));
      writeBriefArtifact(root, { briefId: 'brief-2-used', markdown: MD, gap: null });
      expect(readLatestGapFill(root, { now: NOW })?.briefId).toBe('brief-2-used');
      expect(readLatestGapFill(root, { now: NOW, pendingOnly: true })).toBeNull();
    });
  });

  describe('listing and reading briefs', () => {
    it('resolves latest by listing handoffs/, newest id time first', () => {
      const root = project();
      expect(resolveBriefRef(root, 'latest')).toMatchObject({ ok: false, error: { code: 'BRIEF_NOT_FOUND' } });
      for (const id of ['brief-200-a', 'brief-1000-a', 'brief-30-z']) writeBriefArtifact(root, { briefId: id, markdown: MD, gap: null });
      writeFiles(root, { [`${HANDOFFS_DIR}/notes.txt`]: 'x', [`${HANDOFFS_DIR}/brief-9999-X.md`]: 'bad id' });
      expect(listBriefIds(root)).toEqual(['brief-1000-a', 'brief-200-a', 'brief-30-z']);
      expect(resolveBriefRef(root, 'latest')).toEqual({ ok: true, value: 'brief-1000-a' });
      expect(resolveBriefRef(root, 'brief-30-z')).toEqual({ ok: true, value: 'brief-30-z' });
      expect(resolveBriefRef(root, 'brief-31-z')).toMatchObject({ ok: false, error: { code: 'BRIEF_NOT_FOUND' } });
      expect(resolveBriefRef(root, '../brief-30-z')).toMatchObject({ ok: false, error: { code: 'BRIEF_ID_INVALID' } });
    });

    it('reads a brief only when its header carries schema version 1', () => {
      const root = project();
      writeBriefArtifact(root, { briefId: 'brief-1-a', markdown: MD, gap: null });
      writeBriefArtifact(root, { briefId: 'brief-2-a', markdown: MD.replace('1', '2'), gap: null });
      expect(readBriefMarkdown(root, 'brief-1-a')).toEqual({ ok: true, value: MD });
      expect(readBriefMarkdown(root, 'brief-2-a')).toMatchObject({ ok: false, error: { code: 'BRIEF_VERSION_UNSUPPORTED' } });
    });
  });

  describe('relay.handoff.json', () => {
    it('loads profiles and budgets, and refuses orchestration flags in a Codex profile', () => {
      const root = project();
      expect(loadHandoffConfig(root)).toEqual({ ok: true, value: { profiles: {}, budgets: {} } });
      writeFileSync(path.join(root, 'relay.handoff.json'), JSON.stringify({ profiles: { fast: { adapter: 'codex', args: ['-m', 'gpt-5'], sandbox: 'read-only' } }, budgets: { decisions: 3000 } }));
      expect(loadHandoffConfig(root)).toMatchObject({ ok: true, value: { profiles: { fast: { adapter: 'codex', args: ['-m', 'gpt-5'], sandbox: 'read-only', passEnv: [] } }, budgets: { decisions: 3000 } } });
      for (const bad of [['--output-schema', 'x.json'], ['-o', 'out.txt'], ['--ask-for-approval=never']]) {
        writeFileSync(path.join(root, 'relay.handoff.json'), JSON.stringify({ profiles: { fast: { adapter: 'codex', args: bad } } }));
        const r = loadHandoffConfig(root);
        expect(r.ok).toBe(false);
        if (!r.ok) expect(r.error.message).toContain('profiles.fast.args');
      }
      writeFileSync(path.join(root, 'relay.handoff.json'), JSON.stringify({ profiles: { c: { adapter: 'claude', sandbox: 'read-only' } } }));
      expect(loadHandoffConfig(root)).toMatchObject({ ok: false, error: { code: 'HANDOFF_CONFIG_INVALID' } });
      writeFileSync(path.join(root, 'relay.handoff.json'), '{');
      expect(loadHandoffConfig(root)).toMatchObject({ ok: false, error: { code: 'HANDOFF_CONFIG_INVALID_JSON' } });
    });
  });
});
