// The error codes the transports themselves produce, as closed unions. Handlers add their own
// (UNKNOWN_PROJECT, an engine's code); these are the ones no handler ever sees. A plain module
// without zod, so the sandboxed preload and the page's transports can use it at run time.

/** Codes of refusals made before or around a handler: by the host, the IPC binding and the transports. */
export const TRANSPORT_ERRORS = {
  invalidInput: 'INVALID_INPUT',
  unknownChannel: 'UNKNOWN_CHANNEL',
  internal: 'INTERNAL',
  outputInvalid: 'OUTPUT_INVALID',
  malformedMessage: 'MALFORMED_MESSAGE',
  disconnected: 'DISCONNECTED',
  unavailable: 'UNAVAILABLE',
  /** The Electron binding: the call came from a frame that is not Relay Desk's window. */
  untrustedSender: 'UNTRUSTED_SENDER',
  /** The `relay ui` socket closed with 1009: the call was larger than the server accepts. */
  messageTooLarge: 'MESSAGE_TOO_LARGE',
} as const;

export type TransportErrorCode = (typeof TRANSPORT_ERRORS)[keyof typeof TRANSPORT_ERRORS];

/** Why the `relay ui` server refused an HTTP request or a socket upgrade; the page and tests rely on each. */
export type HttpRefusalCode =
  | 'HOST_REFUSED'
  | 'ORIGIN_REQUIRED'
  | 'ORIGIN_REFUSED'
  | 'SESSION_REQUIRED'
  | 'SESSION_UNKNOWN'
  | 'CONTENT_TYPE_REFUSED'
  | 'BAD_REQUEST'
  | 'NOT_FOUND'
  | 'METHOD_NOT_ALLOWED'
  | 'LAUNCH_TOKEN_UNKNOWN'
  | 'LAUNCH_TOKEN_USED'
  | 'LAUNCH_TOKEN_EXPIRED';

/** An error as it crosses a process boundary: a stable code and a message for people. */
export interface IpcError<Code extends string = string> {
  readonly code: Code;
  readonly message: string;
}
