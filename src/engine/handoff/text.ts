// Small text helpers shared by the synthesizer and the renderer. Pure.

/** Collapses whitespace (newlines included) to single spaces and trims. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** Cuts `text` to at most `max` characters (code points, so no emoji is split), marking the cut with an ellipsis. */
export function clip(text: string, max: number): string {
  if (text.length <= max) return text;
  const points = Array.from(text);
  if (points.length <= max) return text;
  return `${points.slice(0, Math.max(0, max - 1)).join('').trimEnd()}…`;
}

/** A one-line, length-limited version of free text from a record. */
export function brief(text: string, max = 240): string {
  return clip(oneLine(text), max);
}

/** "3h ago", "2d ago": how long before `now` an ISO time was; empty when it cannot be read. */
export function ago(iso: string, now: Date): string {
  const then = Date.parse(iso);
  if (Number.isNaN(then)) return '';
  const seconds = Math.round((now.getTime() - then) / 1000);
  if (seconds < 0) return 'in the future';
  if (seconds < 90) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 90) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 36) return `${hours}h ago`;
  return `${Math.round(hours / 24)}d ago`;
}

/** The first `n` characters of an id (uuids, shas) for display. */
export function shortId(id: string, n = 8): string {
  return id.length > n ? id.slice(0, n) : id;
}

/** An ISO time in UTC (`…Z`), so times written with different offsets sort as text; unreadable ones pass through. */
export function utcIso(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : new Date(t).toISOString();
}

/** "2026-05-10 14:03Z": a time to the minute, for people. */
export function minuteUtc(iso: string): string {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? iso : `${new Date(t).toISOString().slice(0, 16).replace('T', ' ')}Z`;
}
