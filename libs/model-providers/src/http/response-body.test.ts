import { PassThrough } from 'node:stream';
import { brotliCompressSync, constants, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodedBody } from './response-body';
import { StreamTextReader } from './stream-text-reader';

const answer = 'data: {"delta":"héllo wörld — 世界 🎉"}\n\ndata: {"delta":"ok"}\n\ndata: [DONE]\n\n';

const encoders: Record<string, (bytes: Buffer) => Buffer> = {
  identity: (bytes) => bytes,
  gzip: (bytes) => gzipSync(bytes),
  deflate: (bytes) => deflateSync(bytes),
  br: (bytes) => brotliCompressSync(bytes),
};

/** Writes `bytes` into a body cut at `cuts`, one network chunk per piece, and reads it back as the client does. */
async function readBack(bytes: Buffer, cuts: readonly number[], contentEncoding: string | undefined) {
  const wire = new PassThrough();
  const reader = new StreamTextReader(decodedBody(wire, contentEncoding));
  const pieces: string[] = [];
  const reading = (async () => {
    for (let piece = await reader.read(); piece !== null; piece = await reader.read()) pieces.push(piece);
  })();
  let from = 0;
  for (const cut of [...new Set(cuts)].sort((left, right) => left - right)) {
    wire.write(bytes.subarray(from, cut));
    from = cut;
    await new Promise((resolve) => setImmediate(resolve));
  }
  wire.end(bytes.subarray(from));
  await reading;
  return pieces;
}

describe('a response body', () => {
  it.each(Object.keys(encoders))(
    'in the %s coding reads as the text sent, however its bytes are split between chunks',
    async (coding) => {
      const bytes = (encoders[coding] as (bytes: Buffer) => Buffer)(Buffer.from(answer, 'utf8'));
      await fc.assert(
        fc.asyncProperty(fc.array(fc.integer({ min: 1, max: bytes.length - 1 }), { maxLength: 12 }), async (cuts) => {
          const pieces = await readBack(bytes, cuts, coding);
          expect(pieces.join('')).toBe(answer);
          // A character is never cut in two: no piece holds half of a surrogate pair or a replacement character.
          for (const piece of pieces) expect(piece).not.toMatch(/\uFFFD|^[\uDC00-\uDFFF]|[\uD800-\uDBFF]$/);
        }),
        { numRuns: 40 },
      );
    },
  );

  it('splits every byte apart and still reads each character whole', async () => {
    const bytes = Buffer.from(answer, 'utf8');
    const pieces = await readBack(
      bytes,
      Array.from({ length: bytes.length - 1 }, (_, index) => index + 1),
      undefined,
    );
    expect(pieces.join('')).toBe(answer);
    expect(pieces.some((piece) => piece === '世')).toBe(true);
  });

  it('reads raw deflate too, which some servers send as "deflate"', async () => {
    expect((await readBack(deflateRawSync(Buffer.from(answer)), [3, 10], 'deflate')).join('')).toBe(answer);
  });

  it('reads a stream flushed event by event as each event arrives, before the body ends', async () => {
    const wire = new PassThrough();
    const reader = new StreamTextReader(decodedBody(wire, 'gzip'));
    const { createGzip } = await import('node:zlib');
    const gzip = createGzip();
    gzip.pipe(wire);
    gzip.write('data: first\n\n');
    gzip.flush(constants.Z_SYNC_FLUSH);
    expect(await reader.read()).toBe('data: first\n\n');
    gzip.write('data: second\n\n');
    gzip.flush(constants.Z_SYNC_FLUSH);
    expect(await reader.read()).toBe('data: second\n\n');
    gzip.end();
    expect(await reader.read()).toBeNull();
  });

  it('undoes codings applied one after another, the last applied first', async () => {
    const twice = brotliCompressSync(gzipSync(Buffer.from(answer)));
    expect((await readBack(twice, [5], 'gzip, br')).join('')).toBe(answer);
  });

  it('passes a coding it does not know through untouched, as fetch does', async () => {
    expect((await readBack(Buffer.from(answer), [7], 'zstd')).join('')).toBe(answer);
  });

  it('fails the read with the decoder error when a compressed body is corrupt', async () => {
    const wire = new PassThrough();
    const reader = new StreamTextReader(decodedBody(wire, 'gzip'));
    wire.end(Buffer.from('this is not gzip at all'));
    await expect(reader.text()).rejects.toMatchObject({ code: 'Z_DATA_ERROR' });
  });

  it('gives what arrived before a break, then the break', async () => {
    const wire = new PassThrough();
    const reader = new StreamTextReader(decodedBody(wire, undefined));
    wire.write('data: partial\n\n');
    await new Promise((resolve) => setImmediate(resolve));
    wire.destroy(Object.assign(new Error('aborted'), { code: 'ECONNRESET' }));
    expect(await reader.read()).toBe('data: partial\n\n');
    await expect(reader.read()).rejects.toMatchObject({ code: 'ECONNRESET' });
  });
});
