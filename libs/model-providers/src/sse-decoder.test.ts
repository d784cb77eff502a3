import { describe, expect, it } from 'vitest';
import { SseDecoder } from './sse-decoder';

function decodeInPieces(pieces: string[]): string[] {
  const decoder = new SseDecoder();
  return [...pieces.flatMap((piece) => decoder.push(piece)), ...decoder.finish()];
}

const wire = ': keep-alive\r\n\r\ndata: {"a":1}\r\n\r\nevent: message\nid: 7\ndata: {"b":\ndata: 2}\n\ndata:[DONE]\r\r';

describe('SseDecoder', () => {
  it('decodes data events, skipping comments and other fields, across CRLF, LF and CR line breaks', () => {
    expect(decodeInPieces([wire])).toEqual(['{"a":1}', '{"b":\n2}', '[DONE]']);
  });

  it('decodes the same events however the stream is split into chunks', () => {
    for (let first = 0; first <= wire.length; first += 1) {
      for (let second = first; second <= wire.length; second += 7) {
        const pieces = [wire.slice(0, first), wire.slice(first, second), wire.slice(second)];
        expect(decodeInPieces(pieces), `split at ${first}/${second}`).toEqual(['{"a":1}', '{"b":\n2}', '[DONE]']);
      }
    }
  });

  it('treats a CR at the end of one chunk and a LF at the start of the next as one line break', () => {
    expect(decodeInPieces(['data: x\r', '\n\r', '\ndata: y\r\n\r\n'])).toEqual(['x', 'y']);
  });

  it('dispatches complete data lines at the end even without the closing blank line', () => {
    expect(decodeInPieces(['data: [DONE]\n'])).toEqual(['[DONE]']);
  });

  it('drops a last line the connection cut off', () => {
    expect(decodeInPieces(['data: {"a":1}\n\ndata: {"choi'])).toEqual(['{"a":1}']);
  });
});
