// Tells the person when the window cannot reach Relay Desk, and exactly what to do: wait (a
// dropped connection to a `relay ui` still running comes back by itself) or open the link a new
// run prints (each run has its own address).
// Calls made meanwhile wait for the connection; once it is back, every query is refetched,
// since anything may have changed.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useSyncExternalStore, type ReactNode } from 'react';
import { assertNever } from '../lib/badges';
import { connection, type ConnectionState } from '../transport/connection';
import { relayCall } from '../data/client';
import { liveStore } from '../data/live-store';
import { queryKeys } from '../data/query-keys';

const NEW_LINK = (
  <>
    Press Enter in the terminal running <code>relay ui</code> for a new link (or start <code>relay ui</code> again), and open the link it prints.
  </>
);

/** What the banner says in each state; null when there is nothing to say. */
function message(state: ConnectionState): { readonly title: string; readonly body: ReactNode } | null {
  switch (state) {
    case 'open':
      return null;
    case 'lost':
      return {
        title: 'Relay Desk has stopped.',
        body: (
          <>
            <code>relay ui</code> is not answering. If it is still running, this page reconnects by itself. If it stopped, start it again and open the link it prints:
            each run has a new address, and this page cannot follow it there (reloading it does not help: once <code>relay ui</code> stopped, whatever answers
            here is not Relay Desk).
          </>
        ),
      };
    case 'session-unknown':
      return {
        title: 'Relay Desk does not know this page any more.',
        body: <>What answers at this address is another run of <code>relay ui</code> (or another program: this page sent it nothing), or this page’s session expired. {NEW_LINK}</>,
      };
    case 'no-session':
      return { title: 'This page is not signed in to Relay Desk.', body: <>Open it with the link <code>relay ui</code> printed (each link works once, for 2 minutes). {NEW_LINK}</> };
    case 'link-used':
      return { title: 'This link was already used.', body: <>Each link opens one page, once. {NEW_LINK}</> };
    case 'link-expired':
      return { title: 'This link has expired.', body: <>Links work for 2 minutes. {NEW_LINK}</> };
    case 'link-unknown':
      return { title: 'This link is not from the running Relay Desk.', body: NEW_LINK };
    default:
      return assertNever(state);
  }
}

export function ConnectionBanner() {
  const state = useSyncExternalStore(connection.subscribe, connection.getState);
  const client = useQueryClient();
  const wasLost = useRef(false);
  useEffect(() => {
    if (state === 'lost' || state === 'session-unknown') {
      wasLost.current = true;
      // The server this page knew is gone (a new run has a new address), so nothing will tell it
      // how the tasks it followed end: they are marked interrupted now, not left "Running…".
      liveStore.reconcile(new Set());
    } else if (state !== 'open') wasLost.current = true;
    else if (wasLost.current) {
      wasLost.current = false;
      void client.invalidateQueries();
      // Tasks this page followed that the runtime (perhaps a new one) does not know ended unheard.
      void client
        .fetchQuery({ queryKey: queryKeys.runtime(), queryFn: () => relayCall('getRuntimeState', {}), staleTime: 0 })
        .then((runtime) => liveStore.reconcile(new Set(runtime.projects.flatMap((p) => [...(p.active ? [p.active.taskId] : []), ...p.queued.map((t) => t.taskId)]))))
        .catch(() => undefined);
    }
  }, [state, client]);
  const text = message(state);
  if (!text) return null;
  return (
    <div className="connection-banner" role="alert" data-state={state}>
      <strong>{text.title}</strong> {text.body}
    </div>
  );
}
