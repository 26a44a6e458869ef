import { createChatClient } from '../../llm/client.js';
import { LlmError } from '../../llm/errors.js';
import { listOllamaModels } from '../../llm/models.js';
import { ollamaBaseUrl } from '../../llm/ollama.js';
import { OllamaBackendError } from '../errors.js';
import type { Backend, BackendRunInput } from './types.js';

/** The model to ask: --model, else OLLAMA_MODEL, else the server's most recent model. */
async function chooseModel(input: BackendRunInput, baseUrl: string, signal: AbortSignal): Promise<string> {
  const configured = input.model ?? input.env.OLLAMA_MODEL?.trim();
  if (configured) return configured;
  let models: string[];
  try {
    models = await listOllamaModels(baseUrl, input.deps.fetch, signal);
  } catch (error) {
    throw toBackendError(new LlmError('CONNECTION', `Could not list models at ${baseUrl}/api/tags: ${(error as Error).message}`), baseUrl, input, false);
  }
  const first = models[0];
  if (!first) throw new OllamaBackendError('NO_MODEL', `Ollama at ${baseUrl} has no model to answer with: pass --model, set OLLAMA_MODEL, or run \`ollama pull <model>\``);
  return first;
}

function toBackendError(error: LlmError, baseUrl: string, input: BackendRunInput, timedOut: boolean): OllamaBackendError {
  const seconds = input.timeoutMs / 1000;
  if (timedOut) return new OllamaBackendError('TIMEOUT', `ollama timed out after ${seconds} second${seconds === 1 ? '' : 's'}`);
  switch (error.code) {
    case 'CANCELLED':
      return new OllamaBackendError('CANCELLED', 'ollama was cancelled');
    case 'CONNECTION':
      return new OllamaBackendError('UNREACHABLE', `Ollama is not reachable at ${baseUrl} (is \`ollama serve\` running? set OLLAMA_HOST if it listens elsewhere): ${error.message}`);
    case 'TIMEOUT':
      return new OllamaBackendError('TIMEOUT', `ollama timed out: ${error.message}`);
    case 'HTTP':
      return new OllamaBackendError('HTTP', `Ollama refused the request: ${error.message}`);
    default:
      return new OllamaBackendError('REPORTED_ERROR', error.message);
  }
}

/** The Ollama HTTP backend (`POST /api/chat`, streamed NDJSON), at OLLAMA_HOST or localhost:11434. */
export const ollamaBackend: Backend = {
  name: 'ollama',
  capabilities: {
    transport: 'http',
    // Ollama only generates text; it cannot touch the repository, so only read-only is honest.
    sandboxes: ['read-only'],
    nativeReview: null,
    streaming: 'answer',
  },
  async run(input) {
    const baseUrl = ollamaBaseUrl(input.env.OLLAMA_HOST);
    // One deadline for the whole relay (model lookup, retries and stream), as for the CLIs.
    const deadline = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      deadline.abort();
    }, input.timeoutMs);
    const signal = input.signal ? AbortSignal.any([input.signal, deadline.signal]) : deadline.signal;
    try {
      const model = await chooseModel(input, baseUrl, signal);
      const client = createChatClient({
        baseUrl,
        protocol: 'ollama',
        fetch: input.deps.fetch,
        ...(input.deps.retry ? { retry: input.deps.retry } : {}),
        ...(input.deps.sleep ? { sleep: input.deps.sleep } : {}),
        timeoutMs: input.timeoutMs,
        idleTimeoutMs: input.timeoutMs,
      });
      const response = await client.chat(
        { model, messages: [{ role: 'user', content: input.prompt }], stream: true },
        {
          signal,
          onEvent: (event) => {
            if (event.type === 'text-delta') input.onEvent?.({ type: 'delta', text: event.text });
            else if (event.type === 'retry') input.onEvent?.({ type: 'warning', text: `ollama: retry ${event.attempt} in ${event.delayMs} ms (${event.reason})` });
          },
        },
      );
      const text = response.message.content.trim();
      if (!text) throw new OllamaBackendError('EMPTY_ANSWER', 'ollama completed without producing an answer');
      return { text };
    } catch (error) {
      if (error instanceof OllamaBackendError) throw error;
      if (error instanceof LlmError) throw toBackendError(error, baseUrl, input, timedOut && !input.signal?.aborted);
      throw error;
    } finally {
      clearTimeout(timer);
    }
  },
};
