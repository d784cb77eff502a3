import { beginEventStream, chunkEvent, startFakeChatServer, type FakeChatServer } from '@pi/model-providers/testing';

/** What the local model answers every prompt with, streamed in three pieces. */
export const MODEL_ANSWER = 'Hello from the local model.';

/**
 * An OpenAI-compatible server on 127.0.0.1 that streams `MODEL_ANSWER` for every chat completion and lists one
 * model, so a session's runs need no network and no key.
 */
export function startModelServer(): Promise<FakeChatServer> {
  return startFakeChatServer((request, response) => {
    if (!request.url.endsWith('/chat/completions')) {
      response.writeHead(200, { 'content-type': 'application/json' });
      return void response.end(JSON.stringify({ object: 'list', data: [{ id: 'small', object: 'model' }] }));
    }
    beginEventStream(response);
    const pieces = ['Hello from ', 'the local ', 'model.'].map((content) => chunkEvent({ content }));
    response.end(`${pieces.join('')}${chunkEvent({}, 'stop')}data: [DONE]\n\n`);
  });
}
