// One click copies; the button says whether it worked. `getText` may fetch (the system prompt).
import { useEffect, useState } from 'react';
import { copyText } from '../lib/clipboard';
import { ErrorBox } from './ui';

type CopyState = { readonly kind: 'idle' } | { readonly kind: 'busy' } | { readonly kind: 'copied' } | { readonly kind: 'failed'; readonly error: unknown };

export function CopyButton(props: { readonly label: string; readonly getText: () => string | Promise<string>; readonly className?: string; readonly copiedLabel?: string }) {
  const [state, setState] = useState<CopyState>({ kind: 'idle' });
  useEffect(() => {
    if (state.kind !== 'copied') return;
    const timer = setTimeout(() => setState({ kind: 'idle' }), 2500);
    return () => clearTimeout(timer);
  }, [state]);

  const copy = async (): Promise<void> => {
    setState({ kind: 'busy' });
    try {
      const text = await props.getText();
      const done = await copyText(text);
      setState(done ? { kind: 'copied' } : { kind: 'failed', error: new Error('The browser refused to copy. Select the text and copy it by hand.') });
    } catch (error) {
      setState({ kind: 'failed', error });
    }
  };

  return (
    <span className="copy-button">
      <button type="button" className={props.className ?? 'button'} onClick={() => void copy()} disabled={state.kind === 'busy'}>
        {state.kind === 'copied' ? (props.copiedLabel ?? 'Copied ✓') : props.label}
      </button>
      <span className="visually-hidden" role="status" aria-live="polite">
        {state.kind === 'copied' ? 'Copied to the clipboard' : ''}
      </span>
      {state.kind === 'failed' ? <ErrorBox error={state.error} title="Could not copy" /> : null}
    </span>
  );
}
