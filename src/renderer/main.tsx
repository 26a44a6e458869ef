// The window's entry: `window.relay` (Electron's preload, or the WebSocket transport of
// `relay ui`), react-query, and the app. Everything below talks to `window.relay` only.
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { installRelay } from './transport/install';
import { TRANSPORT_ERRORS } from '../shared/transport-errors.js';
import './styles.css';

installRelay();

const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // Events tell us when data changes; refetching on focus would only add load.
      refetchOnWindowFocus: false,
      staleTime: 30_000,
      // A refusal from the host (unknown run, invalid input) will not change by asking again.
      retry: (count, error) => count < 2 && (error as { code?: string }).code === TRANSPORT_ERRORS.disconnected,
    },
  },
});

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <App />
      </QueryClientProvider>
    </StrictMode>,
  );
}
