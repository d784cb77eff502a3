export type {
  ModelCost,
  ModelProvider,
  ModelSpec,
  ProviderEvent,
  ProviderRequest,
  ThinkingLevel,
  ToolSchema,
} from '@pi/agent-contract';

export class ProviderError extends Error {
  override readonly name = 'ProviderError';
  constructor(
    readonly code:
      | 'http_status'
      | 'stream_dropped'
      | 'malformed'
      | 'no_credentials'
      | 'unknown_model'
      | 'aborted'
      /** The request holds more than the model's window: the run compacts and asks again, once. */
      | 'context_overflow',
    message: string,
  ) {
    super(message);
  }
}
