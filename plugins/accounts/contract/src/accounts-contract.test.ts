import { readFileSync } from 'node:fs';
import { describe, expect, expectTypeOf, it } from 'vitest';
import type { Context } from '@pi/context';
import {
  Accounts,
  Credentials,
  KeyEntryInteraction,
  apiKeySchema,
  isProviderId,
  providerIdSchema,
  type AccountsService,
} from './index';

describe('the accounts contract', () => {
  it('is a plugin with a session facet and a TUI facet of its own, so presentations never load the credential store', () => {
    const metadata = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')).pi;
    expect(metadata).toEqual({
      apiVersion: '2.0',
      description: expect.any(String),
      facets: { session: '@pi/accounts-session', tui: '@pi/accounts-tui' },
    });
  });

  it('keeps the credential store local: it has no exposure a peer could reach', () => {
    expect(Credentials.kind).toBe('local-service');
    expect(Object.keys(Credentials)).not.toContain('exposure');
  });

  it('exposes only login, setKey, remove and the providers state remotely; the key entry is sensitive', () => {
    expect(Accounts.kind).toBe('remote-service');
    expect(Object.keys(Accounts.exposure.methods).sort()).toEqual(['login', 'remove', 'setKey']);
    expect(Object.keys(Accounts.exposure.state)).toEqual(['state']);
    expect(Object.keys(Accounts.exposure.events)).toEqual([]);
    expect(KeyEntryInteraction.sensitive).toBe(true);
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
