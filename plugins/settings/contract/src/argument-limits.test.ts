import { describe, expect, it } from 'vitest';
import { RemoteError, checkCallArguments } from '@pi/remote';
import { MAX_PREFERENCE_ID_LENGTH, MAX_PREFERENCE_VALUE_LENGTH, Preferences, preferenceSchemas } from './index';

function refusal(args: unknown[]): RemoteError {
  try {
    checkCallArguments(Preferences.exposure, 'set', args);
  } catch (error) {
    if (error instanceof RemoteError) return error;
    throw error;
  }
  throw new Error('the arguments were accepted');
}

describe('preferences argument limits', () => {
  it('refuses a value larger than the limit with invalid_argument, in a short message', () => {
    const model = { provider: 'local', modelId: 'm'.repeat(MAX_PREFERENCE_VALUE_LENGTH) };
    const error = refusal(['defaultModel', model]);
    expect(error.code).toBe('invalid_argument');
    expect(error.message.length).toBeLessThan(1024);
  });

  it('refuses an over-long key with invalid_argument, in a short message', () => {
    const error = refusal(['k'.repeat(1_000_000), 'dark']);
    expect(error.code).toBe('invalid_argument');
    expect(error.message.length).toBeLessThan(1024);
  });

  it('bounds the ids of a model preference as models.select does', () => {
    const at = (length: number) => ({ provider: 'local', modelId: 'm'.repeat(length) });
    expect(preferenceSchemas.defaultModel.safeParse(at(MAX_PREFERENCE_ID_LENGTH)).success).toBe(true);
    expect(preferenceSchemas.defaultModel.safeParse(at(MAX_PREFERENCE_ID_LENGTH + 1)).success).toBe(false);
  });
});
