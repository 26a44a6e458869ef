import { llmFail, type LlmResult } from './errors.js';
import { asArray, asRecord, asString } from './json.js';

/**
 * Names of the models an Ollama server has (GET /api/tags), most recently changed first as
 * Ollama lists them; empty when the server answers but lists none. A server that cannot be
 * reached (or a request aborted by `signal`) is the failure CONNECTION.
 */
export async function listOllamaModels(baseUrl: string, doFetch: typeof fetch, signal?: AbortSignal): Promise<LlmResult<string[]>> {
  const url = `${baseUrl.replace(/\/+$/, '')}/api/tags`;
  try {
    const response = await doFetch(url, { ...(signal ? { signal } : {}) });
    if (!response.ok) {
      await response.body?.cancel();
      return { ok: true, value: [] };
    }
    const body = asRecord(await response.json().catch(() => null));
    const names = asArray(body?.models).flatMap((m) => {
      const name = asString(asRecord(m)?.name) ?? asString(asRecord(m)?.model);
      return name ? [name] : [];
    });
    return { ok: true, value: names };
  } catch (error) {
    // fetch reports an unreachable server (and an abort) by throwing.
    return llmFail('CONNECTION', `Could not list models at ${url}: ${(error as Error).message}`);
  }
}
