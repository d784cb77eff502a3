import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Context } from '@pi/context';
import {
  Accounts,
  Credentials,
  accountsPlugin,
  apiKeySchema,
  isProviderId,
  providerIdSchema,
  type AccountsService,
} from './index';

describe('the accounts contract', () => {
  it('describes a plugin with a session facet only, so presentations never load credential code', () => {
    expect(accountsPlugin).toEqual({ id: '@pi/accounts', description: expect.any(String), facets: ['session'] });
  });

  it('keeps the credential store local: it has no exposure a peer could reach', () => {
    expect(Credentials.kind).toBe('local-service');
    expect(Object.keys(Credentials)).not.toContain('exposure');
  });

  it('exposes only setKey, remove and the providers state remotely', () => {
    expect(Accounts.kind).toBe('remote-service');
    expect(Object.keys(Accounts.exposure.methods).sort()).toEqual(['remove', 'setKey']);
    expect(Object.keys(Accounts.exposure.state)).toEqual(['state']);
    expect(Object.keys(Accounts.exposure.events)).toEqual([]);
  });

  it('has no remote member that returns a key', () => {
    expectTypeOf<Awaited<ReturnType<AccountsService['setKey']>>>().toEqualTypeOf<void>();
    expectTypeOf<Awaited<ReturnType<AccountsService['remove']>>>().toEqualTypeOf<void>();
    expectTypeOf<AccountsService['setKey']>().parameters.toEqualTypeOf<[string, string, Context]>();
  });

  it('accepts provider ids that are safe JSON keys and rejects the rest', () => {
    expect(providerIdSchema.safeParse('openrouter').success).toBe(true);
    expect(providerIdSchema.safeParse('my-vllm.local').success).toBe(true);
    for (const bad of ['', 'OpenAI', '../x', 'a b', 'x'.repeat(65)])
      expect(providerIdSchema.safeParse(bad).success).toBe(false);
    expect(isProviderId('__proto__')).toBe(false);
  });

  it('rejects a malformed key without quoting it in the message', () => {
    const secret = 'sk-live secret with spaces';
    const parsed = apiKeySchema.safeParse(secret);
    expect(parsed.success).toBe(false);
    expect(JSON.stringify(parsed.error?.issues)).not.toContain('sk-live');
    expect(apiKeySchema.safeParse('sk-proj-AbC123_-.').success).toBe(true);
  });
});
