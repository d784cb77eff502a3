import { describe, expect, it } from 'vitest';
import { RemoteError, checkCallArguments } from '@pi/remote';
import { Accounts, MAX_API_KEY_LENGTH } from './index';

function refusal(member: string, args: unknown[]): RemoteError {
  try {
    checkCallArguments(Accounts.exposure, member, args);
  } catch (error) {
    if (error instanceof RemoteError) return error;
    throw error;
  }
  throw new Error('the arguments were accepted');
}

describe('accounts argument limits', () => {
  it('refuses an over-long provider id with invalid_argument, in a short message', () => {
    const error = refusal('remove', ['p'.repeat(1_000_000)]);
    expect(error.code).toBe('invalid_argument');
    expect(error.message.length).toBeLessThan(1024);
  });

  it('takes a key of the largest size and refuses a longer one without quoting it', () => {
    expect(
      checkCallArguments(Accounts.exposure, 'setKey', ['openrouter', 'k'.repeat(MAX_API_KEY_LENGTH)]),
    ).toHaveLength(2);
    const error = refusal('setKey', ['openrouter', 'k'.repeat(MAX_API_KEY_LENGTH + 1)]);
    expect(error.code).toBe('invalid_argument');
    expect(error.message).not.toContain('kkkk');
  });
});
