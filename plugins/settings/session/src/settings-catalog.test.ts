import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { BACKGROUND_CONTEXT } from '@pi/context';
import { startTestSessionHost, type TestSessionHost } from '@pi/host-session/testing';
import {
  Diagnostics,
  type AnyAgentTool,
  type CodingAgentSessionPluginContext,
  type PluginSettings,
  type Setting,
} from '@pi/plugin-api';
import { SettingsCatalog, type SettingsCatalogService, type SettingsCatalogState } from '@pi/settings';
import { TRANSPORTS, eventually, nextValue, remoteErrorOf } from '@pi/test-support';
import { sessionFacet } from './index';

const tabSize = z.int().min(1).max(16);

/** A plugin that declares `editor.tabSize` and contributes one tool named after its value. */
function tabSizePlugin(seen: { setting?: Setting<number>; changes: number[] }) {
  return (context: CodingAgentSessionPluginContext) => {
    const setting = context.settings.declare('editor.tabSize', {
      schema: tabSize,
      default: 2,
      description: 'Spaces per tab',
    });
    expectTypeOf(setting).toEqualTypeOf<Setting<number>>();
    seen.setting = setting;
    setting.onChange((value) => seen.changes.push(value));
    context.tools.add((draft) => {
      const name = `indent_${setting.value}`;
      draft.set(name, {
        name,
        description: 'Indents',
        parameters: z.object({}),
        execute: async () => ({ content: [{ type: 'text', text: 'ok' }] }),
      } as unknown as AnyAgentTool);
    });
  };
}

describe('a declared setting', () => {
  it('is typed by its schema', () => {
    const _declareStyle = (settings: PluginSettings) =>
      settings.declare('editor.style', { schema: z.enum(['tabs', 'spaces']), default: 'tabs', description: '' });
    expectTypeOf<ReturnType<typeof _declareStyle>['value']>().toEqualTypeOf<'tabs' | 'spaces'>();
  });
});

describe.each(TRANSPORTS)('declared settings over %s', (transport) => {
  let directory: string;
  let session: TestSessionHost | undefined;
  const userFile = () => join(directory, 'config', 'settings.json');
  const projectFile = () => join(directory, 'project', '.pi', 'settings.json');
  const write = async (path: string, value: unknown) => {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, typeof value === 'string' ? value : JSON.stringify(value));
  };

  const start = async (withSettings = true) => {
    const seen: { setting?: Setting<number>; changes: number[]; tools?: () => string[] } = { changes: [] };
    session = await startTestSessionHost({
      transport,
      directory,
      facets: [
        ...(withSettings ? [{ id: '@pi/settings', facet: sessionFacet }] : []),
        { id: '@test/editor', facet: tabSizePlugin(seen) },
        {
          id: '@test/observer',
          facet: (context) => void (seen.tools = () => [...context.tools.current().keys()]),
        },
      ],
    });
    return seen;
  };
  const catalog = async (): Promise<SettingsCatalogService> => {
    if (session === undefined) throw new Error('start the session first');
    return (await session.connect()).use(SettingsCatalog);
  };
  const entry = (state: SettingsCatalogState, key: string) => state.settings.find((setting) => setting.key === key);

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'pi-settings-catalog-'));
  });

  afterEach(async () => {
    await session?.close();
    session = undefined;
    await rm(directory, { recursive: true, force: true });
  });

  it('serves each declaration with its JSON Schema, owner, description and default', async () => {
    await start();
    const state = (await catalog()).state.value;
    expect(entry(state, 'editor.tabSize')).toEqual({
      key: 'editor.tabSize',
      owner: '@test/editor',
      description: 'Spaces per tab',
      schema: z.toJSONSchema(tabSize),
      default: 2,
      value: 2,
      layer: 'defaults',
    });
    expect(entry(state, 'theme')?.schema).toMatchObject({ type: 'string', enum: ['dark', 'light'] });
    expect(state.settings.map((setting) => setting.owner)).toEqual([
      '@pi/settings',
      '@pi/settings',
      '@pi/settings',
      '@pi/settings',
      '@test/editor',
    ]);
    expect(entry(state, 'promptEditor')).toMatchObject({ owner: '@pi/settings', default: '', value: '' });
  });

  it('layers defaults, then the user file, then the project file, then the session, saying where a value came from', async () => {
    await write(userFile(), { editor: { tabSize: 3 } });
    const seen = await start();
    const settings = await catalog();
    expect([seen.setting?.value, seen.setting?.layer]).toEqual([3, 'user']);
    await settings.set('editor.tabSize', 4, 'project', BACKGROUND_CONTEXT);
    expect(JSON.parse(await readFile(projectFile(), 'utf8'))).toEqual({ editor: { tabSize: 4 } });
    expect([seen.setting?.value, seen.setting?.layer]).toEqual([4, 'project']);
    await settings.set('editor.tabSize', 8, 'session', BACKGROUND_CONTEXT);
    const state = await nextValue(settings.state, (value) => entry(value, 'editor.tabSize')?.value === 8);
    expect(entry(state, 'editor.tabSize')?.layer).toBe('session');
    await settings.unset('editor.tabSize', 'session', BACKGROUND_CONTEXT);
    expect([seen.setting?.value, seen.setting?.layer]).toEqual([4, 'project']);
    await settings.unset('editor.tabSize', 'project', BACKGROUND_CONTEXT);
    expect([seen.setting?.value, seen.setting?.layer]).toEqual([3, 'user']);
    expect(seen.changes).toEqual([4, 8, 4, 3]);
  });

  it('reports a value that fails its schema with its file and key, uses the layer below and leaves the file alone', async () => {
    await write(userFile(), { editor: { tabSize: 5 } });
    await write(projectFile(), '{ "editor": { "tabSize": "wide" } }');
    const seen = await start();
    const state = (await catalog()).state.value;
    expect([seen.setting?.value, seen.setting?.layer]).toEqual([5, 'user']);
    expect(state.warnings).toEqual([
      {
        layer: 'project',
        key: 'editor.tabSize',
        message: expect.stringMatching(/^the project's \.pi\/settings\.json: "editor\.tabSize" is ignored/),
      },
    ]);
    expect(await readFile(projectFile(), 'utf8')).toBe('{ "editor": { "tabSize": "wide" } }');
  });

  it("reports each such warning to the session's diagnostics once, as the settings plugin's", async () => {
    await write(projectFile(), '{ "editor": { "tabSize": "wide" } }');
    await start();
    if (session === undefined) throw new Error('the session did not start');
    const diagnostics = await (await session.connect()).use(Diagnostics);
    await eventually(() => diagnostics.state.value.entries.length > 0);
    const entries = diagnostics.state.value.entries.map(({ source, kind, severity, message }) => ({
      source,
      kind,
      severity,
      message,
    }));
    expect(entries).toEqual([
      {
        source: '@pi/settings',
        kind: 'report',
        severity: 'warning',
        message: expect.stringMatching(/^the project's \.pi\/settings\.json: "editor\.tabSize" is ignored/) as unknown,
      },
    ]);
  });

  it('falls back to the default when every layer holds a bad value, with one warning per file', async () => {
    await write(userFile(), { editor: { tabSize: 0 } });
    await write(projectFile(), { editor: { tabSize: 99 } });
    const seen = await start();
    const state = (await catalog()).state.value;
    expect([seen.setting?.value, seen.setting?.layer]).toEqual([2, 'defaults']);
    expect(state.warnings.map((warning) => [warning.layer, warning.key])).toEqual([
      ['project', 'editor.tabSize'],
      ['user', 'editor.tabSize'],
    ]);
  });

  it('rebuilds the registries a setting feeds when it changes, without a restart', async () => {
    const seen = await start();
    expect(seen.tools?.()).toContain('indent_2');
    await (await catalog()).set('editor.tabSize', 4, 'session', BACKGROUND_CONTEXT);
    await eventually(() => seen.tools?.().includes('indent_4') === true);
    expect(seen.tools?.()).not.toContain('indent_2');
  });

  it('refuses an undeclared key and a value its schema rejects, with invalid_argument, writing nothing', async () => {
    await start();
    const settings = await catalog();
    const undeclared = await remoteErrorOf(settings.set('shellPath', '/bin/evil', 'user', BACKGROUND_CONTEXT));
    expect(undeclared.code).toBe('invalid_argument');
    expect(undeclared.message).toContain('not a declared setting');
    const bad = await remoteErrorOf(settings.set('editor.tabSize', 40, 'user', BACKGROUND_CONTEXT));
    expect(bad.code).toBe('invalid_argument');
    const badLayer = await remoteErrorOf(settings.set('editor.tabSize', 4, 'defaults' as 'user', BACKGROUND_CONTEXT));
    expect(badLayer.code).toBe('invalid_argument');
    await expect(readFile(userFile(), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('refuses to write over a broken project file', async () => {
    await write(projectFile(), '{ broken');
    await start();
    const error = await remoteErrorOf((await catalog()).set('editor.tabSize', 4, 'project', BACKGROUND_CONTEXT));
    expect(error.code).toBe('unavailable');
    expect(await readFile(projectFile(), 'utf8')).toBe('{ broken');
  });

  it('applies a hand edit of the user or the project file without being asked', async () => {
    // Directories are watched, and only those that exist when the session starts.
    await write(userFile(), {});
    await write(projectFile(), {});
    const seen = await start();
    const settings = await catalog();
    await write(userFile(), { editor: { tabSize: 6 } });
    await nextValue(settings.state, (value) => entry(value, 'editor.tabSize')?.value === 6);
    expect([seen.setting?.value, seen.setting?.layer]).toEqual([6, 'user']);
    await write(projectFile(), { editor: { tabSize: 9 } });
    await nextValue(settings.state, (value) => entry(value, 'editor.tabSize')?.layer === 'project');
    expect(seen.changes).toEqual([6, 9]);
  });

  it('picks up a hand edit of a settings file on reload', async () => {
    const seen = await start();
    const settings = await catalog();
    await write(userFile(), { editor: { tabSize: 6 } });
    await settings.reload(BACKGROUND_CONTEXT);
    expect([seen.setting?.value, seen.setting?.layer]).toEqual([6, 'user']);
    await eventually(() => entry(settings.state.value, 'editor.tabSize')?.value === 6);
  });

  it('keeps the session layer beside the session file, so a restarted session process still has it', async () => {
    await start();
    await (await catalog()).set('editor.tabSize', 7, 'session', BACKGROUND_CONTEXT);
    await session?.close();
    const seen = await start();
    expect([seen.setting?.value, seen.setting?.layer]).toEqual([7, 'session']);
    await expect(readFile(userFile(), 'utf8')).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('stops telling exactly the listener whose remover ran', async () => {
    const seen = await start();
    const kept: number[] = [];
    const dropped: number[] = [];
    seen.setting?.onChange((value) => kept.push(value));
    const remove = seen.setting?.onChange((value) => dropped.push(value));
    const settings = await catalog();
    await settings.set('editor.tabSize', 3, 'session', BACKGROUND_CONTEXT);
    remove?.();
    await settings.set('editor.tabSize', 4, 'session', BACKGROUND_CONTEXT);
    expect(kept).toEqual([3, 4]);
    expect(dropped).toEqual([3]);
    expect(seen.changes).toEqual([3, 4]);
  });

  it('gives a plugin its default when the session runs without the settings plugin', async () => {
    await write(userFile(), { editor: { tabSize: 6 } });
    const seen = await start(false);
    expect([seen.setting?.value, seen.setting?.layer]).toEqual([2, 'defaults']);
    expect(seen.tools?.()).toContain('indent_2');
  });
});
