// The window's notices, kept quiet and clear: the same notice again is one notice with a count,
// successes fade after a few seconds while problems stay until closed, at most three show at
// once, and a notice never says the same thing twice (title, code and message each add
// something). Pure functions over a list, tested on their own.

export type NoticeTone = 'success' | 'info' | 'warning' | 'danger';

export interface Notice {
  readonly id: number;
  readonly tone: NoticeTone;
  readonly title: string;
  /** What the title does not say already ('' when it says it all). */
  readonly message: string;
  readonly code: string | null;
  readonly taskId: string | null;
  readonly projectId: string | null;
  /** When it last arrived. */
  readonly ts: number;
  /** How many times it arrived. */
  readonly count: number;
  /** For a refused answer: the reply for the assistant (the notice offers to copy it). */
  readonly reply?: string;
}

/** Notices kept (the newest); only VISIBLE_NOTICES of them show at once. */
export const MAX_NOTICES = 12;
/** Notices shown at once, newest last. */
export const VISIBLE_NOTICES = 3;
/** How long a success or an information stays on screen. */
export const FADE_MS = 5000;

/** True for notices that fade by themselves; warnings and errors stay until closed. */
export function fades(notice: Pick<Notice, 'tone'>): boolean {
  return notice.tone === 'success' || notice.tone === 'info';
}

/**
 * The message without what the title and code already say: a message equal to the title is
 * dropped, and a leading "CODE:" or "Title:" is cut: the notice shows those already.
 */
export function withoutRepeats(notice: Pick<Notice, 'title' | 'message' | 'code'>): string {
  const escape = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  let message = notice.message.trim();
  if (notice.code) {
    message = message.replace(new RegExp(`^${escape(notice.code)}\\s*[:—–-]?\\s*`), '');
  }
  message = message.replace(new RegExp(`^${escape(notice.title)}\\s*[:—–-]\\s*`, 'i'), '');
  const plain = (text: string): string => text.toLowerCase().replace(/[.!\s]+$/g, '').trim();
  if (plain(message) === plain(notice.title) || (notice.code !== null && plain(message) === plain(notice.code))) return '';
  return message;
}

function sameNotice(a: Omit<Notice, 'id' | 'ts' | 'count'>, b: Omit<Notice, 'id' | 'ts' | 'count'>): boolean {
  return a.tone === b.tone && a.title === b.title && a.message === b.message && a.code === b.code && a.projectId === b.projectId;
}

/** Adds a notice: an identical one already there counts up and moves to the end (it is the newest again). */
export function addNotice(list: readonly Notice[], incoming: Omit<Notice, 'id' | 'ts' | 'count' | 'message'> & { readonly message: string }, id: number, ts: number): Notice[] {
  const cleaned = { ...incoming, message: withoutRepeats(incoming) };
  const same = list.find((n) => sameNotice(n, cleaned));
  if (same) return [...list.filter((n) => n !== same), { ...same, ts, count: same.count + 1, taskId: cleaned.taskId }];
  const next = [...list, { ...cleaned, id, ts, count: 1 }];
  if (next.length <= MAX_NOTICES) return next;
  // Over the cap: what fades goes first (it would have faded anyway), then the oldest.
  const drop = next.find(fades) ?? next[0]!;
  return next.filter((n) => n !== drop);
}

/** The notices on screen (newest last) and how many wait behind them. */
export function visibleNotices(list: readonly Notice[]): { readonly shown: readonly Notice[]; readonly hidden: number } {
  return { shown: list.slice(-VISIBLE_NOTICES), hidden: Math.max(0, list.length - VISIBLE_NOTICES) };
}
