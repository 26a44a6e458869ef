// The chat shape /chat/completions and Ollama's /api/chat share: role/content turns and
// function tools. The two differ only in how a tool call and a tool result are written.
import { assertNever } from '../result.js';
import type { ChatMessage, ChatRequest, ToolCall } from './types.js';

/** How one protocol writes what the chat shape leaves open. */
export interface ChatDialect {
  /** One tool call of an assistant turn. */
  readonly toolCall: (call: ToolCall) => Record<string, unknown>;
  /** A tool's result turn. */
  readonly toolResult: (message: Extract<ChatMessage, { role: 'tool' }>) => Record<string, unknown>;
}

/** One turn as the chat shape writes it. */
export function chatWireMessage(message: ChatMessage, dialect: ChatDialect): Record<string, unknown> {
  switch (message.role) {
    case 'system':
    case 'user':
      return { role: message.role, content: message.content };
    case 'assistant':
      return {
        role: 'assistant',
        content: message.content,
        ...(message.toolCalls && message.toolCalls.length > 0 ? { tool_calls: message.toolCalls.map(dialect.toolCall) } : {}),
      };
    case 'tool':
      return dialect.toolResult(message);
    default:
      return assertNever(message);
  }
}

/** The request's model, turns and tools (`{type: 'function', function: {...}}`) in the chat shape. */
export function chatBody(request: ChatRequest, dialect: ChatDialect): Record<string, unknown> {
  const body: Record<string, unknown> = { model: request.model, messages: request.messages.map((m) => chatWireMessage(m, dialect)) };
  if (request.tools && request.tools.length > 0) {
    body.tools = request.tools.map((t) => ({ type: 'function', function: { name: t.name, ...(t.description ? { description: t.description } : {}), parameters: t.parameters } }));
  }
  return body;
}
