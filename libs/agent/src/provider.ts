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
    readonly code: 'http_status' | 'stream_dropped' | 'malformed' | 'no_credentials' | 'unknown_model' | 'aborted',
    message: string,
  ) {
    super(message);
  }
}
