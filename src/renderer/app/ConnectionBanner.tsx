// Tells the person when the window has lost Relay Desk (`relay ui` stopped, the machine slept),
// so a click that seems to do nothing is explained. Calls made meanwhile wait for the
// connection; once it is back, every query is refetched, since anything may have changed.
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { connection } from '../transport/connection';

export function ConnectionBanner() {
  const state = useSyncExternalStore(connection.subscribe, connection.getState);
  const client = useQueryClient();
  const wasLost = useRef(false);
  useEffect(() => {
    if (state === 'lost') wasLost.current = true;
    else if (wasLost.current) {
      wasLost.current = false;
      void client.invalidateQueries();
    }
  }, [state, client]);
  if (state === 'open') return null;
  return (
    <div className="connection-banner" role="alert">
      <strong>Lost the connection to Relay Desk.</strong> Trying again… Actions wait until it is back. If you stopped <code>relay ui</code>, start it again and open the
      URL it prints.
    </div>
  );
}
