import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { nodeOptionsOf, npmStartNodeOptions } from './npm-start';

const ROOT = fileURLToPath(new URL('../../../../', import.meta.url));

describe('the node options npm start gives pi-tui', () => {
  it('are the words between node and the script', () => {
    expect(nodeOptionsOf('node --max-semi-space-size=1 --no-warnings tools/x.mjs --start')).toEqual([
      '--max-semi-space-size=1',
      '--no-warnings',
    ]);
    expect(nodeOptionsOf('node tools/x.mjs')).toEqual([]);
  });

  it('are refused for a start script that is not a node command', () => {
    expect(() => nodeOptionsOf('tsx tools/x.ts')).toThrow('npm start is not a node command');
  });

  it('are the ones pi-tui’s own bin starts node with, so npm start, the bin and the bench run the same program', async () => {
    const fromNpmStart = await npmStartNodeOptions(`${ROOT}package.json`);
    const bin = await readFile(`${ROOT}apps/tui/bin/pi-tui.mjs`, 'utf8');
    const shebang = bin.split('\n', 1)[0] ?? '';
    expect(shebang.startsWith('#!/usr/bin/env -S node')).toBe(true);
    expect(nodeOptionsOf(shebang.replace('#!/usr/bin/env -S ', '') + ' script.mjs')).toEqual(fromNpmStart);
    expect(fromNpmStart).toContain('--max-semi-space-size=1');
  });
});
