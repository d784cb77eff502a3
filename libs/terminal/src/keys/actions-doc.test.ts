import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ACTIONS } from './actions';

describe("the README's keybindings", () => {
  it('names every action keybindings.json accepts, and no other', async () => {
    const readme = await readFile(new URL('../../../../README.md', import.meta.url), 'utf8');
    const from = readme.indexOf('the actions:');
    const paragraph = readme.slice(from, readme.indexOf('.\n', from));
    const named = [...paragraph.matchAll(/`(\w+)`/g)].map((match) => match[1]);
    expect([...named].sort()).toEqual([...ACTIONS].sort());
  });
});
