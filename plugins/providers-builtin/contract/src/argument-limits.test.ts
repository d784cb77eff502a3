import { describe, expect, it } from 'vitest';
import { RemoteError, checkCallArguments } from '@pi/remote';
import { MAX_MODEL_ID_LENGTH, MAX_PROVIDER_ID_LENGTH, Models, modelsStateSchema } from './index';

function refusal(args: unknown[]): RemoteError {
  try {
    checkCallArguments(Models.exposure, 'select', args);
  } catch (error) {
    if (error instanceof RemoteError) return error;
    throw error;
  }
  throw new Error('the arguments were accepted');
}

describe('models argument limits', () => {
  it('selects by ids of the largest size', () => {
    const ref = { provider: 'p'.repeat(MAX_PROVIDER_ID_LENGTH), modelId: 'm'.repeat(MAX_MODEL_ID_LENGTH) };
    expect(checkCallArguments(Models.exposure, 'select', [ref])).toEqual([ref]);
  });

  it('refuses an over-long model id or provider id with invalid_argument, in a short message', () => {
    for (const ref of [
      { provider: 'offline', modelId: 'm'.repeat(MAX_MODEL_ID_LENGTH + 1) },
      { provider: 'offline', modelId: 'm'.repeat(1_000_000) },
      { provider: 'p'.repeat(1_000_000), modelId: 'echo' },
    ]) {
      const error = refusal([ref]);
      expect(error.code).toBe('invalid_argument');
      expect(error.message.length).toBeLessThan(1024);
    }
  });

  it('leaves the state unbounded, so a long id in models.json cannot break the watch', () => {
    const model = { provider: 'local', modelId: 'm'.repeat(MAX_MODEL_ID_LENGTH + 1), name: 'long', reasoning: false };
    const state = {
      catalog: { revision: 1, availableModels: [model] },
      configuration: { model: { provider: model.provider, modelId: model.modelId }, thinkingLevel: 'off' },
      refresh: { status: 'idle' },
    };
    expect(modelsStateSchema.safeParse(state).success).toBe(true);
  });
});
