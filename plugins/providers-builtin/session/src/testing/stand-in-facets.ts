import { Credentials, type CredentialStore } from '@pi/accounts';
import type { CodingAgentSessionPluginContext } from '@pi/plugin-api';
import type { JsonValue } from '@pi/remote';
import { Settings } from '@pi/settings';
import { memorySettings } from '@pi/settings/testing';

/**
 * Stand-ins for the accounts and settings plugins, providing their local services from memory. Tests of this
 * feature use them rather than the real facets: a feature may depend on contracts only.
 */
export function memoryCredentials(initial: Record<string, string> = {}): CredentialStore {
  const keys = new Map(Object.entries(initial));
  const listeners = new Set<() => void>();
  const changed = () => listeners.forEach((listener) => listener());
  return {
    get: async (provider) => keys.get(provider),
    set: async (provider, key) => {
      keys.set(provider, key);
      changed();
    },
    remove: async (provider) => {
      const removed = keys.delete(provider);
      if (removed) changed();
      return removed;
    },
    list: async () => [...keys.keys()].sort(),
    onChange(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

export function credentialsFacet(store: CredentialStore) {
  return (context: CodingAgentSessionPluginContext) => context.provide(Credentials, store);
}

export function settingsFacet(values: Record<string, JsonValue>) {
  const store = memorySettings(values);
  return (context: CodingAgentSessionPluginContext) => context.provide(Settings, store);
}
