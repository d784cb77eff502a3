export { beginEventStream, chunkEvent, startFakeChatServer, writePiece } from './testing/fake-chat-server';
export type {
  FakeChatHandler,
  FakeChatServer,
  FakeChatServerOptions,
  RecordedRequest,
} from './testing/fake-chat-server';
export { anthropicAnswerEvents, anthropicEvent } from './testing/anthropic-wire';
export type { AnthropicAnswer } from './testing/anthropic-wire';
