/** A line longer than this is refused whole (one error line), and reading goes on after its LF. */
export const MAX_RPC_LINE_BYTES = 8 * 1024 * 1024;

/** One record of the input: its text, or the length of one too long to read. */
export type RpcLine = { readonly text: string } | { readonly tooLong: number };

/**
 * LF-delimited records of a byte stream, as strict JSONL has them: split on `\n` only (never on U+2028 or U+2029,
 * which JSON strings may hold, as Node's readline would), one trailing `\r` dropped, blank lines skipped. The text
 * after the last LF is a record too.
 */
export async function* rpcLines(
  input: AsyncIterable<Uint8Array | string>,
  maxBytes = MAX_RPC_LINE_BYTES,
): AsyncGenerator<RpcLine> {
  let held: Buffer[] = [];
  let heldBytes = 0;
  /** The record under way is past the bound: its bytes are counted, not kept. */
  let tooLong = false;
  const end = (tail: Buffer): RpcLine | undefined => {
    const bytes = heldBytes + tail.length;
    const parts = [...held, tail];
    held = [];
    heldBytes = 0;
    if (tooLong || bytes > maxBytes) {
      tooLong = false;
      return { tooLong: bytes };
    }
    const text = Buffer.concat(parts).toString('utf8').replace(/\r$/, '');
    return text.trim() === '' ? undefined : { text };
  };
  for await (const chunk of input) {
    let rest = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : Buffer.from(chunk);
    for (let newline = rest.indexOf(0x0a); newline !== -1; newline = rest.indexOf(0x0a)) {
      const line = end(rest.subarray(0, newline));
      rest = rest.subarray(newline + 1);
      if (line !== undefined) yield line;
    }
    heldBytes += rest.length;
    if (heldBytes > maxBytes) {
      tooLong = true;
      held = [];
    } else if (!tooLong) held.push(rest);
  }
  const last = end(Buffer.alloc(0));
  if (last !== undefined) yield last;
}
