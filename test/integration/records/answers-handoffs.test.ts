// engine/records' readers of ask/review answers (.relaycode/answers/) and handoff briefs
// (.relaycode/handoffs/): what becomes a run and its detail, and what is refused (another schema
// version, a name that is not an id, a link).
import { symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordAnswer } from '../../../src/engine/relay/record.js';
import { listBriefIds, loadAnswers, readBriefMarkdown, readProjectRuns, readRecordRuns, readRunById, readRunDetail } from '../../../src/engine/records/index.js';
import { relayProject } from '../../helpers/project.js';
import { tempDir, writeFiles } from '../../helpers/temp.js';

const BRIEF = (id: string, to = 'codex') => `# Handoff brief: demo\n\n**Schema version:** 1\n**Brief id:** ${id}\n**Created:** 2030-03-01T12:00:00.000Z\n**From:** claude → **To:** ${to}\n\nBody.\n`;

describe('answers', () => {
  it('an ask and a failed review are runs, read back with their prompt and answer', () => {
    const root = relayProject({ projectId: 'demo' });
    recordAnswer(root, { id: 'relay-ask-1', kind: 'ask', backend: 'codex', createdAt: '2030-03-01T10:00:00.000Z', prompt: 'Why?\nBecause.', answer: 'It is so.\nMore.', ok: true });
    recordAnswer(root, { id: 'relay-review-2', kind: 'review', backend: 'gemini', createdAt: '2030-03-01T11:00:00.000Z', prompt: 'Review', answer: 'gemini not found', ok: false });
    const runs = readProjectRuns({ projectId: 'demo', root }).runs;
    expect(runs.map((r) => [r.id, r.kind, r.status, r.title, r.summary])).toEqual([
      ['demo:relay:relay-ask-1', 'relay', 'done', 'Ask codex: Why?', 'It is so.'],
      ['demo:review:relay-review-2', 'review', 'failed', 'Review by gemini', 'gemini not found'],
    ]);
    expect(readRunDetail(root, 'review', 'relay-review-2')).toMatchObject({ ok: true, value: { kind: 'review', backend: 'gemini', text: '', error: { code: 'RELAY_FAILED', message: 'gemini not found' } } });
    expect(readRunById({ projectId: 'demo', root }, 'demo:relay:relay-ask-1')).toMatchObject({ title: 'Ask codex: Why?' });
  });

  it('skips damaged records, names that are not ids, ids that differ from their file, and links', () => {
    const root = relayProject({ projectId: 'demo' });
    const outside = path.join(tempDir(), 'relay-linked.json');
    writeFileSync(outside, JSON.stringify({ schemaVersion: 1, id: 'relay-linked', kind: 'ask', backend: 'codex', createdAt: '2030-03-01T10:00:00.000Z', prompt: 'p', answer: 'secret from outside', ok: true }));
    writeFiles(root, {
      '.relaycode/answers/relay-bad.json': '{ nope',
      '.relaycode/answers/notes.json': '{}',
      '.relaycode/answers/relay-other.json': JSON.stringify({ schemaVersion: 1, id: 'relay-else', kind: 'ask', backend: 'codex', createdAt: '2030-03-01T10:00:00.000Z', prompt: 'p', answer: 'a', ok: true }),
      '.relaycode/answers/relay-v2.json': JSON.stringify({ schemaVersion: 2, id: 'relay-v2' }),
    });
    symlinkSync(outside, path.join(root, '.relaycode/answers/relay-linked.json'));
    const loaded = loadAnswers(root);
    expect(loaded.answers).toEqual([]);
    expect(loaded.skipped.map((s) => s.path).sort()).toEqual(['.relaycode/answers/notes.json', '.relaycode/answers/relay-bad.json', '.relaycode/answers/relay-linked.json', '.relaycode/answers/relay-other.json', '.relaycode/answers/relay-v2.json']);
    expect(loaded.skipped.find((s) => s.path.endsWith('relay-linked.json'))?.reason).toContain('symbolic link');
    expect(readRecordRuns({ projectId: 'demo', root }, 'answer', 'relay-linked')).toMatchObject({ runs: [], gone: ['demo:relay:relay-linked', 'demo:review:relay-linked'] });
  });
});

describe('handoff briefs', () => {
  it('a saved brief is a run; its detail is the markdown as written', () => {
    const root = relayProject({ projectId: 'demo' });
    writeFiles(root, { '.relaycode/handoffs/brief-1900000000000-abc123.md': BRIEF('brief-1900000000000-abc123'), '.relaycode/handoffs/brief-1900000000000-abc123.gap.json': '{}' });
    const runs = readProjectRuns({ projectId: 'demo', root }).runs;
    expect(runs).toMatchObject([{ id: 'demo:handoff:brief-1900000000000-abc123', kind: 'handoff', title: 'Handoff to codex', startedAt: '2030-03-01T12:00:00.000Z', file: '.relaycode/handoffs/brief-1900000000000-abc123.md', origin: 'file' }]);
    expect(readRunDetail(root, 'handoff', 'brief-1900000000000-abc123')).toMatchObject({ ok: true, value: { kind: 'handoff', markdown: expect.stringContaining('Body.') } });
    expect(readBriefMarkdown(root, 'brief-1900000000000-abc123')).toMatchObject({ ok: true });
  });

  it('refuses another schema version, a bad id, and a brief that is a link', () => {
    const root = relayProject({ projectId: 'demo' });
    const outside = path.join(tempDir(), 'brief.md');
    writeFileSync(outside, BRIEF('brief-2-linked'));
    writeFiles(root, { '.relaycode/handoffs/brief-1-old.md': BRIEF('brief-1-old').replace('**Schema version:** 1', '**Schema version:** 7'), '.relaycode/handoffs/brief-X-bad.md': 'x' });
    symlinkSync(outside, path.join(root, '.relaycode/handoffs/brief-2-linked.md'));
    expect(readBriefMarkdown(root, 'brief-1-old')).toMatchObject({ ok: false, error: { code: 'BRIEF_VERSION_UNSUPPORTED' } });
    expect(readBriefMarkdown(root, '../brief-1-old')).toMatchObject({ ok: false, error: { code: 'BRIEF_ID_INVALID' } });
    expect(readBriefMarkdown(root, 'brief-2-linked')).toMatchObject({ ok: false, error: { code: 'BRIEF_NOT_FOUND' } });
    expect(readRunDetail(root, 'handoff', 'brief-2-linked')).toMatchObject({ ok: false, error: { code: 'RECORD_NOT_FOUND' } });
    expect(listBriefIds(root)).toEqual(['brief-2-linked', 'brief-1-old']);
    expect(readProjectRuns({ projectId: 'demo', root }).runs.map((r) => r.id)).toEqual(['demo:handoff:brief-1-old']);
  });
});
