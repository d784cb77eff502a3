/**
 * Why `text` is not a pi host's TCP address, or undefined when it is one: a `ws:` or `wss:` URL with a host. The
 * reason completes "--flag …" in a one-line usage error.
 */
export function webSocketUrlProblem(text: string): string | undefined {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return `takes a ws:// or wss:// URL such as wss://host:7443/, not "${text}"`;
  }
  if (url.protocol !== 'ws:' && url.protocol !== 'wss:')
    return `takes a ws:// or wss:// URL, not ${url.protocol.replace(/:$/, '')}: "${text}"`;
  return url.hostname === '' ? `takes a URL with a host, not "${text}"` : undefined;
}
