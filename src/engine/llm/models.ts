import { asArray, asRecord, asString } from './json.js';

/**
 * Names of the models an Ollama server has (GET /api/tags), most recently changed first as
 * Ollama lists them; empty when the server answers but lists none. Throws what fetch throws.
 */
export async function listOllamaModels(baseUrl: string, doFetch: typeof fetch, signal?: AbortSignal): Promise<string[]> {
  const response = await doFetch(`${baseUrl.replace(/\/+$/, '')}/api/tags`, { ...(signal ? { signal } : {}) });
  if (!response.ok) {
    await response.body?.cancel();
    return [];
  }
  const body = asRecord(await response.json().catch(() => null));
  return asArray(body?.models).flatMap((m) => {
    const name = asString(asRecord(m)?.name) ?? asString(asRecord(m)?.model);
    return name ? [name] : [];
  });
}
