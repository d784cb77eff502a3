import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createTreeWithEmptyWorkspace } from '@nx/devkit/testing';
import { pluginGenerator } from '@pi/workspace';

/**
 * Writes what `nx g @pi/workspace:plugin <name> --standalone --facets=session,tui` makes into `directory`: the
 * generator runs on a virtual workspace and its files are copied out.
 */
export async function generateStandalonePlugin(name: string, directory: string): Promise<void> {
  const tree = createTreeWithEmptyWorkspace();
  await pluginGenerator(tree, { name, facets: 'session,tui', standalone: true, directory: '../standalone' });
  for (const change of tree.listChanges()) {
    if (change.type !== 'CREATE' || !change.path.startsWith('../standalone/') || change.content === null) continue;
    const file = join(directory, change.path.slice('../standalone/'.length));
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, change.content);
  }
}
