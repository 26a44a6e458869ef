// Tabs as the ARIA pattern has them: a tablist of buttons (Left/Right/Home/End move between
// them, Tab leaves the list), each controlling one tabpanel. Only the chosen panel is rendered.
import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

export interface TabSpec<K extends string> {
  readonly key: K;
  readonly label: ReactNode;
}

export function Tabs<K extends string>(props: { readonly label: string; readonly tabs: readonly TabSpec<K>[]; readonly selected: K; readonly onSelect: (key: K) => void; readonly children: ReactNode }) {
  const base = useId();
  const refs = useRef(new Map<K, HTMLButtonElement | null>());
  const keys = props.tabs.map((t) => t.key);
  const move = (event: KeyboardEvent<HTMLDivElement>): void => {
    const at = keys.indexOf(props.selected);
    const next =
      event.key === 'ArrowRight' ? keys[(at + 1) % keys.length] : event.key === 'ArrowLeft' ? keys[(at - 1 + keys.length) % keys.length] : event.key === 'Home' ? keys[0] : event.key === 'End' ? keys.at(-1) : undefined;
    if (next === undefined) return;
    event.preventDefault();
    props.onSelect(next);
    refs.current.get(next)?.focus();
  };
  return (
    <div className="tabs">
      <div className="tab-list" role="tablist" aria-label={props.label} onKeyDown={move}>
        {props.tabs.map((tab) => {
          const selected = tab.key === props.selected;
          return (
            <button
              key={tab.key}
              ref={(el) => {
                refs.current.set(tab.key, el);
              }}
              type="button"
              role="tab"
              id={`${base}-tab-${tab.key}`}
              aria-selected={selected}
              aria-controls={`${base}-panel`}
              tabIndex={selected ? 0 : -1}
              className={`tab${selected ? ' active' : ''}`}
              onClick={() => props.onSelect(tab.key)}
            >
              {tab.label}
            </button>
          );
        })}
      </div>
      <div className="tab-panel" role="tabpanel" id={`${base}-panel`} aria-labelledby={`${base}-tab-${props.selected}`} tabIndex={0}>
        {props.children}
      </div>
    </div>
  );
}
