// Files changed, each with a syntax-highlighted diff in a unified or split layout (the
// layout is one choice for the whole window, remembered between sessions).
import { useMemo, useState, useSyncExternalStore, type ReactNode } from 'react';
import { changeBlocks } from '../lib/blast';
import { parseUnifiedDiff, splitRows, unifiedRows, type DiffLine, type FileDiff } from '../lib/diff-rows';
import { highlightHunk, languageForPath } from '../lib/highlight';
import { Badge } from './ui';

export type DiffMode = 'unified' | 'split';

const MODE_KEY = 'relay-desk.diff-mode';
const modeListeners = new Set<() => void>();

function readMode(): DiffMode {
  try {
    return window.localStorage.getItem(MODE_KEY) === 'split' ? 'split' : 'unified';
  } catch {
    return 'unified';
  }
}

function writeMode(mode: DiffMode): void {
  try {
    window.localStorage.setItem(MODE_KEY, mode);
  } catch {
    // Storage can be unavailable (private windows); the choice then lasts for this page only.
  }
  currentMode = mode;
  for (const listener of [...modeListeners]) listener();
}

let currentMode: DiffMode | null = null;

export function useDiffMode(): [DiffMode, (mode: DiffMode) => void] {
  const mode = useSyncExternalStore(
    (listener) => {
      modeListeners.add(listener);
      return () => modeListeners.delete(listener);
    },
    () => (currentMode ??= readMode()),
  );
  return [mode, writeMode];
}

export function DiffModeToggle() {
  const [mode, setMode] = useDiffMode();
  return (
    <div className="segmented" role="radiogroup" aria-label="Diff layout">
      {(['unified', 'split'] as const).map((value) => (
        <button key={value} type="button" role="radio" aria-checked={mode === value} className={mode === value ? 'active' : ''} onClick={() => setMode(value)}>
          {value === 'unified' ? 'Unified' : 'Split'}
        </button>
      ))}
    </div>
  );
}

/** The id of a file's diff section on a run page, for links from the file index. */
export function diffAnchor(index: number): string {
  return `diff-file-${index}`;
}

/** A file as the contract gives it: stats plus its unified diff text. */
export interface DiffFileInput {
  readonly path: string;
  readonly change?: 'create' | 'modify' | 'delete';
  readonly added: number;
  readonly removed: number;
  readonly diff: string;
}

/** Rows past this are behind a "Show all" button: a generated file must not freeze the window. */
const ROW_LIMIT = 1500;

export function ChangeBar(props: { readonly added: number; readonly removed: number }) {
  return (
    <span className="change-bar" aria-hidden="true">
      {changeBlocks(props.added, props.removed).map((block, i) => (
        <span key={i} className={`block block-${block}`} />
      ))}
    </span>
  );
}

export function Stat(props: { readonly added: number; readonly removed: number }) {
  return (
    <span className="stat" aria-label={`${props.added} lines added, ${props.removed} lines removed`}>
      <span className="stat-add">+{props.added}</span> <span className="stat-del">−{props.removed}</span>
    </span>
  );
}

const CHANGE_LABEL = { create: 'new', modify: 'modified', delete: 'deleted' } as const;

function LineNo(props: { readonly n: number | null }) {
  return <td className="ln">{props.n ?? ''}</td>;
}

function CodeCell(props: { readonly html: string | undefined; readonly line: DiffLine | null; readonly className: string }) {
  if (!props.line) return <td className={`${props.className} empty`} />;
  return (
    <td className={props.className}>
      <span className="code-text" dangerouslySetInnerHTML={{ __html: props.html ?? '' }} />
      {props.line.noNewline ? <span className="no-newline" title="No newline at end of file"> ⏎̸</span> : null}
    </td>
  );
}

const SIGN = { context: ' ', add: '+', del: '−' } as const;

function FileDiffTable(props: { readonly file: FileDiff; readonly mode: DiffMode }) {
  const { file, mode } = props;
  const [showAll, setShowAll] = useState(false);
  const html = useMemo(() => {
    const language = languageForPath(file.path);
    const map = new Map<DiffLine, string>();
    for (const hunk of file.hunks) {
      const lines = highlightHunk(hunk, language);
      hunk.lines.forEach((line, i) => map.set(line, lines[i] ?? ''));
    }
    return map;
  }, [file]);
  const rows = useMemo(() => (mode === 'split' ? splitRows(file) : unifiedRows(file)), [file, mode]);
  if (file.binary) return <p className="muted diff-note">Binary file: no line diff to show.</p>;
  if (file.hunks.length === 0) return <p className="muted diff-note">No line changes (an empty file, or only its mode changed).</p>;
  const shown = showAll ? rows : rows.slice(0, ROW_LIMIT);
  return (
    <div className="diff-scroll">
      <table className={`diff diff-${mode}`}>
        {/* Fixed layout takes widths from the first row, a hunk header spanning every column: name them here. */}
        {mode === 'split' ? (
          <colgroup>
            <col className="col-ln" />
            <col className="col-half" />
            <col className="col-ln" />
            <col className="col-half" />
          </colgroup>
        ) : (
          <colgroup>
            <col className="col-ln" />
            <col className="col-ln" />
            <col className="col-sign" />
            <col />
          </colgroup>
        )}
        <tbody>
          {shown.map((row, i) => {
            if (row.kind === 'hunk') {
              return (
                <tr key={i} className="hunk">
                  <td colSpan={4}>{row.header}</td>
                </tr>
              );
            }
            if (row.kind === 'line') {
              const { line } = row;
              return (
                <tr key={i} className={`line ${line.type}`}>
                  <LineNo n={line.oldNo} />
                  <LineNo n={line.newNo} />
                  <td className="sign" aria-hidden="true">
                    {SIGN[line.type]}
                  </td>
                  <CodeCell className="code" html={html.get(line)} line={line} />
                </tr>
              );
            }
            const left = row.left;
            const right = row.right;
            const same = left !== null && left === right;
            return (
              <tr key={i} className="line pair">
                <LineNo n={left?.oldNo ?? null} />
                <CodeCell className={`code half ${same ? 'context' : 'del'}`} html={left ? html.get(left) : undefined} line={left} />
                <LineNo n={right?.newNo ?? null} />
                <CodeCell className={`code half ${same ? 'context' : 'add'}`} html={right ? html.get(right) : undefined} line={right} />
              </tr>
            );
          })}
        </tbody>
      </table>
      {rows.length > shown.length ? (
        <button type="button" className="button small" onClick={() => setShowAll(true)}>
          Show all {rows.length} lines
        </button>
      ) : null}
    </div>
  );
}

/** One file: its header (path, change, +/-) and, when open, its diff. */
export function FileDiffSection(props: { readonly input: DiffFileInput; readonly mode: DiffMode; readonly defaultOpen?: boolean; readonly headerExtra?: ReactNode; readonly anchor?: string }) {
  const { input } = props;
  const parsed = useMemo(() => parseUnifiedDiff(input.diff)[0] ?? null, [input.diff]);
  const [open, setOpen] = useState(props.defaultOpen ?? true);
  return (
    <section className="file-diff" aria-label={`Changes to ${input.path}`} {...(props.anchor ? { id: props.anchor, tabIndex: -1 } : {})}>
      <header className="file-diff-header">
        <button type="button" className="disclosure" aria-expanded={open} onClick={() => setOpen(!open)}>
          <span aria-hidden="true">{open ? '▾' : '▸'}</span>
          <span className="visually-hidden">{open ? 'Hide' : 'Show'} diff of</span>
        </button>
        {props.headerExtra}
        <span className="file-path">{input.path}</span>
        {input.change ? <Badge tone={input.change === 'create' ? 'success' : input.change === 'delete' ? 'danger' : 'neutral'}>{CHANGE_LABEL[input.change]}</Badge> : null}
        <span className="spacer" />
        <Stat added={input.added} removed={input.removed} />
        <ChangeBar added={input.added} removed={input.removed} />
      </header>
      {open ? parsed ? <FileDiffTable file={parsed} mode={props.mode} /> : <p className="muted diff-note">{input.diff.trim() === '' ? 'No diff was recorded for this file.' : 'The diff could not be read.'}</p> : null}
    </section>
  );
}

/** Every file of a patch. */
export function FileDiffList(props: { readonly files: readonly DiffFileInput[] }) {
  const [mode] = useDiffMode();
  // Many files: start closed, so the list reads as a summary first.
  const openByDefault = props.files.length <= 8;
  return (
    <div className="file-diff-list">
      {props.files.map((file, i) => (
        <FileDiffSection key={file.path} input={file} mode={mode} defaultOpen={openByDefault} anchor={diffAnchor(i)} />
      ))}
    </div>
  );
}

/** A whole multi-file diff text (a tick's diff.patch), split into files (parse it once with parseUnifiedDiff). */
export function PatchTextDiff(props: { readonly files: readonly FileDiff[] }) {
  const [mode] = useDiffMode();
  const { files } = props;
  if (files.length === 0) return <p className="muted">The diff is empty.</p>;
  return (
    <div className="file-diff-list">
      {files.map((file, i) => (
        <section key={`${file.path}-${i}`} className="file-diff" aria-label={`Changes to ${file.path}`} id={diffAnchor(i)} tabIndex={-1}>
          <header className="file-diff-header">
            <span className="file-path">{file.path}</span>
            {file.oldPath === null ? <Badge tone="success">new</Badge> : file.newPath === null ? <Badge tone="danger">deleted</Badge> : null}
            <span className="spacer" />
            <Stat added={file.added} removed={file.removed} />
            <ChangeBar added={file.added} removed={file.removed} />
          </header>
          <FileDiffTable file={file} mode={mode} />
        </section>
      ))}
    </div>
  );
}
