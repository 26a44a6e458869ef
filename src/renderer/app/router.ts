// The current hash route as React state.
import { useMemo, useSyncExternalStore } from 'react';
import { parseRoute, type Route } from './routes';

function subscribe(listener: () => void): () => void {
  window.addEventListener('hashchange', listener);
  return () => window.removeEventListener('hashchange', listener);
}

export function useRoute(): Route {
  const hash = useSyncExternalStore(subscribe, () => window.location.hash);
  return useMemo(() => parseRoute(hash), [hash]);
}

/** Goes to `hash`; `replace` keeps the current history entry (filters, not places). */
export function navigate(hash: string, options: { readonly replace?: boolean } = {}): void {
  if (options.replace) {
    window.history.replaceState(null, '', hash);
    // replaceState does not fire hashchange; tell the subscribers ourselves.
    window.dispatchEvent(new HashChangeEvent('hashchange'));
  } else {
    window.location.hash = hash;
  }
}
