import { describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT, withContextValue } from './context';
import { createContextKey, defineSharedContextKey } from './context-key';

describe('defineSharedContextKey', () => {
  it('returns the same key for the same name, so a value set through one is read through the other', () => {
    const first = defineSharedContextKey<string | undefined>('test.shared-name', undefined);
    const second = defineSharedContextKey<string | undefined>('test.shared-name', undefined);
    expect(second).toBe(first);
    expect(withContextValue(first, 'alice', BACKGROUND_CONTEXT).value(second)).toBe('alice');
  });

  it('keeps the first definition, default included', () => {
    const first = defineSharedContextKey('test.shared-default', 1);
    expect(defineSharedContextKey('test.shared-default', 2).defaultValue).toBe(1);
    expect(Object.isFrozen(first)).toBe(true);
  });

  it('never shares with a private key of the same name', () => {
    const shared = defineSharedContextKey('test.shared-private', 0);
    const own = createContextKey('test.shared-private', 0);
    expect(withContextValue(shared, 5, BACKGROUND_CONTEXT).value(own)).toBe(0);
  });
});
