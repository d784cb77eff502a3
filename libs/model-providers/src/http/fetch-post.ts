import type { HttpPost, PostResponse } from './http-post';

/**
 * A provider's POST through an injected `fetch` (tests that script a failure no server can produce, or an embedder
 * with a dispatcher of its own, e.g. a proxy): the same answer shape as the built-in client's.
 */
export function fetchPost(fetchImpl: typeof fetch): HttpPost {
  return async (request) => {
    const response = await fetchImpl(request.url, {
      method: 'POST',
      headers: { ...request.headers },
      body: request.body,
      signal: request.signal,
    });
    return fetchedResponse(response);
  };
}

function fetchedResponse(response: Response): PostResponse {
  const reader = response.body?.getReader();
  const text = new TextDecoder();
  let ended = reader === undefined;
  const read = async (): Promise<string | null> => {
    while (!ended && reader !== undefined) {
      const chunk = await reader.read();
      if (chunk.done) {
        ended = true;
        const rest = text.decode();
        return rest === '' ? null : rest;
      }
      const piece = text.decode(chunk.value, { stream: true });
      if (piece !== '') return piece;
    }
    return null;
  };
  return {
    status: response.status,
    statusText: response.statusText,
    header: (name) => response.headers.get(name),
    read,
    async text() {
      let whole = '';
      for (let piece = await read(); piece !== null; piece = await read()) whole += piece;
      return whole;
    },
    async cancel() {
      ended = true;
      await reader?.cancel().catch(() => undefined);
    },
  };
}
