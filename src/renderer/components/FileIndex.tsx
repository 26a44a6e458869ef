// The files of a change as a short list at the top of a run: each links to its diff below, with
// its +/- counts, so a person sees the whole change at a glance before reading any diff.
import { diffAnchor, Stat } from './DiffView';

export interface IndexedFile {
  readonly path: string;
  readonly change?: 'create' | 'modify' | 'delete';
  readonly added: number;
  readonly removed: number;
}

const CHANGE = { create: 'new', modify: '', delete: 'deleted' } as const;

export function FileIndex(props: { readonly files: readonly IndexedFile[]; readonly label?: string }) {
  if (props.files.length === 0) return null;
  return (
    <nav className="file-index" aria-label={props.label ?? 'Files in this change'}>
      <ul>
        {props.files.map((file, i) => (
          <li key={`${file.path}-${i}`}>
            <a
              href={`#${diffAnchor(i)}`}
              onClick={(event) => {
                // Hash routes own the URL fragment: scroll to the file instead of navigating.
                event.preventDefault();
                const target = document.getElementById(diffAnchor(i));
                target?.scrollIntoView({ block: 'start' });
                target?.focus({ preventScroll: true });
              }}
            >
              <code>{file.path}</code>
            </a>
            {file.change && CHANGE[file.change] ? <span className="muted small"> {CHANGE[file.change]}</span> : null} <Stat added={file.added} removed={file.removed} />
          </li>
        ))}
      </ul>
    </nav>
  );
}
