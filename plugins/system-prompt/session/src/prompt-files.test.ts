import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_PROMPT_FILE_BYTES } from '@pi/system-prompt';
import { contextDirectories, readPromptFiles, type PromptFileLocations } from './prompt-files';

let root: string;
let locations: PromptFileLocations;

beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'pi-prompt-files-'));
  locations = {
    configDir: join(root, 'home', '.config', 'pi'),
    cwd: join(root, 'work', 'repo', 'pkg'),
    homeDir: join(root, 'home'),
    contextFiles: true,
  };
  await mkdir(locations.configDir, { recursive: true });
  await mkdir(join(locations.cwd, '.pi'), { recursive: true });
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

async function put(path: string, text: string | Buffer): Promise<void> {
  await mkdir(join(path, '..'), { recursive: true });
  await writeFile(path, text);
}

/** The files found under the test's root (a machine may have context files above it). */
const ours = (paths: readonly string[]) => paths.filter((path) => path.startsWith(root));

describe('context files', () => {
  it('come from the config directory, then every parent from the top down, then the working directory', async () => {
    await put(join(locations.cwd, 'AGENTS.md'), 'package rules');
    await put(join(root, 'work', 'AGENTS.md'), 'workspace rules');
    await put(join(locations.configDir, 'AGENTS.md'), 'my rules');
    await put(join(root, 'work', 'repo', 'README.md'), 'not a context file');

    const files = await readPromptFiles(locations);
    expect(ours(files.contextFiles.map((file) => file.path))).toEqual([
      join(locations.configDir, 'AGENTS.md'),
      join(root, 'work', 'AGENTS.md'),
      join(locations.cwd, 'AGENTS.md'),
    ]);
    expect(files.contextFiles.at(-1)).toMatchObject({ text: 'package rules', chars: 13, display: 'AGENTS.md' });
    expect(files.contextFiles[0]?.display).toBe(`~${sep}${join('.config', 'pi', 'AGENTS.md')}`);
    expect(files.warnings).toEqual([]);
  });

  it("take a directory's AGENTS.md over its CLAUDE.md, and CLAUDE.md where there is no AGENTS.md", async () => {
    await put(join(locations.cwd, 'AGENTS.md'), 'agents');
    await put(join(locations.cwd, 'CLAUDE.md'), 'claude');
    await put(join(root, 'work', 'repo', 'CLAUDE.md'), 'repo claude');

    const files = await readPromptFiles(locations);
    expect(ours(files.contextFiles.map((file) => file.path))).toEqual([
      join(root, 'work', 'repo', 'CLAUDE.md'),
      join(locations.cwd, 'AGENTS.md'),
    ]);
  });

  it('are not read when turned off, while SYSTEM.md and APPEND_SYSTEM.md still are', async () => {
    await put(join(locations.cwd, 'AGENTS.md'), 'agents');
    await put(join(locations.cwd, '.pi', 'SYSTEM.md'), 'custom');
    const files = await readPromptFiles({ ...locations, contextFiles: false });
    expect(files.contextFiles).toEqual([]);
    expect(files.customPrompt?.text).toBe('custom');
  });

  it('that cannot be used are skipped with a warning naming them, and the next candidate is used', async () => {
    await put(join(locations.cwd, 'AGENTS.md'), Buffer.alloc(MAX_PROMPT_FILE_BYTES + 1, 0x61));
    await put(join(locations.cwd, 'CLAUDE.md'), 'claude');
    await put(join(root, 'work', 'AGENTS.md'), Buffer.from([0xff, 0xfe, 0x00, 0xc3]));
    await mkdir(join(root, 'work', 'repo', 'AGENTS.md'));

    const files = await readPromptFiles(locations);
    expect(ours(files.contextFiles.map((file) => file.path))).toEqual([join(locations.cwd, 'CLAUDE.md')]);
    expect(files.warnings).toEqual([
      `${join(root, 'work', 'AGENTS.md')} is not used: it is not UTF-8 text`,
      'AGENTS.md is not used: it is 101 KiB, over the 100 KiB limit',
    ]);
  });
});

describe('SYSTEM.md and APPEND_SYSTEM.md', () => {
  it("are the project's .pi/ files when present, else the user's", async () => {
    await put(join(locations.configDir, 'SYSTEM.md'), 'user system');
    await put(join(locations.configDir, 'APPEND_SYSTEM.md'), 'user append');
    let files = await readPromptFiles(locations);
    expect([files.customPrompt?.text, files.appendedPrompt?.text]).toEqual(['user system', 'user append']);

    await put(join(locations.cwd, '.pi', 'SYSTEM.md'), 'project system');
    await put(join(locations.cwd, '.pi', 'APPEND_SYSTEM.md'), 'project append');
    files = await readPromptFiles(locations);
    expect([files.customPrompt?.display, files.appendedPrompt?.display]).toEqual([
      join('.pi', 'SYSTEM.md'),
      join('.pi', 'APPEND_SYSTEM.md'),
    ]);
  });

  it('are null when neither exists', async () => {
    const files = await readPromptFiles(locations);
    expect([files.customPrompt, files.appendedPrompt]).toEqual([null, null]);
  });
});

describe('contextDirectories', () => {
  it('lists the config directory first and each directory once', () => {
    expect(contextDirectories('/home/u/.config/pi', '/home/u/.config/pi')).toEqual([
      '/home/u/.config/pi',
      '/',
      '/home',
      '/home/u',
      '/home/u/.config',
    ]);
  });
});
