// The HTTP model client: one request shape in, one response shape out, over
// /chat/completions, /responses or Ollama's /api/chat, with streaming and bounded retries.
export { createChatClient, endpointFor, notFoundHint, type ChatCallOptions, type ChatClient, type ChatClientOptions } from './client.js';
export { isRetryable, llmFail, llmFailure, type LlmErrorCode, type LlmFailure, type LlmFailureDetails, type LlmResult } from './errors.js';
export { DEFAULT_OLLAMA_HOST, ollamaBaseUrl } from './ollama.js';
export { DEFAULT_RETRY, type RetryPolicy } from './retry.js';
export { parseSse, SseParser, type SseEvent } from './sse.js';
export { parseNdjson, NdjsonParser } from './ndjson.js';
export {
  LLM_PROTOCOLS,
  type AssistantMessage,
  type ChatMessage,
  type ChatRequest,
  type ChatResponse,
  type LlmEvent,
  type LlmEventSink,
  type LlmProtocol,
  type ToolCall,
  type ToolDefinition,
  type Usage,
} from './types.js';
export { listOllamaModels } from './models.js';
