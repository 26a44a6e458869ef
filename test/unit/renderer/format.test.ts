// Relative times, blast radius and the badge looks: the small formatting rules History and Run
// detail share.
import { describe, expect, it } from 'vitest';
import { describeStats } from '../../../src/engine/patch/summary.js';
import { blastOfFiles, blastOfReport, changeBlocks, formatBlast, groupDigits, parseBlastSummary } from '../../../src/renderer/lib/blast.js';
import { statusLook, verdictLook, kindLabel, RUN_KINDS, RUN_STATUSES } from '../../../src/renderer/lib/badges.js';
import { exactTime, formatDuration, relativeTime } from '../../../src/renderer/lib/time.js';
import { RunKindSchema, RunStatusSchema } from '../../../src/shared/schemas.js';

const NOW = Date.parse('2030-03-12T12:00:00Z');
const ago = (ms: number) => new Date(NOW - ms).toISOString();

describe('relativeTime()', () => {
  it('says "just now", minutes, hours, yesterday, days, then the date', () => {
    expect(relativeTime(ago(10_000), NOW)).toBe('just now');
    expect(relativeTime(ago(50_000), NOW)).toBe('1 min ago');
    expect(relativeTime(ago(5 * 60_000), NOW)).toBe('5 min ago');
    expect(relativeTime(ago(3 * 3_600_000), NOW)).toBe('3 h ago');
    expect(relativeTime(ago(30 * 3_600_000), NOW)).toBe('yesterday');
    expect(relativeTime(ago(4 * 86_400_000), NOW)).toBe('4 days ago');
    expect(relativeTime(ago(40 * 86_400_000), NOW)).toMatch(/^\d{1,2} (Jan|Feb)$/);
    expect(relativeTime('2029-01-05T12:00:00Z', NOW)).toMatch(/^\d{1,2} Jan 2029$/);
  });

  it('handles clocks ahead of ours and unreadable times', () => {
    expect(relativeTime(new Date(NOW + 20_000).toISOString(), NOW)).toBe('just now');
    expect(relativeTime(new Date(NOW + 2 * 3_600_000).toISOString(), NOW)).toBe('in 2 h');
    expect(relativeTime('not a date', NOW)).toBe('not a date');
  });

  it('formats exact times and durations', () => {
    expect(exactTime('2030-03-12T12:00:00Z')).toMatch(/^2030-03-1[23] \d\d:00:00$/);
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(1234)).toBe('1.2 s');
    expect(formatDuration(65_000)).toBe('1 min 5 s');
    expect(formatDuration(120_000)).toBe('2 min');
    expect(formatDuration(-1)).toBe('–');
  });
});

describe('blast radius', () => {
  it('reads the summaries the store writes for patches (describeStats) and ticks', () => {
    const stats = describeStats([
      { path: 'a', change: 'modify', added: 10, removed: 2 },
      { path: 'b', change: 'create', added: 3, removed: 0 },
    ]);
    expect(parseBlastSummary(stats)).toEqual({ files: 2, added: 13, removed: 2, created: 0 });
    expect(parseBlastSummary('1 file, +1/-0')).toEqual({ files: 1, added: 1, removed: 0, created: 0 });
    expect(parseBlastSummary('3 files, +40/-2, 1 new')).toEqual({ files: 3, added: 40, removed: 2, created: 1 });
    expect(parseBlastSummary('src/app.ts: the SEARCH block was not found')).toBeNull();
  });

  it('sums files and reads a report’s blast_radius tolerantly', () => {
    expect(blastOfFiles([{ added: 1, removed: 2, change: 'create' }, { added: 3, removed: 0 }])).toEqual({ files: 2, added: 4, removed: 2, created: 1 });
    expect(blastOfReport({ files_touched: 3, lines_added: 40, lines_deleted: 2, new_files: 1 })).toEqual({ files: 3, added: 40, removed: 2, created: 1 });
    expect(blastOfReport({ files_touched: 'x' })).toEqual({ files: 0, added: 0, removed: 0, created: 0 });
    expect(blastOfReport(null)).toBeNull();
  });

  it('formats the blast and draws the change bar in proportion', () => {
    expect(formatBlast({ files: 1, added: 1234, removed: 5, created: 0 })).toBe('+1,234 −5 · 1 file');
    expect(formatBlast({ files: 3, added: 1, removed: 0, created: 2 })).toBe('+1 −0 · 3 files · 2 new');
    expect(groupDigits(10000)).toBe('10,000');
    expect(changeBlocks(0, 0)).toEqual(['none', 'none', 'none', 'none', 'none']);
    expect(changeBlocks(1, 1)).toEqual(['add', 'del', 'none', 'none', 'none']);
    expect(changeBlocks(100, 1)).toEqual(['add', 'add', 'add', 'add', 'del']);
    expect(changeBlocks(0, 100)).toEqual(['del', 'del', 'del', 'del', 'del']);
  });
});

describe('badges', () => {
  it('lists every run kind and status of the contract', () => {
    expect([...RUN_KINDS].sort()).toEqual([...RunKindSchema.options].sort());
    expect([...RUN_STATUSES].sort()).toEqual([...RunStatusSchema.options].sort());
  });

  it('colours outcomes by what they mean', () => {
    expect(verdictLook('approved').tone).toBe('success');
    expect(verdictLook('success').tone).toBe('success');
    expect(verdictLook('stop').tone).toBe('danger');
    expect(verdictLook('rolled-back').tone).toBe('danger');
    expect(verdictLook('blocked').tone).toBe('warning');
    expect(verdictLook('something-new')).toEqual({ tone: 'neutral', label: 'something-new' });
    expect(statusLook('failed').tone).toBe('danger');
    expect(statusLook('waiting').tone).toBe('warning');
    expect(kindLabel('relay')).toBe('Ask');
  });
});
