/**
 * Replies Relay Desk wrote for the assistant, remembered by content hash. "Copy reply for the
 * assistant" puts one on the clipboard, where the watcher sees it next: it quotes file names and
 * the current file's lines in a fence, and must never be mistaken for an answer to apply.
 */
import { responseHash } from './check.js';

/** How many replies are remembered (the oldest are forgotten). */
const REMEMBERED = 200;

export class OwnReplies {
  private readonly hashes = new Set<string>();

  /** Remembers a reply that was shown or offered to the person. */
  remember(reply: string | undefined): void {
    if (!reply) return;
    const hash = responseHash(reply);
    this.hashes.delete(hash);
    this.hashes.add(hash);
    for (const oldest of this.hashes) {
      if (this.hashes.size <= REMEMBERED) break;
      this.hashes.delete(oldest);
    }
  }

  /** Whether this text is one of those replies (edge whitespace and line endings aside). */
  has(text: string): boolean {
    return this.hashes.size > 0 && this.hashes.has(responseHash(text));
  }
}
