import { execFile } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { version } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { compiledScript } from '../src/index';

const run = promisify(execFile);
const FIXTURES = resolve(fileURLToPath(new URL('.', import.meta.url)), 'fixtures');
const folders: string[] = [];
afterAll(() => Promise.all(folders.map((folder) => rm(folder, { recursive: true, force: true }))));

describe('a TypeScript program compiled for plain node', () => {
  it('runs with node alone: its relative imports and workspace packages bundled, other packages from node_modules', async () => {
    const script = await compiledScript(join(FIXTURES, 'greeting.ts'));
    expect(script).toMatch(/greeting-[0-9a-f]{16}\.mjs$/);
    const { stdout } = await run(process.execPath, [script, 'pi']);
    expect(JSON.parse(stdout)).toEqual({ text: 'Hello, pi!', esbuild: version, bundled: true });
    expect(await readFile(script, 'utf8')).not.toContain("from '@pi/");
  });

  it('is compiled once per source in a process', async () => {
    const entry = join(FIXTURES, 'greeting.ts');
    const [first, second] = await Promise.all([compiledScript(entry), compiledScript(entry)]);
    expect(second).toBe(first);
    expect(await compiledScript(entry)).toBe(first);
  });

  it('a source that does not compile rejects with the compiler error naming the file', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'pi-compiled-script-'));
    folders.push(folder);
    const entry = join(folder, 'broken.ts');
    await writeFile(entry, 'const x: number = ;\n');
    await expect(compiledScript(entry)).rejects.toThrow(/broken\.ts:1:\d+: ERROR: Unexpected ";"/);
  });
});
