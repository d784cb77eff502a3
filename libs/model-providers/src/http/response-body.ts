import { pipeline, Transform, type Readable, type TransformCallback } from 'node:stream';
import {
  constants,
  createBrotliDecompress,
  createGunzip,
  createInflate,
  createInflateRaw,
  type Inflate,
  type InflateRaw,
} from 'node:zlib';

/** What the client asks for: what fetch asked for (gzip, deflate), and brotli, which fetch decoded too. */
export const ACCEPTED_ENCODINGS = 'gzip, deflate, br';

/**
 * The response's body as a text stream: its content codings undone, the last applied first (a coding this does not
 * know passes the bytes through, as fetch's does), then UTF-8 decoded by the stream's own decoder, which holds back
 * a character split between chunks. Flushing is lenient, as undici's: a server that flushes per event is read per
 * event, and a body cut short yields what arrived before the cut.
 */
export function decodedBody(response: Readable, contentEncoding: string | undefined): Readable {
  const decoders = (contentEncoding ?? '')
    .toLowerCase()
    .split(',')
    .reverse()
    .map((coding) => decoderFor(coding.trim()))
    .filter((decoder) => decoder !== null);
  // pipeline destroys every stage with the first error: a reset connection reaches the reader of the last stage
  // as that error, and a decoding error closes the connection.
  const body =
    decoders.length === 0 ? response : (pipeline([response, ...decoders], () => undefined) as unknown as Readable);
  body.setEncoding('utf8');
  return body;
}

const ZLIB_LENIENT = { flush: constants.Z_SYNC_FLUSH, finishFlush: constants.Z_SYNC_FLUSH };
const BROTLI_LENIENT = { flush: constants.BROTLI_OPERATION_FLUSH, finishFlush: constants.BROTLI_OPERATION_FLUSH };

function decoderFor(coding: string): Transform | null {
  switch (coding) {
    case 'gzip':
    case 'x-gzip':
      return createGunzip(ZLIB_LENIENT);
    case 'deflate':
      return new DeflateDecoder();
    case 'br':
      return createBrotliDecompress(BROTLI_LENIENT);
    default:
      return null;
  }
}

/**
 * "deflate" is meant zlib-wrapped (RFC 9110), but some servers send it raw: the first byte tells them apart (a zlib
 * header's low nibble is 8, the deflate method), as undici's decoder does.
 */
class DeflateDecoder extends Transform {
  #inflater: Inflate | InflateRaw | null = null;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (this.#inflater === null) {
      if (chunk.length === 0) return done();
      const inflater = ((chunk[0] ?? 0) & 0x0f) === 0x08 ? createInflate(ZLIB_LENIENT) : createInflateRaw(ZLIB_LENIENT);
      inflater.on('data', (decoded: Buffer) => this.push(decoded));
      inflater.on('error', (error) => this.destroy(error));
      this.#inflater = inflater;
    }
    this.#inflater.write(chunk, () => done());
  }

  override _flush(done: TransformCallback): void {
    if (this.#inflater === null) return done();
    this.#inflater.once('end', () => done());
    this.#inflater.end();
  }

  override _destroy(error: Error | null, done: (error: Error | null) => void): void {
    this.#inflater?.destroy();
    done(error);
  }
}
