// The surface the renderer talks to: `window.relay`. The Electron preload and the browser
// transport of `relay ui` both build it with `buildRelayApi`, so renderer code is the same in
// both. Type-only imports of the contract keep this module free of zod at runtime.
import type { ChannelInput, ChannelName, ChannelOutput, EventEnvelope, IpcReply } from './contract.js';
import { CHANNEL_NAMES } from './channels.js';

/** One function per channel, each resolving to a reply envelope (never rejecting with a raw error). */
export type RelayChannels = {
  readonly [C in ChannelName]: (input: ChannelInput<C>) => Promise<IpcReply<ChannelOutput<C>>>;
};

export type EventListener = (envelope: EventEnvelope) => void;

/** `window.relay`. */
export type RelayApi = RelayChannels & {
  /** Calls `listener` for every runtime event from now on; returns the function that stops it. */
  readonly onEvent: (listener: EventListener) => () => void;
};

/** Builds `window.relay` from a transport's two primitives: invoke a channel, and subscribe to events. */
export function buildRelayApi(transport: {
  readonly invoke: (channel: ChannelName, input: unknown) => Promise<IpcReply<unknown>>;
  readonly subscribe: (listener: EventListener) => () => void;
}): RelayApi {
  const api: Record<string, unknown> = {};
  for (const name of CHANNEL_NAMES) api[name] = (input: unknown) => transport.invoke(name, input ?? {});
  api.onEvent = (listener: EventListener) => transport.subscribe(listener);
  return Object.freeze(api) as RelayApi;
}
