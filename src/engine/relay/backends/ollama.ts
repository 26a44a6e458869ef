import { createChatClient } from '../../llm/client.js';
import type { LlmFailure } from '../../llm/errors.js';
import { listOllamaModels } from '../../llm/models.js';
import { ollamaBaseUrl } from '../../llm/ollama.js';
import { fail, ok, type Failure } from '../../result.js';
import type { BackendErrorCode, BackendResult } from '../errors.js';
import { answerOf } from './cli.js';
import type { Backend, BackendRunInput } from './types.js';

/** The model to ask: --model, else OLLAMA_MODEL, else the server's most recent model. */
async function chooseModel(input: BackendRunInput, baseUrl: string, signal: AbortSignal): Promise<BackendResult<string>> {
  const configured = input.model ?? input.env.OLLAMA_MODEL?.trim();
  if (configured) return ok(configured);
  const models = await listOllamaModels(baseUrl, input.deps.fetch, signal);
  if (!models.ok) return { ok: false, error: toBackendFailure(models.error, baseUrl, input, false) };
  const first = models.value[0];
  if (!first) return fail('NO_MODEL', `Ollama at ${baseUrl} has no model to answer with: pass --model, set OLLAMA_MODEL, or run \`ollama pull <model>\``);
  return ok(first);
}

/** The HTTP client's failure in the relay's words (what to check, which variable to set). */
function toBackendFailure(error: LlmFailure, baseUrl: string, input: BackendRunInput, timedOut: boolean): Failure<BackendErrorCode> {
  const seconds = input.timeoutMs / 1000;
  if (timedOut) return { code: 'TIMEOUT', message: `ollama timed out after ${seconds} second${seconds === 1 ? '' : 's'}` };
  switch (error.code) {
    case 'CANCELLED':
      return { code: 'CANCELLED', message: 'ollama was cancelled' };
    case 'CONNECTION':
      return { code: 'UNREACHABLE', message: `Ollama is not reachable at ${baseUrl} (is \`ollama serve\` running? set OLLAMA_HOST if it listens elsewhere): ${error.message}` };
    case 'TIMEOUT':
      return { code: 'TIMEOUT', message: `ollama timed out: ${error.message}` };
    case 'HTTP':
      return { code: 'HTTP', message: `Ollama refused the request: ${error.message}` };
    default:
      return { code: 'REPORTED_ERROR', message: error.message };
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
      if (!model.ok) return model;
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
        { model: model.value, messages: [{ role: 'user', content: input.prompt }], stream: true },
        {
          signal,
          onEvent: (event) => {
            if (event.type === 'text-delta') input.onEvent?.({ type: 'delta', text: event.text });
            else if (event.type === 'retry') input.onEvent?.({ type: 'warning', text: `ollama: retry ${event.attempt} in ${event.delayMs} ms (${event.reason})` });
          },
        },
      );
      if (!response.ok) return { ok: false, error: toBackendFailure(response.error, baseUrl, input, timedOut && !input.signal?.aborted) };
      return answerOf('ollama', response.value.message.content);
    } finally {
      clearTimeout(timer);
    }
  },
};
