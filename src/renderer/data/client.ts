// The renderer's one way to call the host: `relayCall(channel, input)` over `window.relay`,
// unwrapping the reply envelope so a refusal becomes a RelayCallError with the host's code.
import type { ChannelInput, ChannelName, ChannelOutput } from '../../shared/contract.js';
import { call, RelayCallError } from '../transport/call';

/** Calls one channel of `window.relay` and returns its value, or throws RelayCallError. */
export function relayCall<C extends ChannelName>(channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>> {
  return call(window.relay, channel, input);
}

/** What an error box shows: the engine's code and message, or a plain message for anything else. */
export function errorInfo(error: unknown): { readonly code: string; readonly message: string } {
  if (error instanceof RelayCallError) return { code: error.code, message: error.message };
  // A failure carried as data ({ code, message }), as runs and tasks report them.
  if (error !== null && typeof error === 'object' && typeof (error as { code?: unknown }).code === 'string' && typeof (error as { message?: unknown }).message === 'string') {
    return { code: (error as { code: string }).code, message: (error as { message: string }).message };
  }
  if (error instanceof Error) return { code: 'UNEXPECTED', message: error.message };
  return { code: 'UNEXPECTED', message: String(error) };
}
