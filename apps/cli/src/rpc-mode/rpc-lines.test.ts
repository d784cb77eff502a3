import { describe, expect, it } from 'vitest';
import { rpcLines, type RpcLine } from './rpc-lines';

async function linesOf(chunks: Array<string | Uint8Array>, maxBytes?: number): Promise<RpcLine[]> {
  const read: RpcLine[] = [];
  async function* input() {
    yield* chunks;
  }
  for await (const line of rpcLines(input(), maxBytes)) read.push(line);
  return read;
}

describe('rpcLines', () => {
  it('splits on LF only, across chunks, dropping one trailing CR and blank lines', async () => {
    expect(await linesOf(['{"a":', '1}\r\n\n  \n{"b"', ':2}\n{"c":3}'])).toEqual([
      { text: '{"a":1}' },
      { text: '{"b":2}' },
      { text: '{"c":3}' },
    ]);
  });

  it('keeps U+2028 and U+2029 inside a line, and a character split between chunks', async () => {
    const text = '{"m":"a\u2028b\u2029c é"}';
    const bytes = Buffer.from(`${text}\n`, 'utf8');
    const split = bytes.indexOf(0xc3) + 1;
    expect(await linesOf([bytes.subarray(0, split), bytes.subarray(split)])).toEqual([{ text }]);
  });

  it('refuses a line over the bound by its length, and reads the next one', async () => {
    expect(await linesOf(['x'.repeat(6), 'x'.repeat(6), '\n{"ok":1}\n', 'y'.repeat(11), '\n'], 10)).toEqual([
      { tooLong: 12 },
      { text: '{"ok":1}' },
      { tooLong: 11 },
    ]);
  });
});
