/** One POST of a provider's request: the whole body is known up front, the answer is read as it arrives. */
export interface PostRequest {
  readonly url: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
  /** Aborting it ends the exchange wherever it is: the connection is closed, a pending read rejects. */
  readonly signal: AbortSignal;
}

/** A server's answer whose body has not been read yet. */
export interface PostResponse {
  readonly status: number;
  readonly statusText: string;
  /** A response header by its name in any case; null when the server did not send it. */
  header(name: string): string | null;
  /**
   * The next piece of the body as text, decompressed and decoded from UTF-8 (a character split between two
   * network chunks arrives whole); null once the body has ended. Rejects when the connection breaks or the
   * request's signal aborts.
   */
  read(): Promise<string | null>;
  /** The rest of the body as one text. */
  text(): Promise<string>;
  /**
   * Done with this response. A body that has fully arrived is drained, and this resolves once its connection is
   * back in the pool, so a request made next can use it. One still arriving is read on and dropped for a short
   * grace, its connection kept if it ends within it and closed otherwise; this resolves at once. Safe to call more
   * than once.
   */
  cancel(): Promise<void>;
}

/** How a provider sends its requests: the built-in client (`nodeHttpPost`), or an injected `fetch` (`fetchPost`). */
export type HttpPost = (request: PostRequest) => Promise<PostResponse>;
