/** A function the model may call, described by a JSON Schema of its arguments. */
export interface ToolDefinition {
  readonly name: string;
  readonly description?: string;
  readonly parameters: Readonly<Record<string, unknown>>;
}

/** A call the model asked for; `arguments` is the JSON text the model wrote. */
export interface ToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** One turn of a conversation. */
export type ChatMessage =
  | { readonly role: 'system'; readonly content: string }
  | { readonly role: 'user'; readonly content: string }
  | { readonly role: 'assistant'; readonly content: string; readonly toolCalls?: readonly ToolCall[] }
  | { readonly role: 'tool'; readonly content: string; readonly toolCallId: string };

/** A chat request in the client's own shape; each protocol module translates it to the wire. */
export interface ChatRequest {
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  readonly tools?: readonly ToolDefinition[];
  readonly temperature?: number;
  readonly maxOutputTokens?: number;
  /** Ask the server to stream; deltas are reported through the client's onEvent. */
  readonly stream?: boolean;
}

/** Token counts, whatever the protocol called them. */
export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly totalTokens: number;
}

/** The assistant's reply. */
export interface AssistantMessage {
  readonly role: 'assistant';
  readonly content: string;
  readonly toolCalls: readonly ToolCall[];
  /** Reasoning text the server exposed (summaries or details), if any. */
  readonly reasoning: string | null;
  /** Protocol payloads kept as they came (e.g. `reasoning` items of /responses). */
  readonly extra: Readonly<Record<string, unknown>>;
}

/** One normalised response, the same for /chat/completions, /responses and Ollama's /api/chat. */
export interface ChatResponse {
  readonly id: string | null;
  readonly model: string | null;
  readonly message: AssistantMessage;
  readonly finishReason: string | null;
  readonly usage: Usage | null;
}

/** Wire protocols the client speaks. */
export const LLM_PROTOCOLS = ['completions', 'responses', 'ollama'] as const;
export type LlmProtocol = (typeof LLM_PROTOCOLS)[number];

/** What a request reports while it runs: answer and reasoning deltas, and retries. */
export type LlmEvent =
  | { readonly type: 'text-delta'; readonly text: string }
  | { readonly type: 'reasoning-delta'; readonly text: string }
  | { readonly type: 'retry'; readonly attempt: number; readonly delayMs: number; readonly reason: string };

/** Receives events as they happen. */
export type LlmEventSink = (event: LlmEvent) => void;

/** An empty assistant message, the start of every accumulation. */
export function emptyAssistant(): AssistantMessage {
  return { role: 'assistant', content: '', toolCalls: [], reasoning: null, extra: {} };
}
