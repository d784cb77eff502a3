import type { ServerResponse } from 'node:http';
import { performance } from 'node:perf_hooks';
import { beginEventStream, chunkEvent, startFakeChatServer, writePiece } from '@pi/model-providers/testing';

/**
 * The one local OpenAI-compatible server both agents talk to. A prompt `ask <n>` gets a short answer at once; a
 * prompt `stream <n>` gets a long one (~2,000 tokens) written a piece at a time, paced like a fast model. Every
 * answer ends with `endMarker(n)`, which no prompt contains, so its appearance on screen means the answer's last
 * token was painted.
 */
export interface AnswerServer {
  readonly baseUrl: string;
  /** How many chat completions were asked for. */
  readonly requests: () => number;
  /** Resolves with performance.now() when the next long answer's first piece has been written. */
  nextStreamStart(): Promise<number>;
  close(): Promise<void>;
}

export const MODEL_ID = 'bench-model';
export const PROVIDER_ID = 'bench';

export const askPrompt = (turn: number) => `ask ${turn}`;
export const streamPrompt = (turn: number) => `stream ${turn}`;
export const endMarker = (turn: number) => `fin${turn}of${turn}`;

/** Lowercase words only: keys typed during a stream are capitals, so their echo is never mistaken for the answer. */
const WORDS = ['alpha', 'bravo', 'delta', 'echo', 'golf', 'hotel', 'india', 'lima', 'mike', 'oscar', 'romeo', 'tango'];

export interface AnswerShape {
  /** Words in a short answer. */
  readonly askWords: number;
  /** Pieces of a long answer and words in each (1,500 words is ~2,000 tokens). */
  readonly streamPieces: number;
  readonly wordsPerPiece: number;
  /** Between two pieces of a long answer. */
  readonly pieceGapMs: number;
}

export const DEFAULT_SHAPE: AnswerShape = { askWords: 60, streamPieces: 300, wordsPerPiece: 5, pieceGapMs: 16 };

export function words(count: number, offset = 0): string {
  return Array.from({ length: count }, (_, index) => WORDS[(index + offset) % WORDS.length]).join(' ');
}

/** The prompt's kind and turn, from the last user message of a chat completion request body. */
export function parsePrompt(body: unknown): { kind: 'ask' | 'stream'; turn: number } | undefined {
  const messages = (body as { messages?: Array<{ role?: string; content?: unknown }> } | null)?.messages ?? [];
  const last = messages.filter((message) => message.role === 'user').at(-1);
  const content = last?.content;
  const text =
    typeof content === 'string'
      ? content
      : Array.isArray(content)
        ? content.map((part: { text?: string }) => part.text ?? '').join('')
        : '';
  const match = /\b(ask|stream) (\d+)\s*$/.exec(text.trim());
  return match === null ? undefined : { kind: match[1] as 'ask' | 'stream', turn: Number(match[2]) };
}

export async function startAnswerServer(shape: AnswerShape = DEFAULT_SHAPE): Promise<AnswerServer> {
  let count = 0;
  const open = new Set<ServerResponse>();
  let closing = false;
  const streamWaiters: Array<(at: number) => void> = [];
  const server = await startFakeChatServer(async (request, response) => {
    count += 1;
    beginEventStream(response);
    open.add(response);
    response.once('close', () => open.delete(response));
    const prompt = parsePrompt(request.body);
    if (prompt === undefined) {
      // Anything else an agent asks for (a title, say): a short answer.
      response.end(`${chunkEvent({ content: 'ok' })}${chunkEvent({}, 'stop')}data: [DONE]\n\n`);
      return;
    }
    const end = ` ${endMarker(prompt.turn)}`;
    if (prompt.kind === 'ask') {
      response.end(`${chunkEvent({ content: words(shape.askWords) + end })}${chunkEvent({}, 'stop')}data: [DONE]\n\n`);
      return;
    }
    for (let piece = 0; piece < shape.streamPieces && !closing && !response.destroyed; piece++) {
      const text = `${words(shape.wordsPerPiece, piece)}${piece % 12 === 11 ? '\n\n' : ' '}`;
      await writePiece(response, chunkEvent({ content: text }));
      if (piece === 0) for (const waiter of streamWaiters.splice(0)) waiter(performance.now());
      await new Promise((resolve) => setTimeout(resolve, shape.pieceGapMs));
    }
    if (!response.destroyed) response.end(`${chunkEvent({ content: end }, 'stop')}data: [DONE]\n\n`);
  });
  return {
    baseUrl: server.baseUrl,
    requests: () => count,
    nextStreamStart: () => new Promise((resolve) => streamWaiters.push(resolve)),
    async close() {
      closing = true;
      for (const response of open) response.destroy();
      await server.close();
    },
  };
}
