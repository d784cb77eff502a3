import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BACKGROUND_CONTEXT } from '@pi/context';
import type { JsonValue } from '@pi/remote';
import type { SettingsSnapshot } from '@pi/settings';
import { openSettingsStore, type SettingsFiles } from './settings-store';

const defaults = { theme: 'dark', editor: { tabSize: 2, vim: false } };

describe('the layered settings store', () => {
  let directory: string;
  let files: SettingsFiles;

  const write = async (path: string, content: string) => {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, content);
  };
  const open = () => openSettingsStore(defaults, files, BACKGROUND_CONTEXT);

  beforeEach(async () => {
    directory = await mkdtemp(join(tmpdir(), 'pi-settings-'));
    files = {
      user: join(directory, 'config', 'settings.json'),
      project: join(directory, 'project', '.pi', 'settings.json'),
    };
  });

  afterEach(async () => {
    await rm(directory, { recursive: true, force: true });
  });

  it('serves the defaults when no file exists', async () => {
    const store = await open();
    expect(store.snapshot()).toEqual({ values: defaults, warnings: [] });
    expect(store.get('editor.tabSize')).toBe(2);
    expect(store.sourceOf('theme')).toBe('defaults');
  });

  it('merges defaults, then the user file, then the project file', async () => {
    await write(files.user, JSON.stringify({ theme: 'light', editor: { vim: true } }));
    await write(files.project, JSON.stringify({ editor: { tabSize: 4 } }));
    const store = await open();
    expect(store.snapshot().values).toEqual({ theme: 'light', editor: { tabSize: 4, vim: true } });
    expect(store.sourceOf('theme')).toBe('user');
    expect(store.sourceOf('editor.tabSize')).toBe('project');
    expect(store.sourceOf('nothing')).toBeUndefined();
  });

  it('keeps the other layers when one file is broken, and says which', async () => {
    await write(files.user, JSON.stringify({ theme: 'light' }));
    await write(files.project, '{ "editor": ');
    const store = await open();
    expect(store.snapshot().values).toEqual({ ...defaults, theme: 'light' });
    expect(store.snapshot().warnings).toEqual([
      { layer: 'project', message: "the project's .pi/settings.json is not valid JSON" },
    ]);
  });

  it('treats a file that is not an object as broken', async () => {
    await write(files.user, '[1, 2]');
    expect((await open()).snapshot().warnings).toEqual([
      { layer: 'user', message: 'the user settings.json is not a JSON object' },
    ]);
  });

  it('writes a user key without losing the rest of the user file, and tells listeners', async () => {
    await write(files.user, JSON.stringify({ custom: { kept: true } }));
    const store = await open();
    const seen: SettingsSnapshot[] = [];
    const remove = store.onChange((snapshot) => seen.push(snapshot));
    await store.setUser('editor.vim', true, BACKGROUND_CONTEXT);
    expect(JSON.parse(await readFile(files.user, 'utf8'))).toEqual({ custom: { kept: true }, editor: { vim: true } });
    expect(store.get('editor.vim')).toBe(true);
    expect(seen).toHaveLength(1);
    remove();
    await store.setUser('theme', 'light', BACKGROUND_CONTEXT);
    expect(seen).toHaveLength(1);
  });

  it('lets a project value keep winning over a user write', async () => {
    await write(files.project, JSON.stringify({ theme: 'project-theme' }));
    const store = await open();
    await store.setUser('theme', 'light', BACKGROUND_CONTEXT);
    expect(store.get('theme')).toBe('project-theme');
  });

  it('refuses to overwrite a broken user file', async () => {
    await write(files.user, '{ broken');
    const store = await open();
    await expect(store.setUser('theme', 'light', BACKGROUND_CONTEXT)).rejects.toMatchObject({ code: 'unreadable' });
    expect(await readFile(files.user, 'utf8')).toBe('{ broken');
  });

  it('rejects keys that are not dotted identifiers and values that are not JSON', async () => {
    const store = await open();
    await expect(store.setUser('__proto__.polluted', true, BACKGROUND_CONTEXT)).rejects.toMatchObject({
      code: 'invalid_key',
    });
    await expect(store.setUser('theme', Number.NaN as JsonValue, BACKGROUND_CONTEXT)).rejects.toMatchObject({
      code: 'invalid_value',
    });
    expect(store.get('__proto__')).toBeUndefined();
  });

  it('hands out frozen copies, so a caller cannot change what others read', async () => {
    const store = await open();
    expect(() => ((store.get('editor') as { tabSize: number }).tabSize = 99)).toThrow(TypeError);
    expect(() => (store.snapshot().values['theme'] = 'mutated')).toThrow(TypeError);
    expect(store.get('editor.tabSize')).toBe(2);
    expect(store.get('theme')).toBe('dark');
  });

  it('picks up edits made by hand on reload', async () => {
    const store = await open();
    await write(files.user, JSON.stringify({ theme: 'light' }));
    await store.reload(BACKGROUND_CONTEXT);
    expect(store.get('theme')).toBe('light');
  });
});
