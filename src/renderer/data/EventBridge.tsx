// Subscribes once to `window.relay.onEvent`: every event updates the live store at once, and
// the queries it makes stale are invalidated together a moment later, so a burst of events
// (a tick's stages, a patch's steps) costs one refetch per query, not one per event.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { queriesToInvalidate } from './invalidation';
import { liveStore } from './live-store';
import { connection } from '../transport/connection';
import type { QueryPrefix } from './query-keys';

const COALESCE_MS = 30;

export function EventBridge(): null {
  const client = useQueryClient();
  useEffect(() => {
    const pending = new Map<string, QueryPrefix>();
    let timer: ReturnType<typeof setTimeout> | null = null;
    const flush = (): void => {
      timer = null;
      const prefixes = [...pending.values()];
      pending.clear();
      for (const queryKey of prefixes) void client.invalidateQueries({ queryKey: [...queryKey] });
    };
    // A runtime restarted after a crash counts from lower down: its events are new, not replays.
    const stopRestart = connection.onRuntimeRestart((seq) => liveStore.restartFrom(seq));
    const stop = window.relay.onEvent((envelope) => {
      liveStore.dispatch(envelope);
      for (const prefix of queriesToInvalidate(envelope.event)) pending.set(JSON.stringify(prefix), prefix);
      if (pending.size > 0 && timer === null) timer = setTimeout(flush, COALESCE_MS);
    });
    return () => {
      stop();
      stopRestart();
      if (timer !== null) clearTimeout(timer);
    };
  }, [client]);
  return null;
}
