// The renderer's way to call the host: unwraps the reply envelope so react-query hooks can
// treat a refusal as a rejected promise, with the host's code and message intact.
import type { ChannelInput, ChannelName, ChannelOutput, IpcReply } from '../../shared/contract.js';
import type { RelayApi } from '../../shared/api.js';

/** A refusal from the host, carried to the renderer with its code. */
export class RelayCallError extends Error {
  override readonly name = 'RelayCallError';

  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** Calls one channel and returns its value, or throws a RelayCallError with the host's code. */
export async function call<C extends ChannelName>(relay: RelayApi, channel: C, input: ChannelInput<C>): Promise<ChannelOutput<C>> {
  // Indexing the api with a generic channel loses the pairing of input and output; restore it.
  const fn = relay[channel] as unknown as (input: ChannelInput<C>) => Promise<IpcReply<ChannelOutput<C>>>;
  const reply = await fn(input);
  if (!reply.ok) throw new RelayCallError(reply.error.code, reply.error.message);
  return reply.value as ChannelOutput<C>;
}
