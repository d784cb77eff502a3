import { describe, expect, it } from 'vitest';
import { PLUGIN_API_VERSION } from '@pi/plugin-api';
import { acceptSessionHost } from './host-compatibility';

const session = (plugins: { id: string; apiVersion?: string }[], pluginApi = PLUGIN_API_VERSION) => ({
  clientId: 'c',
  protocol: '1.1',
  pluginApi,
  plugins,
});

describe('acceptSessionHost', () => {
  it('accepts a session of this plugin API major whose plugins match this TUI’s halves of them', () => {
    const hello = session([{ id: '@x/todo', apiVersion: '2.0' }, { id: '@x/git' }]);
    expect(acceptSessionHost(hello)).toBeNull();
    expect(acceptSessionHost(hello, [{ id: '@x/todo', apiVersion: PLUGIN_API_VERSION }])).toBeNull();
  });

  it('refuses a session of another plugin API major', () => {
    expect(acceptSessionHost(session([], '3.0'))).toBe(`the host runs plugin API 3.0, this pi ${PLUGIN_API_VERSION}`);
  });

  it('refuses, naming the plugin, a session whose half of a plugin this TUI runs was built for another major', () => {
    const hello = session([{ id: '@x/todo', apiVersion: '2.0' }]);
    expect(acceptSessionHost(hello, [{ id: '@x/todo', apiVersion: '3.0' }])).toBe(
      'plugin @x/todo is built for plugin API 2.0 in the host and 3.0 here; install one version of it for both',
    );
  });
});
