// Blast radius and line counting, pure.

/** A path the tick changed, as git reality shows it. */
export interface TouchedFile {
  readonly path: string;
  /**
   * added/modified/deleted/type-changed: tracked changes since the base commit (commits on top
   * included); untracked: a new file git does not track; git-internal: a guarded file under .git/.
   */
  readonly change: 'added' | 'modified' | 'deleted' | 'type-changed' | 'untracked' | 'git-internal';
  readonly added: number;
  readonly deleted: number;
  readonly binary: boolean;
}

/** The four blast-radius numbers of report.schema.json. */
export interface BlastRadius {
  readonly files_touched: number;
  readonly lines_added: number;
  readonly lines_deleted: number;
  readonly new_files: number;
}

/** True for files that did not exist at the base commit. */
export function isNewFile(file: TouchedFile): boolean {
  return file.change === 'added' || file.change === 'untracked';
}

/** Sums the touched files; lines of new untracked files count as added lines. */
export function blastRadius(files: readonly TouchedFile[]): BlastRadius {
  let added = 0;
  let deleted = 0;
  let created = 0;
  for (const file of files) {
    added += file.added;
    deleted += file.deleted;
    if (isNewFile(file)) created += 1;
  }
  return { files_touched: files.length, lines_added: added, lines_deleted: deleted, new_files: created };
}

/** The one-line form used in both reports: "<files> files, +<added>/-<deleted>, <new> new". */
export function blastLine(b: BlastRadius): string {
  return `${b.files_touched} files, +${b.lines_added}/-${b.lines_deleted}, ${b.new_files} new`;
}

/** Lines in a file's content as git would count them; binary content (a NUL byte) counts none. */
export function countLines(content: Uint8Array): { readonly lines: number; readonly binary: boolean } {
  const probe = content.subarray(0, 8000);
  if (probe.includes(0)) return { lines: 0, binary: true };
  if (content.length === 0) return { lines: 0, binary: false };
  let lines = 0;
  for (const byte of content) if (byte === 0x0a) lines += 1;
  if (content[content.length - 1] !== 0x0a) lines += 1;
  return { lines, binary: false };
}

/** A unified diff that creates `path` with `content` (git cannot diff untracked files for us). */
export function newFilePatch(path: string, content: Uint8Array): string {
  const { binary, lines } = countLines(content);
  const header = `diff --git a/${path} b/${path}\nnew file mode 100644\n`;
  if (binary) return `${header}Binary files /dev/null and b/${path} differ\n`;
  if (lines === 0) return header;
  const text = Buffer.from(content).toString('utf8');
  const body = text.endsWith('\n') ? text.slice(0, -1) : text;
  const hunk = body
    .split('\n')
    .map((l) => `+${l}`)
    .join('\n');
  return `${header}--- /dev/null\n+++ b/${path}\n@@ -0,0 +1${lines === 1 ? '' : `,${lines}`} @@\n${hunk}\n${text.endsWith('\n') ? '' : '\\ No newline at end of file\n'}`;
}
