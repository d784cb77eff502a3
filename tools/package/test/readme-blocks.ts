import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';

/** A code block of a README that its info string marks runnable: ```js runnable. */
export interface RunnableBlock {
  /** The README, relative to the workspace, and the block's number in it (from 1). */
  readonly name: string;
  readonly code: string;
}

/** The folders whose READMEs are searched: every project's, the examples', and the workspace's own. */
const FOLDERS = ['apps', 'libs', 'plugins', 'tools', 'examples'];
const RUNNABLE = /^```(?:js|mjs) runnable\n([\s\S]*?)^```$/gm;

/** Every runnable block of every README of the workspace, in path order. */
export async function runnableBlocks(root: string): Promise<RunnableBlock[]> {
  const readmes = [
    join(root, 'README.md'),
    ...(await Promise.all(FOLDERS.map((folder) => findReadmes(join(root, folder))))).flat(),
  ];
  const blocks: RunnableBlock[] = [];
  for (const readme of readmes.sort()) {
    const text = await readFile(readme, 'utf8');
    [...text.matchAll(RUNNABLE)].forEach((match, index) => {
      blocks.push({ name: `${relative(root, readme)} #${index + 1}`, code: match[1] ?? '' });
    });
  }
  return blocks;
}

async function findReadmes(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const found: string[] = [];
  for (const entry of entries) {
    if (entry.isFile() && entry.name === 'README.md') found.push(join(dir, entry.name));
    if (entry.isDirectory() && !['node_modules', 'dist', 'src', 'test'].includes(entry.name)) {
      found.push(...(await findReadmes(join(dir, entry.name))));
    }
  }
  return found;
}
