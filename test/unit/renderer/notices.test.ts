// Quiet, clear notices: identical ones merge with a count, what fades goes first, three show at
// once, and no text is said twice inside one notice.
import { describe, expect, it } from 'vitest';
import { addNotice, fades, MAX_NOTICES, visibleNotices, VISIBLE_NOTICES, withoutRepeats, type Notice } from '../../../src/renderer/data/notices.js';
import { EMPTY_LIVE, reduceLive } from '../../../src/renderer/data/live.js';

const base = { taskId: null, projectId: 'demo', code: null } as const;
const add = (list: Notice[], notice: Partial<Notice> & Pick<Notice, 'tone' | 'title'>, id: number): Notice[] => addNotice(list, { ...base, message: '', ...notice }, id, 1000 + id);

describe('notices', () => {
  it('merges identical notices into one with a count, which becomes the newest again', () => {
    let list: Notice[] = [];
    list = add(list, { tone: 'danger', title: 'Patch not applied', code: 'SEARCH_NOT_FOUND', message: 'not found' }, 1);
    list = add(list, { tone: 'success', title: 'Patch applied', message: '1 file kept.' }, 2);
    list = add(list, { tone: 'danger', title: 'Patch not applied', code: 'SEARCH_NOT_FOUND', message: 'not found' }, 3);
    expect(list).toHaveLength(2);
    expect(list.at(-1)).toMatchObject({ id: 1, count: 2, ts: 1003, title: 'Patch not applied' });
    // Another project's identical words are another notice.
    list = add(list, { tone: 'danger', title: 'Patch not applied', code: 'SEARCH_NOT_FOUND', message: 'not found', projectId: 'other' }, 4);
    expect(list).toHaveLength(3);
  });

  it('never repeats the title or the code in the message', () => {
    expect(withoutRepeats({ title: 'Tick SUCCESS', message: 'Tick success.', code: null })).toBe('');
    expect(withoutRepeats({ title: 'Patch failed', message: 'SEARCH_NOT_FOUND: the block was not found', code: 'SEARCH_NOT_FOUND' })).toBe('the block was not found');
    expect(withoutRepeats({ title: 'Warning', message: 'W1', code: 'W1' })).toBe('');
    expect(withoutRepeats({ title: 'Patch applied', message: '2 files kept.', code: null })).toBe('2 files kept.');
  });

  it('shows at most three, newest last, and counts the rest', () => {
    let list: Notice[] = [];
    for (let i = 1; i <= 5; i += 1) list = add(list, { tone: 'danger', title: `Error ${i}` }, i);
    const { shown, hidden } = visibleNotices(list);
    expect(shown.map((n) => n.title)).toEqual(['Error 3', 'Error 4', 'Error 5']);
    expect(shown).toHaveLength(VISIBLE_NOTICES);
    expect(hidden).toBe(2);
  });

  it('successes and information fade; warnings and errors stay; over the cap what fades is dropped first', () => {
    expect(fades({ tone: 'success' })).toBe(true);
    expect(fades({ tone: 'info' })).toBe(true);
    expect(fades({ tone: 'warning' })).toBe(false);
    expect(fades({ tone: 'danger' })).toBe(false);
    let list: Notice[] = add([], { tone: 'danger', title: 'First error' }, 0);
    list = add(list, { tone: 'success', title: 'A success' }, 1);
    for (let i = 2; i <= MAX_NOTICES; i += 1) list = add(list, { tone: 'danger', title: `Error ${i}` }, i);
    expect(list).toHaveLength(MAX_NOTICES);
    expect(list.some((n) => n.title === 'A success')).toBe(false);
    expect(list[0]!.title).toBe('First error');
  });

  it('a review with nothing to review is information, not a failure', () => {
    const queued = reduceLive(EMPTY_LIVE, { seq: 1, ts: 1, event: { type: 'task.queued', taskId: 't', projectId: 'p', kind: 'review', title: 'Review', position: 0 } });
    const failed = reduceLive(queued, { seq: 2, ts: 2, event: { type: 'task.failed', taskId: 't', projectId: 'p', kind: 'review', error: { code: 'NOTHING_TO_REVIEW', message: 'Nothing to review: HEAD has no changes since main.' }, result: null } });
    expect(failed.notices.at(-1)).toMatchObject({ tone: 'info', title: 'Nothing to review', message: 'HEAD has no changes since main.' });
  });
});
