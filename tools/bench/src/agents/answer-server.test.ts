import { afterEach, describe, expect, it } from 'vitest';
import {
  askPrompt,
  endMarker,
  parsePrompt,
  startAnswerServer,
  streamPrompt,
  words,
  type AnswerServer,
} from './answer-server';

const servers: AnswerServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

/** The text of a streamed chat completion, from its SSE body. */
function contentOf(body: string): string {
  return body
    .split('\n\n')
    .filter((event) => event.startsWith('data: {'))
    .map((event) => (JSON.parse(event.slice(6)) as { choices: [{ delta: { content?: string } }] }).choices[0])
    .map((choice) => choice.delta.content ?? '')
    .join('');
}

async function ask(server: AnswerServer, content: unknown): Promise<string> {
  const response = await fetch(`${server.baseUrl}/chat/completions`, {
    method: 'POST',
    body: JSON.stringify({
      messages: [
        { role: 'system', content: 'x' },
        { role: 'user', content },
      ],
    }),
  });
  return contentOf(await response.text());
}

describe('parsePrompt', () => {
  it('reads the kind and turn of the last user message, as text or as parts', () => {
    const body = (content: unknown) => ({ messages: [{ role: 'user', content }] });
    expect(parsePrompt(body(askPrompt(7)))).toEqual({ kind: 'ask', turn: 7 });
    expect(parsePrompt(body([{ type: 'text', text: streamPrompt(3) }]))).toEqual({ kind: 'stream', turn: 3 });
    expect(parsePrompt(body('what is this'))).toBeUndefined();
    expect(parsePrompt(null)).toBeUndefined();
  });
});

describe('the answer server', () => {
  it('answers a short prompt at once and a long one in pieces, each ending with its marker', async () => {
    const server = await startAnswerServer({ askWords: 3, streamPieces: 4, wordsPerPiece: 2, pieceGapMs: 0 });
    servers.push(server);
    expect(await ask(server, askPrompt(1))).toBe(`alpha bravo delta ${endMarker(1)}`);
    const started = server.nextStreamStart();
    const long = await ask(server, [{ type: 'text', text: streamPrompt(2) }]);
    await started;
    expect(long.split(' ').filter((word) => word !== '')).toHaveLength(4 * 2 + 1);
    expect(long.endsWith(endMarker(2))).toBe(true);
    expect(await ask(server, 'a title, please')).toBe('ok');
    expect(server.requests()).toBe(3);
  });

  it('no prompt contains an end marker, and no answer a capital', () => {
    expect(askPrompt(12)).not.toContain(endMarker(12));
    expect(streamPrompt(12)).not.toContain(endMarker(12));
    expect(endMarker(12)).toBe(endMarker(12).toLowerCase());
    expect(words(100)).toBe(words(100).toLowerCase());
  });
});
