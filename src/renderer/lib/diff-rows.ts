// Unified diff text → rows the diff view draws, with old and new line numbers. Pure: the
// engine gives diffs as text (`createTwoFilesPatch` for patches, `git diff` for ticks), and
// both the unified and the split view are built from the same parsed hunks.

/** One line of a hunk as the diff text has it. */
export interface DiffLine {
  readonly type: 'context' | 'add' | 'del';
  readonly text: string;
  /** 1-based line number in the old file (null for added lines). */
  readonly oldNo: number | null;
  /** 1-based line number in the new file (null for deleted lines). */
  readonly newNo: number | null;
  /** True when the diff says "\ No newline at end of file" after this line. */
  readonly noNewline: boolean;
}

export interface DiffHunk {
  readonly header: string;
  readonly oldStart: number;
  readonly newStart: number;
  readonly lines: readonly DiffLine[];
}

/** One file of a (possibly multi-file) diff. */
export interface FileDiff {
  /** The path shown: the new path, or the old one for a deletion. */
  readonly path: string;
  readonly oldPath: string | null;
  readonly newPath: string | null;
  readonly hunks: readonly DiffHunk[];
  readonly added: number;
  readonly removed: number;
  /** "Binary files … differ" and similar: nothing line-based to show. */
  readonly binary: boolean;
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/;

/** `a/src/x.ts` → `src/x.ts`; `/dev/null` → null; quoted git paths are unquoted. */
export function diffPath(raw: string): string | null {
  let value = raw.replace(/\t.*$/, '').trim();
  if (value.startsWith('"') && value.endsWith('"')) value = value.slice(1, -1).replace(/\\(["\\])/g, '$1');
  if (value === '/dev/null') return null;
  return value.replace(/^[ab]\//, '');
}

interface Draft {
  oldPath: string | null;
  newPath: string | null;
  headerPath: string | null;
  hunks: Array<{ header: string; oldStart: number; newStart: number; lines: DiffLine[] }>;
  binary: boolean;
}

function emptyDraft(headerPath: string | null = null): Draft {
  return { oldPath: null, newPath: null, headerPath, hunks: [], binary: false };
}

function finish(draft: Draft): FileDiff | null {
  if (draft.hunks.length === 0 && !draft.binary && draft.oldPath === null && draft.newPath === null && draft.headerPath === null) return null;
  const lines = draft.hunks.flatMap((h) => h.lines);
  return {
    path: draft.newPath ?? draft.oldPath ?? draft.headerPath ?? '(unknown file)',
    oldPath: draft.oldPath,
    newPath: draft.newPath,
    hunks: draft.hunks,
    added: lines.filter((l) => l.type === 'add').length,
    removed: lines.filter((l) => l.type === 'del').length,
    binary: draft.binary,
  };
}

/**
 * Parses unified diff text into files and hunks. Headers it does not know (`Index:`, `===`,
 * `index …`, mode lines) are skipped; a `diff --git` line or a `--- ` header outside a hunk
 * starts a new file.
 */
export function parseUnifiedDiff(text: string): FileDiff[] {
  const files: FileDiff[] = [];
  let draft = emptyDraft();
  let hunk: Draft['hunks'][number] | null = null;
  let oldNo = 0;
  let newNo = 0;
  let oldLeft = 0;
  let newLeft = 0;

  const flush = (): void => {
    const done = finish(draft);
    if (done) files.push(done);
  };

  const lines = text.replace(/\r\n/g, '\n').split('\n');
  // A trailing newline gives one empty element that is not a line of the diff.
  if (lines.at(-1) === '') lines.pop();

  for (const line of lines) {
    const inHunk = hunk !== null && (oldLeft > 0 || newLeft > 0);
    if (inHunk && hunk) {
      const marker = line[0];
      if (marker === ' ' || line === '') {
        hunk.lines.push({ type: 'context', text: line.slice(1), oldNo: oldNo++, newNo: newNo++, noNewline: false });
        oldLeft -= 1;
        newLeft -= 1;
        continue;
      }
      if (marker === '-') {
        hunk.lines.push({ type: 'del', text: line.slice(1), oldNo: oldNo++, newNo: null, noNewline: false });
        oldLeft -= 1;
        continue;
      }
      if (marker === '+') {
        hunk.lines.push({ type: 'add', text: line.slice(1), oldNo: null, newNo: newNo++, noNewline: false });
        newLeft -= 1;
        continue;
      }
      if (marker !== '\\') {
        // A hunk shorter than its header promised: leave it and read the line as a header.
        oldLeft = 0;
        newLeft = 0;
      }
    }
    if (line.startsWith('\\')) {
      // "\ No newline at end of file" belongs to the line before it.
      const last = hunk?.lines.at(-1);
      if (hunk && last) hunk.lines[hunk.lines.length - 1] = { ...last, noNewline: true };
      continue;
    }
    const header = HUNK.exec(line);
    if (header) {
      oldNo = Number(header[1]);
      newNo = Number(header[3]);
      oldLeft = header[2] === undefined ? 1 : Number(header[2]);
      newLeft = header[4] === undefined ? 1 : Number(header[4]);
      // An empty side starts at 0 in the header; its first real line would be 1.
      if (oldLeft === 0) oldNo += 1;
      if (newLeft === 0) newNo += 1;
      hunk = { header: line, oldStart: oldNo, newStart: newNo, lines: [] };
      draft.hunks.push(hunk);
      continue;
    }
    if (line.startsWith('diff --git ')) {
      flush();
      const paths = /^diff --git (?:"?a\/)(.+?)"? (?:"?b\/)(.+?)"?$/.exec(line);
      draft = emptyDraft(paths ? (paths[2] ?? null) : null);
      hunk = null;
      continue;
    }
    if (line.startsWith('--- ')) {
      // A second file in a diff without `diff --git` lines (several createTwoFilesPatch outputs joined).
      if (draft.hunks.length > 0 || draft.oldPath !== null || draft.newPath !== null) {
        flush();
        draft = emptyDraft();
      }
      draft.oldPath = diffPath(line.slice(4));
      hunk = null;
      continue;
    }
    if (line.startsWith('+++ ')) {
      draft.newPath = diffPath(line.slice(4));
      continue;
    }
    if (/^Binary files .* differ$/.test(line) || line === 'GIT binary patch') {
      draft.binary = true;
      continue;
    }
  }
  flush();
  return files;
}

/** A row of the unified view. */
export type UnifiedRow =
  | { readonly kind: 'hunk'; readonly header: string }
  | { readonly kind: 'line'; readonly line: DiffLine };

/** The unified view: each hunk's header, then its lines in order. */
export function unifiedRows(file: FileDiff): UnifiedRow[] {
  const rows: UnifiedRow[] = [];
  for (const hunk of file.hunks) {
    rows.push({ kind: 'hunk', header: hunk.header });
    for (const line of hunk.lines) rows.push({ kind: 'line', line });
  }
  return rows;
}

/** A row of the split view: the old side left, the new side right (either may be empty). */
export type SplitRow =
  | { readonly kind: 'hunk'; readonly header: string }
  | { readonly kind: 'pair'; readonly left: DiffLine | null; readonly right: DiffLine | null };

/**
 * The split view. Context lines sit on both sides; within a run of changes, the n-th deleted
 * line is paired with the n-th added line (as GitHub does), the longer side leaving blanks.
 */
export function splitRows(file: FileDiff): SplitRow[] {
  const rows: SplitRow[] = [];
  for (const hunk of file.hunks) {
    rows.push({ kind: 'hunk', header: hunk.header });
    let dels: DiffLine[] = [];
    let adds: DiffLine[] = [];
    const flushChanges = (): void => {
      const n = Math.max(dels.length, adds.length);
      for (let i = 0; i < n; i += 1) rows.push({ kind: 'pair', left: dels[i] ?? null, right: adds[i] ?? null });
      dels = [];
      adds = [];
    };
    for (const line of hunk.lines) {
      if (line.type === 'context') {
        flushChanges();
        rows.push({ kind: 'pair', left: line, right: line });
      } else if (line.type === 'del') {
        // A deletion after additions starts a new change block.
        if (adds.length > 0) flushChanges();
        dels.push(line);
      } else {
        adds.push(line);
      }
    }
    flushChanges();
  }
  return rows;
}

/** The old and new text of a hunk's sides, for highlighting each side as one block of code. */
export function hunkSides(hunk: DiffHunk): { readonly old: string[]; readonly new: string[] } {
  const oldSide: string[] = [];
  const newSide: string[] = [];
  for (const line of hunk.lines) {
    if (line.type !== 'add') oldSide.push(line.text);
    if (line.type !== 'del') newSide.push(line.text);
  }
  return { old: oldSide, new: newSide };
}
