import { ANTHROPIC_VERSION, type ProviderConfig } from '@pi/model-providers';

export interface ProbeOptions {
  readonly fetch: typeof fetch;
  /** The refresh call's signal: its abort cancels the probe and rejects. */
  readonly signal: AbortSignal | undefined;
  /** A probe that gets no answer in this time is reported, not waited for. */
  readonly timeoutMs: number;
}

/**
 * Asks one configured server for its model list (`GET <baseUrl>/models`, or `/v1/models` with Anthropic's
 * headers for a server speaking its protocol; Gemini's key header for Google's), the cheapest request that proves the address, the network path
 * and the key. Resolves null when it answers 2xx, else a one-line reason that
 * names neither the key nor the response body. Rejects only when the caller's signal aborts.
 */
export async function probeProvider(
  provider: ProviderConfig,
  apiKey: string | undefined,
  needsKey: boolean,
  options: ProbeOptions,
): Promise<string | null> {
  if (needsKey && (apiKey === undefined || apiKey === '')) {
    return provider.apiKeyEnv === null
      ? 'no API key is stored'
      : `no API key is stored and ${provider.apiKeyEnv} is not set`;
  }
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal === undefined ? timeout : AbortSignal.any([options.signal, timeout]);
  try {
    const anthropic = provider.api === 'anthropic';
    const base = provider.baseUrl.replace(/\/+$/, '');
    const keyHeaders: Record<string, string> =
      apiKey === undefined
        ? {}
        : anthropic
          ? { 'x-api-key': apiKey, 'anthropic-version': ANTHROPIC_VERSION }
          : provider.api === 'google'
            ? { 'x-goog-api-key': apiKey }
            : { authorization: `Bearer ${apiKey}` };
    const response = await options.fetch(anthropic ? `${base}/v1/models` : `${base}/models`, {
      headers: { ...provider.headers, ...keyHeaders },
      signal,
    });
    await response.body?.cancel().catch(() => undefined);
    return response.ok ? null : `HTTP ${response.status}${response.statusText === '' ? '' : ` ${response.statusText}`}`;
  } catch (error) {
    options.signal?.throwIfAborted();
    if (timeout.aborted) return `no answer within ${options.timeoutMs} ms`;
    return `unreachable (${networkCode(error)})`;
  }
}

/** `ECONNREFUSED` and the like, from fetch's `cause`; never the message, which may carry the URL's userinfo. */
function networkCode(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  return typeof cause?.code === 'string' ? cause.code : 'network error';
}
